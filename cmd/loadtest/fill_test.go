package main

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"cacao/models"
	"cacao/models/autoplay"
)

// TestFillScale: the scale filler adds the accounts (who log in with the
// password), and finished and running copies of the template, each of
// which loads; a running copy waits on one of its players.
func TestFillScale(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fill.db")
	s, err := models.Open(path, models.WithPasswordCost(bcrypt.MinCost), models.WithBots(autoplay.Kinds()...))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ana, err := s.CreateUser("ana", "password-ana")
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.CreateGame(ana, models.GameSpec{Seats: []string{"greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Resign(g.ID, ana.ID); err != nil {
		t.Fatal(err)
	}
	if l, err := autoplay.Bots(s, g.ID, nil); err != nil || l.Game.Status != models.StatusFinished {
		t.Fatalf("the template did not finish: %v", err)
	}
	db, err := sql.Open("sqlite3", path+"?_busy_timeout=10000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var steps []string
	if err := fillScale(s, db, g.ID, fillSize{Users: 20, Finished: 30, Running: 10}, "scale-password", func(m string) { steps = append(steps, m) }); err != nil {
		t.Fatal(err)
	}
	if len(steps) != 3 {
		t.Fatalf("progress: %v", steps)
	}
	if _, err := s.Authenticate("scale7", "scale-password"); err != nil {
		t.Fatalf("a scale account logging in: %v", err)
	}
	finished, running, waiting := 0, 0, 0
	for i := 0; i < 20; i++ {
		u, err := s.UserNamed(fmt.Sprintf("scale%d", i))
		if err != nil {
			t.Fatal(err)
		}
		mine, n, err := s.MyGames(u.ID, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		done, m, err := s.MyFinished(u.ID, models.HistoryFilter{}, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		running, finished = running+n, finished+m
		for _, g := range append(mine, done...) {
			l, err := s.LoadGame(g.Game.ID)
			if err != nil {
				t.Fatalf("game %d does not load: %v", g.Game.ID, err)
			}
			if st := l.Play.State(); st.Over() != (g.Game.Status == models.StatusFinished) {
				t.Fatalf("game %d is %s, its position over: %v", g.Game.ID, g.Game.Status, st.Over())
			}
			if g.WaitingOnMe {
				waiting++
				if l.Play.State().Current() != g.MySeat {
					t.Fatalf("game %d waits on a seat not to play", g.Game.ID)
				}
			}
		}
	}
	if finished != 60 || running != 20 || waiting != 10 {
		t.Fatalf("%d finished seats, %d running, %d waited on; want 60, 20, 10", finished, running, waiting)
	}
}
