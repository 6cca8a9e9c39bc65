package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"cacao/engine"
	"cacao/models"
)

// TestDeleteAccount: with a wrong password nothing changes; with hers,
// ana's account goes: in her running game the greedy bot takes her seat
// and plays on, her unstarted table is cancelled, the seat kept for her at
// cyd's table is open again, her finished game keeps her seat as "deleted
// player", and she can no longer log in.
func TestDeleteAccount(t *testing.T) {
	s := newSite(t)
	running, ana, bob := s.anaAndBob()
	cyd := s.signup("cyd")
	finished := ana.createGame("greedy", "none", "none")
	s.playToEnd(finished, engine.NewRand(3), ana)
	table := ana.createGame("open", "none", "none")
	cyd.get("/")
	_, body := cyd.post("/games", url.Values{"seat": {"invite"}, "invite": {"ana"}})
	m := gameIDRE.FindStringSubmatch(body)
	if m == nil {
		t.Fatal("cyd's table with an invitation for ana")
	}
	var cyds uint
	fmt.Sscan(m[1], &cyds)

	ana.get("/settings")
	if code, body := ana.post("/settings/delete", url.Values{"password": {"wrong"}}); code != http.StatusUnprocessableEntity || !strings.Contains(body, "That is not your current password") {
		t.Fatalf("deleting with a wrong password: %d", code)
	}
	if _, err := s.store.Authenticate("ana", "secret-ana"); err != nil {
		t.Fatal("a refused deletion changed the account")
	}
	if code, body := ana.post("/settings/delete", url.Values{"password": {"secret-ana"}}); code != http.StatusOK || !strings.Contains(body, "Your account is deleted.") {
		t.Fatalf("deleting: %d", code)
	}
	if signedIn(ana) {
		t.Fatal("the deleted account is still signed in")
	}
	if _, err := s.store.Authenticate("ana", "secret-ana"); err == nil {
		t.Fatal("the deleted account still logs in")
	}
	l, _ := s.store.LoadGame(running)
	seat := -1
	for i, st := range l.Seats {
		if st.Name == models.DeletedName {
			seat = i
		}
	}
	if seat < 0 || l.Seats[seat].Bot != models.DefaultStandIn || l.Seats[seat].UserID != nil {
		t.Fatalf("ana's seat in the running game: %+v", l.Seats)
	}
	if _, body := bob.get(fmt.Sprintf("/games/%d", running)); !strings.Contains(body, "deleted player") {
		t.Fatal("bob's game does not show the seat as a deleted player's")
	}
	names := map[string]bool{}
	fl, _ := s.store.LoadGame(finished)
	for _, st := range fl.Seats {
		names[st.Name] = true
	}
	if names["ana"] || !names[models.DeletedName] || fl.Game.Status != models.StatusFinished {
		t.Fatalf("the finished game's seats: %v", names)
	}
	if _, err := s.store.LoadGame(table); err == nil {
		t.Fatal("ana's unstarted table is still there")
	}
	if l, _ := s.store.LoadGame(cyds); l.Seats[1].InvitedID != nil {
		t.Fatal("the seat kept for ana at cyd's table is still kept")
	}
}
