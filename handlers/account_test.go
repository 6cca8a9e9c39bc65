package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"cacao/handlers/mail"
	"cacao/views/viewtest"
)

// signedIn tells whether c's browser is signed in (as anyone).
func signedIn(c *client) bool {
	_, body := c.get("/")
	return viewtest.Has(c.t, body, "span.me")
}

// TestPasswordChangeAndSignOutEverywhere: changing the password asks for
// the current one (a wrong one, or a bad new one, is refused with a
// sentence and changes nothing), keeps this browser signed in and signs
// out every other session and every mail sign-in link sent before; "sign
// out everywhere" ends every session, this one too.
func TestPasswordChangeAndSignOutEverywhere(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	other := s.client("ana")
	other.get("/login")
	if code, _ := other.post("/login", url.Values{"username": {"ana"}, "password": {"secret-ana"}}); code != http.StatusOK || !signedIn(other) {
		t.Fatal("ana's second browser cannot log in")
	}
	u := s.mailUser("ana")
	sg := s.signer()
	exp := s.store.Clock().Add(mail.GoLinkLife)
	id := ana.createGame("greedy", "none", "none")
	oldLink := signedLink(sg, "/m/go", mail.Claims{Purpose: mail.PurposeGo, User: u.ID, Game: id, Exp: exp, Version: u.TokenVersion})

	ana.get("/settings")
	ana.post("/language", url.Values{"lang": {"fa"}})
	if code, body := ana.post("/settings/password", url.Values{"current": {"not-it"}, "password": {"a-new-secret"}}); code != http.StatusUnprocessableEntity || !strings.Contains(body, "این رمز فعلی شما نیست") {
		t.Fatalf("a wrong current password: %d\n%.300s", code, body[strings.Index(body, "<main"):])
	}
	ana.post("/language", url.Values{"lang": {"en"}})
	if code, body := ana.post("/settings/password", url.Values{"current": {"secret-ana"}, "password": {"short"}}); code != http.StatusUnprocessableEntity || !strings.Contains(body, "A password has 8 to 72 characters") {
		t.Fatalf("a short new password: %d", code)
	}
	if !signedIn(other) {
		t.Fatal("a refused change signed the other browser out")
	}
	code, body := ana.post("/settings/password", url.Values{"current": {"secret-ana"}, "password": {"a-new-secret"}})
	if code != http.StatusOK || !strings.Contains(body, "Your password is changed.") || !signedIn(ana) {
		t.Fatalf("the change: %d, or this browser is signed out", code)
	}
	if signedIn(other) {
		t.Fatal("after the change ana's other browser is still signed in")
	}
	if _, err := s.store.Authenticate("ana", "secret-ana"); err == nil {
		t.Fatal("the old password still works")
	}
	var err error
	fresh := s.client("ana")
	if code, body := fresh.get(oldLink); code != http.StatusForbidden || !strings.Contains(body, "This link no longer signs you in") || signedIn(fresh) {
		t.Fatalf("a sign-in link from before the change: %d", code)
	}
	if u, err = s.store.UserByID(u.ID); err != nil {
		t.Fatal(err)
	}
	newLink := signedLink(sg, "/m/go", mail.Claims{Purpose: mail.PurposeGo, User: u.ID, Game: id, Exp: exp, Version: u.TokenVersion})
	if fresh.get(newLink); !signedIn(fresh) {
		t.Fatal("a link sent after the change does not sign in")
	}

	if code, _ := ana.post("/settings/sign-out-everywhere", nil); code != http.StatusOK {
		t.Fatalf("sign out everywhere: %d", code)
	}
	if signedIn(ana) || signedIn(fresh) {
		t.Fatal("after signing out everywhere a browser is still signed in")
	}
	if fresh.get(newLink); signedIn(fresh) {
		t.Fatal("a link sent before signing out everywhere still signs in")
	}
}

