package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"cacao/views/viewtest"
)

// TestInviteLinkThroughSignUp: a visitor who is not signed in opens an
// invitation link and sees who invites them to what; signing up (or
// logging in) from there brings them back to it, and they take the seat.
// A page that sends a signed-out visitor to log in keeps its whole address
// (every query parameter) for after.
func TestInviteLinkThroughSignUp(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	id := ana.createGame("open", "none", "none")
	_, body := ana.get(fmt.Sprintf("/games/%d", id))
	m := regexp.MustCompile(`/join/[0-9a-f]{32}`).FindString(body)
	if m == "" {
		t.Fatal("no invite link on the open game's page")
	}
	visitor := s.client("cyd")
	code, body := visitor.get(m)
	next := url.QueryEscape(m)
	if code != http.StatusOK || !strings.Contains(body, "ana invites you to a game of Cacao.") || !viewtest.Has(t, body, `a[href="/signup?next=`+next+`"]`) || !viewtest.Has(t, body, `a[href="/login?next=`+next+`"]`) {
		t.Fatalf("the invitation to a signed-out visitor: %d\n%s", code, body)
	}
	_, body = visitor.get("/signup?next=" + next)
	if !viewtest.Has(t, body, `form input[name="next"][value="`+m+`"]`) || !viewtest.Has(t, body, `a[href="/login?next=`+next+`"]`) {
		t.Fatal("the sign-up form does not keep the invitation")
	}
	code, body = visitor.post("/signup", url.Values{"username": {"cyd"}, "password": {"secret-cyd"}, "next": {m}})
	if code != http.StatusOK || !strings.Contains(body, "Join game") || !strings.Contains(body, "Take a seat") {
		t.Fatalf("after signing up the visitor is not back at the invitation: %d\n%s", code, body)
	}
	if code, body = visitor.post(m, nil); code != http.StatusOK || !strings.Contains(body, "Your hand") && !strings.Contains(body, "Waiting for") {
		t.Fatalf("taking the seat: %d", code)
	}
	if seat, _ := s.seatOf(id, "cyd"); seat < 0 {
		t.Fatal("cyd has no seat after following the invitation")
	}

	// The whole address is kept through logging in.
	page := fmt.Sprintf("/games/%d?tile=2101&rot=1", id)
	stranger := s.client("ana")
	_, body = stranger.get(page)
	if !viewtest.Has(t, body, `form input[name="next"][value="`+page+`"]`) {
		t.Fatalf("the log-in form lost part of the address %s", page)
	}
}

// TestPrivateTable: a private table is in nobody's list of open games and
// its open seat cannot be taken from there (a sentence says why); its
// invitation link seats whoever has it, and a player invited by name takes
// their seat as usual.
func TestPrivateTable(t *testing.T) {
	s := newSite(t)
	ana, bob, cyd := s.signup("ana"), s.signup("bob"), s.signup("cyd")
	ana.get("/")
	code, body := ana.post("/games", url.Values{"seat": {"open", "invite"}, "invite": {"", "cyd"}, "private": {"on"}})
	m := gameIDRE.FindStringSubmatch(body)
	if code != http.StatusOK || m == nil {
		t.Fatalf("creating a private table: %d", code)
	}
	var id uint
	fmt.Sscan(m[1], &id)
	join := fmt.Sprintf("/games/%d/join", id)
	if _, home := bob.get("/"); strings.Contains(home, join) || viewtest.Has(t, home, fmt.Sprintf(`[href="/games/%d"]`, id)) {
		t.Fatal("the private table is listed for bob")
	}
	if code, body := bob.post(join, nil); code != http.StatusUnprocessableEntity || !strings.Contains(body, "This table is private") {
		t.Fatalf("bob joining the private table from the lobby: %d", code)
	}
	if seat, _ := s.seatOf(id, "bob"); seat >= 0 {
		t.Fatal("bob took a seat of the private table without its link")
	}
	if code, _ := cyd.post(join, nil); code != http.StatusOK {
		t.Fatalf("cyd, invited by name: %d", code)
	}
	_, page := ana.get(fmt.Sprintf("/games/%d", id))
	link := regexp.MustCompile(`/join/[0-9a-f]{32}`).FindString(page)
	bob.get(link)
	if code, _ := bob.post(link, nil); code != http.StatusOK {
		t.Fatalf("bob with the link: %d", code)
	}
	if seat, l := s.seatOf(id, "bob"); seat < 0 || l.Game.Status != "active" {
		t.Fatal("the link did not seat bob, or the full table did not start")
	}
}

// TestTablesByTheCreator: the creator of an open table sees who its kept
// seats are for, withdraws an invitation (the invitee is told) and cancels
// the table; nobody else can; past 10 tables waiting for players the home
// page refuses another with a sentence.
func TestTablesByTheCreator(t *testing.T) {
	s := newSite(t)
	ana, bob := s.signup("ana"), s.signup("bob")
	var id uint
	ana.get("/")
	code, body := ana.post("/games", url.Values{"seat": {"invite", "open"}, "invite": {"bob", ""}})
	m := gameIDRE.FindStringSubmatch(body)
	if code != http.StatusOK || m == nil {
		t.Fatalf("creating a table with an invitation: %d", code)
	}
	fmt.Sscan(m[1], &id)
	page := fmt.Sprintf("/games/%d", id)
	if _, body := ana.get(page); !strings.Contains(body, "A seat is kept for bob.") || !strings.Contains(body, "Cancel this table") {
		t.Fatal("the creator is not shown the invitation and the way to cancel")
	}
	if _, body := bob.get(page); strings.Contains(body, "Cancel this table") {
		t.Fatal("the invited player is offered to cancel the table")
	}
	if code, body := bob.post(page+"/cancel", nil); code != http.StatusUnprocessableEntity || !strings.Contains(body, "Only the player who opened this table can do that") {
		t.Fatalf("bob cancelling ana's table: %d", code)
	}
	bu := s.mailUser("bob")
	if code, _ := ana.post(page+"/withdraw", url.Values{"user": {fmt.Sprint(bu.ID)}}); code != http.StatusOK {
		t.Fatalf("withdrawing: %d", code)
	}
	if _, body := bob.get("/notifications"); !strings.Contains(body, fmt.Sprintf("ana withdrew the invitation to game %d.", id)) {
		t.Fatal("bob is not told the invitation was withdrawn")
	}
	if _, body := ana.get(page); strings.Contains(body, "A seat is kept for bob.") {
		t.Fatal("the withdrawn invitation is still shown")
	}
	if code, body := ana.post(page+"/cancel", nil); code != http.StatusOK || !strings.Contains(body, fmt.Sprintf("Game %d is cancelled.", id)) {
		t.Fatalf("cancelling: %d", code)
	}
	if code, _ := ana.get(page); code != http.StatusNotFound {
		t.Fatalf("the cancelled table's page: %d", code)
	}
	for i := 0; ; i++ {
		s.clock.Advance(3 * time.Minute) // past the limit on games made in a row
		ana.get("/")
		code, body := ana.post("/games", url.Values{"seat": {"open"}})
		if strings.Contains(body, "You have 10 tables waiting for players") {
			if i != 10 || code != http.StatusUnprocessableEntity {
				t.Fatalf("refused at table %d with %d, want the 11th with 422", i+1, code)
			}
			break
		}
		if i == 11 {
			t.Fatal("an 11th table waiting for players was opened")
		}
	}
}
