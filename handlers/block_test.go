package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"cacao/views/viewtest"
)

// TestDeclineAllAndBlock: bob declines all his invitations with one
// button; he declines one and blocks its sender, whose next invitation is
// refused in a sentence; Settings lists the blocked player and unblocks.
func TestDeclineAllAndBlock(t *testing.T) {
	s := newSite(t)
	ana, bob, cyd := s.signup("ana"), s.signup("bob"), s.signup("cyd")
	invite := func(from *client) (int, string) {
		from.get("/")
		return from.post("/games", url.Values{"seat": {"invite"}, "invite": {"bob"}})
	}
	invite(ana)
	invite(cyd)
	_, home := bob.get("/")
	if !viewtest.Has(t, home, `form[action="/invitations/decline-all"]`) {
		t.Fatal("no button declines all invitations")
	}
	if code, body := bob.post("/invitations/decline-all", nil); code != http.StatusOK || !strings.Contains(body, "You declined 2 invitations.") {
		t.Fatalf("declining all: %d\n%.300s", code, body)
	}
	if _, home := bob.get("/"); strings.Contains(home, "/decline") {
		t.Fatal("invitations are left after declining all")
	}
	invite(ana)
	_, home = bob.get("/")
	id := 0
	action, _ := viewtest.Attr(t, home, `form[action^="/games/"]`, "action")
	if _, err := fmt.Sscanf(action, "/games/%d", &id); err != nil {
		t.Fatal(err)
	}
	block := fmt.Sprintf("/games/%d/block", id)
	if !viewtest.HasText(t, home, `form[action="`+block+`"] button`, "Decline and block ana") {
		t.Fatalf("the invitation offers no way to block its sender:\n%s", home)
	}
	if code, _ := cyd.post(block, nil); code != http.StatusUnprocessableEntity {
		t.Fatalf("cyd blocking through an invitation that is not hers: %d", code)
	}
	if code, body := bob.post(block, nil); code != http.StatusOK || !strings.Contains(body, "ana can no longer invite you") {
		t.Fatalf("blocking: %d\n%.300s", code, body)
	}
	if code, body := invite(ana); code != http.StatusUnprocessableEntity || !strings.Contains(body, "That player takes no invitations from you") {
		t.Fatalf("ana inviting bob, who blocked her: %d", code)
	}
	_, settings := bob.get("/settings")
	if !strings.Contains(settings, "Blocked players") || !viewtest.Has(t, settings, `input[name="name"][value="ana"]`) {
		t.Fatal("Settings do not list ana as blocked")
	}
	if code, _ := bob.post("/settings/unblock", url.Values{"name": {"ana"}}); code != http.StatusOK {
		t.Fatalf("unblocking: %d", code)
	}
	if code, _ := invite(ana); code != http.StatusOK {
		t.Fatalf("ana inviting bob once unblocked: %d", code)
	}
}