// TestSessionsListed: the settings list the account's signed-in sessions,
// this browser's marked; logging out drops one, signing out everywhere all.
func TestSessionsListed(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	other := s.client("ana")
	other.get("/login")
	other.post("/login", url.Values{"username": {"ana"}, "password": {"secret-ana"}})
	count := func(c *client) (int, bool) {
		_, body := c.get("/settings")
		list := viewtest.Parse(t, body).Find("h3").FilterFunction(func(_ int, h *goquery.Selection) bool {
			return viewtest.Collapse(h.Text()) == "Signed in on"
		}).NextFiltered("ul").Find("li")
		mine := list.Find("strong").FilterFunction(func(_ int, s *goquery.Selection) bool {
			return viewtest.Collapse(s.Text()) == "(this browser)"
		})
		return list.Length(), mine.Length() > 0
	}
	if n, mine := count(ana); n != 2 || !mine {
		t.Fatalf("ana sees %d sessions (hers marked: %v), want 2", n, mine)
	}
	other.post("/logout", nil)
	if n, _ := count(ana); n != 1 {
		t.Fatalf("after the other browser logged out ana sees %d sessions", n)
	}
	ana.post("/settings/sign-out-everywhere", nil)
	again := s.client("ana")
	again.get("/login")
	again.post("/login", url.Values{"username": {"ana"}, "password": {"secret-ana"}})
	if n, mine := count(again); n != 1 || !mine {
		t.Fatalf("after signing out everywhere and back in, %d sessions listed", n)
	}
}

// TestSignOutOneSession: each of the account's other sessions can be
// signed out alone from the settings, and is then signed out while this
// browser stays in; a browser the site cannot name is listed as such, not
// as "?"; an unknown session, or another account's, is refused with a
// sentence and changes nothing.
func TestSignOutOneSession(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	bob := s.signup("bob")
	other := s.client("ana")
	other.get("/login")
	other.post("/login", url.Values{"username": {"ana"}, "password": {"secret-ana"}})
	_, body := ana.get("/settings")
	items := viewtest.Find(t, body, `li:has(form[action="/settings/sessions/end"])`)
	if items.Length() != 1 || strings.Contains(items.Text(), "?") || !strings.Contains(items.Text(), "an unknown browser") {
		t.Fatalf("ana's other session, to sign out: %q", viewtest.Collapse(items.Text()))
	}
	id := items.Find(`input[name="login"]`).AttrOr("value", "")
	if id == "" {
		t.Fatal("the form names no session")
	}
	if code, page := bob.post("/settings/sessions/end", url.Values{"login": {id}}); code != http.StatusNotFound || !strings.Contains(page, "That session is not signed in any more.") {
		t.Fatalf("bob signing out ana's session: %d\n%s", code, viewtest.Excerpt(page))
	}
	if code, _ := ana.post("/settings/sessions/end", url.Values{"login": {"nonsense"}}); code != http.StatusNotFound || !signedIn(other) {
		t.Fatalf("an unknown session: %d, or the other browser was signed out", code)
	}
	if code, _ := ana.post("/settings/sessions/end", url.Values{"login": {id}}); code != http.StatusOK {
		t.Fatalf("signing out the other browser: %d", code)
	}
	if signedIn(other) || !signedIn(ana) {
		t.Fatalf("after ending the other session: it is signed in %v, this one %v", signedIn(other), signedIn(ana))
	}
	// A session that ends itself (its name read from another's page) is
	// signed out, not left signed in and unlisted.
	again := s.client("ana")
	again.get("/login")
	again.post("/login", url.Values{"username": {"ana"}, "password": {"secret-ana"}})
	_, body = ana.get("/settings")
	own := viewtest.Find(t, body, `li:has(form[action="/settings/sessions/end"]) input[name="login"]`).AttrOr("value", "")
	again.get("/settings")
	if code, _ := again.post("/settings/sessions/end", url.Values{"login": {own}}); code != http.StatusOK || signedIn(again) {
		t.Fatalf("a session ending itself: %d, still signed in %v", code, signedIn(again))
	}
	if _, body = ana.get("/settings"); viewtest.Has(t, body, `li:has(form[action="/settings/sessions/end"])`) {
		t.Fatal("the session that ended itself is still listed")
	}
}
