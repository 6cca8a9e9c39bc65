package models_test

import (
	"errors"
	"sync"
	"testing"

	"cacao/models"
	"cacao/models/autoplay"
)

// playOut has users play game id to its end.
func playOut(t *testing.T, s *models.Store, id uint, users ...*models.User) *models.Loaded {
	t.Helper()
	for i := 0; i < 200; i++ {
		if l := mustLoad(t, s, id); l.Game.Status == models.StatusFinished {
			return l
		}
		for _, u := range users {
			actAll(t, s, id, u)
		}
	}
	t.Fatalf("game %d did not finish", id)
	return nil
}

// TestRematch: once the game is finished, a player (not a stranger) asks
// for a rematch: the same players and time limit, the other invited; asked
// again, by a player, it is the same game; a stranger learns nothing of it. Accepted, it starts with the old
// game's second player first, and the old game links to it.
func TestRematch(t *testing.T) {
	s, _ := openClocked(t)
	ana, bob, eve := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob"), models.MustUser(t, s, "eve")
	id := startDuel(t, s, ana, bob, 72)
	if _, err := s.Rematch(ana, id); !errors.Is(err, models.ErrRematchNotOver) {
		t.Fatalf("a rematch of a game under way: %v", err)
	}
	old := playOut(t, s, id, ana, bob)
	if _, err := s.Rematch(eve, id); !errors.Is(err, models.ErrRematchNotMine) {
		t.Fatalf("a stranger's rematch: %v", err)
	}
	g, err := s.Rematch(bob, id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != models.StatusOpen || g.TurnHours != 72 || g.RematchOf != id || g.CreatorID != bob.ID {
		t.Fatalf("the rematch: %+v", g)
	}
	if again, err := s.Rematch(ana, id); err != nil || again.ID != g.ID {
		t.Fatalf("asked again: game %v, %v; want %d", again, err, g.ID)
	}
	if _, err := s.Rematch(eve, id); !errors.Is(err, models.ErrRematchNotMine) {
		t.Fatalf("a stranger's rematch once there is one: %v", err)
	}
	if l := mustLoad(t, s, id); l.Game.RematchID == nil || *l.Game.RematchID != g.ID || l.Game.Version != old.Game.Version+1 {
		t.Fatalf("the old game does not link to its rematch: %+v", l.Game)
	}
	if ns := notesOf(t, s, ana.ID, "invited"); len(ns) != 1 {
		t.Fatalf("ana was told of %d invitations", len(ns))
	}
	if _, err := s.Join(g.ID, "", ana); err != nil {
		t.Fatal(err)
	}
	l := mustLoad(t, s, g.ID)
	if l.Game.Status != models.StatusActive || l.Game.First != 0 {
		t.Fatalf("the accepted rematch: %s, first %d", l.Game.Status, l.Game.First)
	}
	second := old.Seats[0]
	for _, seat := range old.Seats {
		if seat.Index == (old.Game.First+1)%2 {
			second = seat
		}
	}
	if first := l.Seats[0]; l.Seats[0].Index != 0 {
		t.Fatalf("the seats: %+v", l.Seats)
	} else if *first.UserID != *second.UserID {
		t.Fatalf("%s moves first in the rematch; want %s, the old game's second", first.Name, second.Name)
	}
}

// TestRematchWithABot: the bot sits at once and the rematch starts; two
// players asking at the same moment make one game.
func TestRematchWithABot(t *testing.T) {
	s, _ := openClocked(t)
	id := finishedTemplate(t, s) // ana resigned: she played it all the same
	ana, _ := s.UserNamed("ana")
	var wg sync.WaitGroup
	games := make([]*models.Game, 2)
	for i := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g, err := s.Rematch(ana, id)
			if err != nil {
				t.Error(err)
			}
			games[i] = g
		}()
	}
	wg.Wait()
	if t.Failed() || games[0].ID != games[1].ID {
		t.Fatal("two rematches")
	}
	if _, err := autoplay.Bots(s, games[0].ID, nil); err != nil {
		t.Fatal(err)
	}
	l := mustLoad(t, s, games[0].ID)
	if l.Game.Status != models.StatusActive || len(l.Seats) != 2 || l.Seats[0].Bot == "" && l.Seats[1].Bot == "" {
		t.Fatalf("the rematch against the bot: %s, %+v", l.Game.Status, l.Seats)
	}
}
