package models_test

import (
	"errors"
	"testing"

	"cacao/engine"
	"cacao/models"
	"cacao/models/autoplay"
)

// TestResign: a player who resigns hands the seat to the greedy bot for
// the rest of the game: the log says so, the seat keeps their name and
// remembers them, it has no clock, the other player is told, the bot
// plays it to the end, and the player can no longer act there (nor resign
// again). A finished game cannot be resigned.
func TestResign(t *testing.T) {
	s, clock := openClocked(t)
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	id := startDuel(t, s, ana, bob, 24)
	l := mustLoad(t, s, id)
	seat := l.SeatOf(ana.ID)
	if _, err := s.Resign(id, 999); !errors.Is(err, models.ErrForbidden) {
		t.Fatalf("resigning a seat one does not hold: %v", err)
	}
	l, err := s.Resign(id, ana.ID)
	if err != nil {
		t.Fatal(err)
	}
	st := mustLoad(t, s, id).Seats[seat]
	if st.UserID != nil || st.Bot != models.ResignBot || st.ResignedID == nil || *st.ResignedID != ana.ID || st.Name != "ana" {
		t.Fatalf("the resigned seat: %+v", st)
	}
	if st.Deadline != nil || st.RemindAt != nil {
		t.Fatalf("the resigned seat keeps a clock: %+v", st)
	}
	last := l.Events[len(l.Events)-1]
	if last.Kind != models.KindResign || last.Seat != seat {
		t.Fatalf("the log ends with %+v, want ana's resignation", last)
	}
	ns, _, err := s.Notifications(bob.ID, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(ns) == 0 || ns[0].Format != "%s resigned in game %d: the greedy bot plays their seat to the end." {
		t.Fatalf("bob's newest notice: %+v", ns)
	}
	if _, err := s.Resign(id, ana.ID); !errors.Is(err, models.ErrForbidden) {
		t.Fatalf("resigning twice: %v", err)
	}
	legal := l.Play.State().LegalPlacements(nil)
	if _, err := s.CommitTurn(id, -1, models.Actor{UserID: ana.ID}, engine.Move{Placement: legal[0]}); !errors.Is(err, models.ErrForbidden) {
		t.Fatalf("ana moving after she resigned: %v", err)
	}

	// bob plays on, the bot answers for ana's seat, to the end.
	r := engine.NewRand(1)
	for step := 0; ; step++ {
		if step == 200 {
			t.Fatal("the game did not end")
		}
		if l, err = autoplay.Bots(s, id, nil); err != nil {
			t.Fatal(err)
		}
		if l.Game.Status == models.StatusFinished {
			break
		}
		cur := l.Play.State()
		if q := cur.Player(1 - seat).Queue(); len(q) > 0 {
			_, err = s.CommitResolve(id, l.Game.Version, models.Actor{UserID: bob.ID}, nil)
		} else {
			if cur.Current() == seat {
				t.Fatal("the bot left the resigned seat's turn unplayed")
			}
			legal := cur.LegalPlacements(nil)
			_, err = s.CommitTurn(id, l.Game.Version, models.Actor{UserID: bob.ID}, engine.Move{Placement: legal[r.Intn(len(legal))]})
		}
		if err != nil {
			t.Fatal(err)
		}
		clock.Advance(0)
	}
	if _, err := s.Resign(id, bob.ID); !errors.Is(err, models.ErrNotActive) {
		t.Fatalf("resigning a finished game: %v", err)
	}
}
