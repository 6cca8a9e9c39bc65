package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"cacao/views/viewtest"
)

// TestFollowAndInvite: from bob's profile ana follows him, sees him in the
// list of players she follows with his last visit (until he hides it),
// and is told when he opens a public table; from the list she invites him
// to a table in one click; she unfollows him there. A stranger is offered
// none of it, and cannot follow.
func TestFollowAndInvite(t *testing.T) {
	s := newSite(t)
	ana, bob := s.signup("ana"), s.signup("bob")
	anon := s.client("nobody")
	if _, page := anon.get("/users/bob"); viewtest.Has(t, page, `form[action="/users/bob/follow"]`) {
		t.Fatal("a visitor is offered to follow")
	}
	if _, page := bob.get("/users/bob"); viewtest.Has(t, page, `form[action="/users/bob/follow"]`) {
		t.Fatal("bob is offered to follow himself")
	}
	// A visitor's follow is refused as one not signed in (401), on a page
	// that says to log in and offers the log-in link; the list of players
	// followed leads a visitor to the log-in form, which comes back to it.
	if code, page := anon.post("/users/bob/follow", nil); code != http.StatusUnauthorized ||
		viewtest.Text(t, page, "main h1") != "Please log in" || viewtest.Text(t, page, "main .error") != "Please log in first" ||
		!viewtest.Has(t, page, `header a[href="/login"]`) {
		t.Fatalf("a visitor's follow: %d, %q: %q", code, viewtest.Text(t, page, "main h1"), viewtest.Text(t, page, "main .error"))
	}
	anon.http.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	if code, _ := anon.get("/following"); code != http.StatusSeeOther || anon.last.Get("Location") != "/login?next=%2Ffollowing" {
		t.Fatalf("a visitor's list of players followed: %d to %q, want 303 to the log-in form", code, anon.last.Get("Location"))
	}
	if _, page := ana.get("/users/bob"); viewtest.Text(t, page, `form[action="/users/bob/follow"] button`) != "Follow" {
		t.Fatal("ana is not offered to follow bob")
	}
	if code, _ := ana.post("/users/bob/follow", nil); code != http.StatusOK {
		t.Fatalf("following: %d", code)
	}
	_, page := ana.get("/following")
	line := viewtest.Find(t, page, "ul.following li")
	if line.Length() != 1 || !strings.HasPrefix(viewtest.Collapse(line.Text()), "bob last seen") {
		t.Fatalf("whom ana follows: %q", viewtest.Collapse(line.Text()))
	}
	bob.post("/settings/privacy", url.Values{"hide_last_seen": {"on"}})
	if _, page := ana.get("/following"); strings.Contains(viewtest.Text(t, page, "ul.following"), "last seen") {
		t.Fatal("bob's last visit shows though he hides it")
	}
	id := bob.createGame("open", "none", "none")
	if _, notes := ana.get("/notifications"); !strings.Contains(notes, fmt.Sprintf("bob, whom you follow, opened a public table: game %d.", id)) {
		t.Fatal("ana is not told of bob's public table")
	}
	if code, _ := ana.post("/users/bob/invite", nil); code != http.StatusOK {
		t.Fatalf("inviting bob: %d", code)
	}
	if _, home := bob.get("/"); !strings.Contains(home, "ana") || !viewtest.Has(t, home, `form[action$="/join"]`) {
		t.Fatal("bob has no invitation from ana")
	}
	if code, _ := ana.post("/users/bob/unfollow", nil); code != http.StatusOK {
		t.Fatalf("unfollowing: %d", code)
	}
	if _, page := ana.get("/following"); viewtest.Has(t, page, "ul.following li") {
		t.Fatal("ana still follows bob")
	}
	if code, page := ana.post("/users/ana/follow", nil); code != http.StatusUnprocessableEntity || !strings.Contains(page, "You cannot follow yourself") {
		t.Fatalf("following herself: %d", code)
	}
}
