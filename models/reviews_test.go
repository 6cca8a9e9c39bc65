package models_test

import (
	"errors"
	"testing"

	"cacao/models"
)

// TestOwnTurns: a finished game's own turns of a seat are the turns its
// player made, each with the position before it, where the move is that
// seat's and legal; turns the stand-in made after a resignation are not
// among them.
func TestOwnTurns(t *testing.T) {
	s, _ := openClocked(t)
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	id := startDuel(t, s, ana, bob, 0)
	resignAfter(t, s, id, ana, bob, 4)
	l := mustLoad(t, s, id)
	for _, u := range []*models.User{ana, bob} {
		seat := l.Seats[slicesIndexPlayer(l, u.ID)].Index
		turns, err := l.OwnTurns(seat)
		if err != nil {
			t.Fatal(err)
		}
		want := 0
		for _, e := range l.Log {
			if e.Kind == models.LogTurn && e.Seat == seat && e.UserID != nil && *e.UserID == u.ID {
				want++
			}
		}
		if len(turns) != want || want == 0 {
			t.Fatalf("%s: %d own turns; the log has %d made by them", u.Username, len(turns), want)
		}
		for _, tn := range turns {
			if tn.Before.Current() != seat {
				t.Fatalf("%s's turn %d: the position before it is seat %d's turn", u.Username, tn.Turn, tn.Before.Current())
			}
			if _, err := tn.Before.Clone().Play(seat, tn.Move); err != nil {
				t.Fatalf("%s's turn %d does not replay on the position before it: %v", u.Username, tn.Turn, err)
			}
		}
	}
}

// slicesIndexPlayer is the index in l.Seats of user's seat, resigned or not.
func slicesIndexPlayer(l *models.Loaded, user uint) int {
	for i, seat := range l.Seats {
		if p := seat.Player(); p != nil && *p == user {
			return i
		}
	}
	return -1
}

// TestAskReview: a review is asked for once a game is over, by one of its
// players (who resigned too), once; it is kept with its turns, and goes
// with its player's account.
func TestAskReview(t *testing.T) {
	s, _ := openClocked(t)
	ana, bob, eve := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob"), models.MustUser(t, s, "eve")
	id := startDuel(t, s, ana, bob, 0)
	if _, err := s.AskReview(mustLoad(t, s, id), ana.ID); !errors.Is(err, models.ErrReviewNotOver) {
		t.Fatalf("a review of a game under way: %v", err)
	}
	resignAfter(t, s, id, ana, bob, 4)
	l := mustLoad(t, s, id)
	if _, err := s.AskReview(l, eve.ID); !errors.Is(err, models.ErrForbidden) {
		t.Fatalf("a stranger's review: %v", err)
	}
	seat, err := s.AskReview(l, ana.ID) // she resigned: her turns are hers still
	if err != nil || seat != l.Seats[slicesIndexPlayer(l, ana.ID)].Index {
		t.Fatalf("ana's review: seat %d, %v", seat, err)
	}
	if _, err := s.AskReview(l, ana.ID); !errors.Is(err, models.ErrReviewAsked) {
		t.Fatalf("asked twice: %v", err)
	}
	if r, turns, err := s.ReviewOf(id, seat); err != nil || r.DoneAt != nil || len(turns) != 0 || r.UserID != ana.ID {
		t.Fatalf("the review asked for: %+v, %d turns, %v", r, len(turns), err)
	}
	if _, _, err := s.ReviewOf(id, 1-seat); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("bob's review, not asked for: %v", err)
	}
	// Claimed by a process, it is no one else's for a lease; given up, it
	// is the next one's at once.
	if ok, err := s.ClaimReview(id, seat); !ok || err != nil {
		t.Fatalf("claiming: %v, %v", ok, err)
	}
	if rs, _ := s.StaleReviews(10); len(rs) != 0 {
		t.Fatalf("a review under way is stale: %+v", rs)
	}
	if err := s.ReleaseReview(id, seat); err != nil {
		t.Fatal(err)
	}
	if rs, _ := s.StaleReviews(10); len(rs) != 1 {
		t.Fatalf("a review given up is not for the next process: %+v", rs)
	}
	made := []models.ReviewedTurn{{Seq: 9, Turn: 5, Best: "{}", PlayedWon: 0.2, BestWon: 0.5}, {Seq: 2, Turn: 1, Same: true, PlayedWon: 0.4, BestWon: 0.4}}
	if err := s.SaveReview(id, seat, made); err != nil {
		t.Fatal(err)
	}
	r, turns, err := s.ReviewOf(id, seat)
	if err != nil || r.DoneAt == nil || len(turns) != 2 || turns[0].Seq != 2 || turns[1].Lost() != 0.3 || turns[0].Lost() != 0 {
		t.Fatalf("the review made: %+v, %+v, %v", r, turns, err)
	}
	if _, err := s.DeleteAccount(ana.ID, "password-ana"); err != nil {
		t.Fatal(err)
	}
	var n int64
	models.DB(s).Model(&models.ReviewedTurn{}).Count(&n)
	if _, _, err := s.ReviewOf(id, seat); !errors.Is(err, models.ErrNotFound) || n != 0 {
		t.Fatalf("after ana's account went, her review: %v, %d turns left", err, n)
	}
}
