package autoplay_test

import (
	"testing"
	"time"

	"cacao/engine"
	"cacao/engine/bot"
	"cacao/models"
	"cacao/models/autoplay"
	"cacao/models/modeltest"
)

// TestReviewMade: a review asked for is made in the slots and kept, a
// turn judged for each turn the player made, each with the bot's choice
// as a record's turn and shares between 0 and 1. A review another process
// set out to make is left to it until its lease is over; then Resume
// makes it.
func TestReviewMade(t *testing.T) {
	clock := modeltest.NewClock(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), 0)
	s := open(t, models.WithClock(clock.Now))
	quick := autoplay.WithReview(bot.Review{Search: bot.Search{Iterations: 100}, Deals: 2})
	rn := autoplay.NewRunner(s, nil, quick)
	defer rn.Close()
	ana, err := s.CreateUser("ana", "password-ana")
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.CreateGame(ana, models.GameSpec{Seats: []string{"medium"}})
	if err != nil {
		t.Fatal(err)
	}
	id := g.ID
	var l *models.Loaded
	for i := 0; ; i++ {
		if l, err = autoplay.Bots(s, id, nil); err != nil {
			t.Fatal(err)
		}
		if l.Game.Status == models.StatusFinished {
			break
		}
		if i == 200 {
			t.Fatal("the game did not finish")
		}
		st, me := l.Play.State(), l.SeatOf(ana.ID)
		if len(st.Player(me).Queue()) > 0 {
			_, err = s.CommitResolve(id, l.Game.Version, models.Actor{UserID: ana.ID}, nil)
		} else {
			legal := st.LegalPlacements(nil)
			_, err = s.CommitTurn(id, l.Game.Version, models.Actor{UserID: ana.ID}, engine.Move{Placement: legal[len(legal)/2]})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	seat, err := s.AskReview(l, ana.ID)
	if err != nil {
		t.Fatal(err)
	}
	turns, _ := l.OwnTurns(seat)
	// Another process set out to make it, and stopped: this one leaves it
	// until the lease is over, then Resume makes it.
	if ok, err := s.ClaimReview(id, seat); !ok || err != nil {
		t.Fatalf("the first claim: %v, %v", ok, err)
	}
	rn.Review(id, seat, ana.ID)
	if n, err := rn.Resume(); err != nil || n != 0 {
		t.Fatalf("a review under way in another process resumed: %d, %v", n, err)
	}
	clock.Advance(models.ReviewLease + time.Minute)
	if n, err := rn.Resume(); err != nil || n != 1 {
		t.Fatalf("a review left unmade resumed: %d, %v", n, err)
	}
	var made []models.ReviewedTurn
	for i := 0; ; i++ {
		r, ts, err := s.ReviewOf(id, seat)
		if err != nil {
			t.Fatal(err)
		}
		if r.DoneAt != nil {
			made = ts
			break
		}
		if i == 600 {
			t.Fatal("the review was not made in a minute")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(made) != len(turns) || len(made) == 0 {
		t.Fatalf("%d turns reviewed of %d made", len(made), len(turns))
	}
	for i, m := range made {
		if m.Seq != turns[i].Seq || m.Best == "" || m.PlayedWon < 0 || m.PlayedWon > 1 || m.BestWon < 0 || m.BestWon > 1 {
			t.Fatalf("turn %d reviewed as %+v", i, m)
		}
	}
	if n, err := rn.Resume(); err != nil || n != 0 {
		t.Fatalf("a review made resumed: %d, %v", n, err)
	}
}
