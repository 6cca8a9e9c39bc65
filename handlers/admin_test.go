package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"cacao/engine"
	"cacao/views/viewtest"
)

// TestAdminPagesOnlyForAdmins: the admin pages are "Not found" for a
// player, and their link is only in an admin's header.
func TestAdminPagesOnlyForAdmins(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	for _, path := range []string{"/admin", "/admin/users", "/admin/users/ana", "/admin/games", "/admin/audit", "/admin/reports"} {
		if code, _ := ana.get(path); code != http.StatusNotFound {
			t.Fatalf("a player opening %s: %d", path, code)
		}
	}
	if code, _ := ana.post("/admin/users/ana/ban", url.Values{"reason": {"x"}}); code != http.StatusNotFound {
		t.Fatalf("a player banning: %d", code)
	}
	if code, _ := ana.post("/admin/reports/1", url.Values{"action": {"hide"}}); code != http.StatusNotFound {
		t.Fatalf("a player hiding a message: %d", code)
	}
	if _, body := ana.get("/"); viewtest.Has(t, body, `[href="/admin"]`) {
		t.Fatal("a player's header links to the admin pages")
	}
	if _, err := s.store.SetAdmin("ana", true); err != nil {
		t.Fatal(err)
	}
	if _, body := ana.get("/"); !viewtest.Has(t, body, `a[href="/admin"]`) {
		t.Fatal("an admin's header has no link to the admin pages")
	}
	if code, _ := ana.get("/admin/users"); code != http.StatusOK {
		t.Fatalf("an admin opening the users: %d", code)
	}
}

// TestAdminBansAndEnds: an admin finds a user, bans them with a reason
// (a ban without one is refused in the admin's language and changes
// nothing): the user is signed out and their log-in refused with the
// reason, the bot takes their running seat. The admin ends another game:
// its players see why, and nobody, the admin included, sees a hand of it.
// The audit log lists both.
func TestAdminBansAndEnds(t *testing.T) {
	s := newSite(t)
	root := s.signup("root")
	if _, err := s.store.SetAdmin("root", true); err != nil {
		t.Fatal(err)
	}
	id, _, bob := s.anaAndBob()
	_, body := root.get("/admin/users?q=BO")
	if !viewtest.Has(t, body, `a[href="/admin/users/bob"]`) || viewtest.Has(t, body, `[href="/admin/users/ana"]`) {
		t.Fatalf("searching for bo:\n%s", body)
	}
	root.post("/language", url.Values{"lang": {"fa"}})
	if code, body := root.post("/admin/users/bob/ban", url.Values{"reason": {" "}}); code != http.StatusUnprocessableEntity || !strings.Contains(body, "دلیل") {
		t.Fatalf("a ban without a reason: %d\n%.500s", code, body)
	}
	root.post("/language", url.Values{"lang": {"en"}})
	if code, _ := bob.get("/settings"); code != http.StatusOK {
		t.Fatal("a refused ban signed bob out")
	}
	if code, body := root.post("/admin/users/bob/ban", url.Values{"reason": {"rude <b>chat</b>"}}); code != http.StatusOK || !strings.Contains(body, "bob is banned.") {
		t.Fatalf("banning: %d\n%.500s", code, body)
	}
	if code, body := bob.get("/settings"); !viewtest.Has(t, body, `input[name="password"]`) || strings.Contains(body, "Sign out everywhere") {
		t.Fatalf("bob's session still works after the ban: %d\n%s", code, body)
	}
	code, body := bob.post("/login", url.Values{"username": {"bob"}, "password": {"secret-bob"}})
	if code != http.StatusForbidden || !strings.Contains(viewtest.Text(t, body, "p.error"), "This account is banned: rude <b>chat</b>") {
		t.Fatalf("bob logging in: %d\n%.800s", code, body)
	}
	if seat, l := s.seatOf(id, "bob"); seat < 0 || l.Seats[seat].Bot == "" {
		t.Fatal("the bot did not take bob's running seat")
	}

	carol, dan := s.signup("carol"), s.signup("dan")
	other := carol.createGame("open", "none", "none")
	dan.get("/")
	dan.post(fmt.Sprintf("/games/%d/join", other), nil)
	page := fmt.Sprintf("/games/%d", other)
	if _, body := root.get(page); viewtest.Has(t, body, "#hand") {
		t.Fatal("an admin sees a hand of a running game")
	}
	_, body = root.get("/admin/games")
	if !viewtest.Has(t, body, fmt.Sprintf(`form[action="/admin/games/%d/end"]`, other)) {
		t.Fatalf("the games list offers no end for game %d:\n%s", other, body)
	}
	if code, _ := root.post(fmt.Sprintf("/admin/games/%d/end", other), url.Values{"reason": {"a test table"}}); code != http.StatusOK {
		t.Fatalf("ending: %d", code)
	}
	_, body = carol.get(page)
	if !strings.Contains(body, "An admin ended this game: a test table") || viewtest.Has(t, body, "#hand") {
		t.Fatalf("carol's page of the ended game:\n%s", body)
	}
	if _, body := carol.get("/"); !strings.Contains(body, "Ended by an admin") {
		t.Fatal("carol's games do not say the game was ended")
	}
	if !viewtest.Has(t, body, `a[href="`+page+`/record.json"]`) {
		t.Fatalf("the ended game's page offers no record:\n%s", body)
	}
	code, rec := carol.get(page + "/record.json")
	if code != http.StatusOK {
		t.Fatalf("the record of an ended game: %d %s", code, rec)
	}
	r, err := engine.DecodeRecord([]byte(rec))
	if err != nil {
		t.Fatalf("the ended game's record: %v\n%s", err, rec)
	}
	if st, err := engine.Replay(r); err != nil || st.Over() {
		t.Fatalf("the ended game's record replays with %v, over %v", err, err == nil && st.Over())
	}
	_, body = root.get("/admin/audit")
	for _, want := range []string{"banned", "rude &lt;b&gt;chat&lt;/b&gt;", "game ended", fmt.Sprintf(`<a href="/games/%d">Game %d</a>`, other, other), "made admin"} {
		if !strings.Contains(body, want) {
			t.Fatalf("the audit log lacks %q:\n%s", want, body)
		}
	}
}
