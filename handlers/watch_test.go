package handlers_test

import (
	"fmt"
	"net/http"
	"testing"

	"cacao/models"
	"cacao/views/viewtest"
)

// TestWatching: a public game is watched by anyone, signed in or not (no
// hand, the chat read-only) and listed among the games being played; a
// private one is its players' and the admins' only: for anyone else it
// does not exist, page, log, chat, stream or record.
func TestWatching(t *testing.T) {
	s := newSite(t)
	ana, eve, root := s.signup("ana"), s.signup("eve"), s.signup("root")
	if _, err := s.store.SetAdmin("root", true); err != nil {
		t.Fatal(err)
	}
	u, _ := s.store.UserNamed("ana")
	public, err := s.store.CreateGame(u, models.GameSpec{Seats: []string{"greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	private, err := s.store.CreateGame(u, models.GameSpec{Seats: []string{"greedy"}, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	anon := s.client("anon")
	for _, c := range []*client{anon, eve} {
		code, page := c.get(fmt.Sprintf("/games/%d", public.ID))
		if code != http.StatusOK || viewtest.Has(t, page, "#hand") || !viewtest.Has(t, page, "#board") || viewtest.Has(t, page, "#chat-text") || !viewtest.Has(t, page, "#chat") {
			t.Fatalf("%s watching the public game: %d", c.name, code)
		}
		for _, path := range []string{"", "/log", "/chat", "/events", "/record.json", "/turns/0"} {
			if code, _ := c.get(fmt.Sprintf("/games/%d%s", private.ID, path)); code != http.StatusNotFound {
				t.Errorf("%s opening %s of the private game: %d; want 404", c.name, path, code)
			}
		}
	}
	for _, c := range []*client{ana, root} {
		if code, _ := c.get(fmt.Sprintf("/games/%d", private.ID)); code != http.StatusOK {
			t.Errorf("%s opening the private game: %d", c.name, code)
		}
	}
	_, list := anon.get("/games")
	if !viewtest.Has(t, list, fmt.Sprintf(`a[href="/games/%d"]`, public.ID)) || viewtest.Has(t, list, fmt.Sprintf(`[href="/games/%d"]`, private.ID)) {
		t.Fatalf("the games being played:\n%s", list)
	}
}
