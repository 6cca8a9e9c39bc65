package handlers_test

import (
	"fmt"
	"testing"

	"cacao/engine"
	"cacao/models"
)

// TestHiddenTabDoesNotSee: the live refetch of a game page left open in a
// hidden tab (X-Page-Visibility: hidden) does not count as the player
// having seen the game: their "your turn" mail stays due; the refetch of
// a visible page cancels it.
func TestHiddenTabDoesNotSee(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	waiter, mover := ana, bob
	if seat, l := s.seatOf(id, "bob"); l.Play.State().Current() != seat {
		waiter, mover = bob, ana
	}
	u := s.mailUser(waiter.name)
	addr := waiter.name + "@example.test"
	if _, err := s.store.SetEmail(u.ID, addr, models.MailEach); err != nil {
		t.Fatal(err)
	}
	if err := s.store.VerifyEmail(u.ID, addr); err != nil {
		t.Fatal(err)
	}
	waiter.get(fmt.Sprintf("/games/%d", id))
	if !mover.act(id, engine.NewRand(1)) {
		t.Fatal("the mover could not move")
	}
	refetch := func(visibility string) {
		t.Helper()
		waiter.ask(t, "GET", fmt.Sprintf("/games/%d?live=1&from=0", id), "", map[string]string{"HX-Request": "true", "X-Page-Visibility": visibility})
	}
	s.clock.Advance(models.DefaultMailDelay + 1)
	refetch("hidden")
	row := s.pendingMail(u.ID, "turn")
	if _, skip, err := s.store.MailRecipient(&row); err != nil || skip != "" {
		t.Fatalf("after a hidden tab's refetch the turn mail is skipped: %q (%v)", skip, err)
	}
	refetch("visible")
	if _, skip, err := s.store.MailRecipient(&row); err != nil || skip == "" {
		t.Fatalf("after a visible refetch the turn mail is still wanted (%v)", err)
	}
}
