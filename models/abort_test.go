package models_test

import (
	"errors"
	"testing"
	"time"

	"cacao/models"
)

// TestAbortByAgreement: a player's request to end a game without a result
// asks the others and lapses when the game moves on; once every person at
// the table agrees during one turn the game ends there, unrated, and all
// are told. A watcher cannot ask; after the first two rounds nobody can;
// against bots alone, the one person's word is enough.
func TestAbortByAgreement(t *testing.T) {
	s, _ := openClocked(t)
	ana, bob, eve := veteran(t, s, "ana"), veteran(t, s, "bob"), models.MustUser(t, s, "eve")
	id := startDuel(t, s, ana, bob, 24)
	if _, err := s.AskAbort(mustLoad(t, s, id), eve.ID); !errors.Is(err, models.ErrForbidden) {
		t.Fatalf("a watcher asking: %v", err)
	}
	if ended, err := s.AskAbort(mustLoad(t, s, id), ana.ID); err != nil || ended {
		t.Fatalf("ana asking: ended %v, %v", ended, err)
	}
	if ended, err := s.AskAbort(mustLoad(t, s, id), ana.ID); err != nil || ended {
		t.Fatalf("ana asking again: ended %v, %v", ended, err)
	}
	if n := len(notesOf(t, s, bob.ID, models.KindAbortAsk)); n != 1 {
		t.Fatalf("bob was asked %d times", n)
	}
	if agreed, agreeing := mustLoad(t, s, id).AbortAgreed(); len(agreed) != 1 || len(agreeing) != 2 {
		t.Fatalf("agreed %v of %v", agreed, agreeing)
	}
	actAll(t, s, id, ana)
	actAll(t, s, id, bob)
	if agreed, _ := mustLoad(t, s, id).AbortAgreed(); len(agreed) != 0 {
		t.Fatalf("ana's request outlived the turn: %v", agreed)
	}
	if ended, err := s.AskAbort(mustLoad(t, s, id), bob.ID); err != nil || ended {
		t.Fatalf("bob asking: ended %v, %v", ended, err)
	}
	if ended, err := s.AskAbort(mustLoad(t, s, id), ana.ID); err != nil || !ended {
		t.Fatalf("ana agreeing: ended %v, %v", ended, err)
	}
	l := mustLoad(t, s, id)
	if l.Game.Status != models.StatusEnded || !l.Game.Aborted {
		t.Fatalf("the game agreed ended is %s (%q)", l.Game.Status, l.Game.EndReason)
	}
	for _, u := range []*models.User{ana, bob} {
		if n := len(notesOf(t, s, u.ID, models.KindAborted)); n != 1 {
			t.Fatalf("%s was told %d times that the game ended", u.Username, n)
		}
		if v, _ := s.UserByID(u.ID); v.RatedGames != 0 {
			t.Fatalf("%s was rated for the game ended by agreement", u.Username)
		}
		if st := l.Seats[models.UserSeat(l.Seats, u.ID)]; st.WaitingSince != nil || st.Deadline != nil {
			t.Fatalf("%s is still waited on", u.Username)
		}
	}
	if _, err := s.AskAbort(mustLoad(t, s, id), ana.ID); !errors.Is(err, models.ErrNotActive) {
		t.Fatalf("asking in an ended game: %v", err)
	}

	late := startDuel(t, s, ana, bob, 24)
	for mustLoad(t, s, late).Play.State().Turns() < models.AbortRounds*2 {
		actAll(t, s, late, ana)
		actAll(t, s, late, bob)
	}
	if _, err := s.AskAbort(mustLoad(t, s, late), ana.ID); !errors.Is(err, models.ErrAbortLate) {
		t.Fatalf("asking in the third round: %v", err)
	}

	g, err := s.CreateGame(eve, models.GameSpec{Seats: []string{"greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	if ended, err := s.AskAbort(mustLoad(t, s, g.ID), eve.ID); err != nil || !ended {
		t.Fatalf("against a bot alone: ended %v, %v", ended, err)
	}
}

// TestNoAbortInTournaments: a tournament's game has a result for its
// standings: its players cannot end it by agreement, and the game page
// does not offer it.
func TestNoAbortInTournaments(t *testing.T) {
	s, clock := openClocked(t)
	players := tourPlayers(t, s, 4)
	tour := openTournament(t, s, models.TourSpec{Format: models.Swiss, Rounds: 1}, players)
	clock.Advance(25 * time.Hour) // sign-up closes
	runTours(t, s)
	rounds := tourPage(t, s, tour.ID).Rounds
	if len(rounds) == 0 || len(rounds[0].Games) == 0 {
		t.Fatal("the tournament did not start")
	}
	l := mustLoad(t, s, rounds[0].Games[0].ID)
	players = nil
	for _, seat := range l.Seats {
		u, err := s.UserByID(*seat.UserID)
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, u)
	}
	if l.CanAbort() {
		t.Fatal("a tournament's game offers to end it by agreement")
	}
	for _, u := range players {
		if ended, err := s.AskAbort(mustLoad(t, s, l.Game.ID), u.ID); !errors.Is(err, models.ErrAbortTournament) || ended {
			t.Fatalf("%s asking to end the tournament's game: ended %v, %v", u.Username, ended, err)
		}
	}
	if l := mustLoad(t, s, l.Game.ID); l.Game.Status != models.StatusActive || l.Seats[0].AbortTurn != nil || l.Seats[1].AbortTurn != nil {
		t.Fatalf("a refused agreement changed the game: %s, %v %v", l.Game.Status, l.Seats[0].AbortTurn, l.Seats[1].AbortTurn)
	}
}
