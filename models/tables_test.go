package models_test

import (
	"errors"
	"testing"
	"time"

	"cacao/models"
)

// TestTables: the creator cancels a table before it starts (the invited
// are told; anyone else, or a started game, is refused) and withdraws an
// invitation (the seat is open again, the invitee told); a table nobody
// completes is cancelled after 14 days, its people told; a user opens at
// most 10 tables at once and invites at most 30 players by name a day.
func TestTables(t *testing.T) {
	s, clock := openClocked(t)
	ana, bob, cyd := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob"), models.MustUser(t, s, "cyd")
	newest := func(u *models.User) models.Notification {
		t.Helper()
		ns, _, err := s.Notifications(u.ID, 0, 1)
		if err != nil || len(ns) == 0 {
			t.Fatalf("no notice for %s: %v", u.Username, err)
		}
		return ns[0]
	}
	g, err := s.CreateGame(ana, models.GameSpec{Seats: []string{"@bob", models.SeatOpen}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CancelTable(g.ID, bob); !errors.Is(err, models.ErrNotCreator) {
		t.Fatalf("bob cancelling ana's table: %v", err)
	}
	if err := s.WithdrawInvitation(g.ID, ana, bob.ID); err != nil {
		t.Fatal(err)
	}
	if n := newest(bob); n.Format != "%s withdrew the invitation to game %d." {
		t.Fatalf("bob is told %q", n.Text)
	}
	if _, err := s.Join(g.ID, "", cyd); err != nil {
		t.Fatal(err)
	}
	if err := s.CancelTable(g.ID, ana); err != nil {
		t.Fatal(err)
	}
	if n := newest(cyd); n.Format != "%s cancelled game %d before it started." {
		t.Fatalf("cyd is told %q", n.Text)
	}
	if _, err := s.LoadGame(g.ID); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("the cancelled table is still there: %v", err)
	}
	started, err := s.CreateGame(ana, models.GameSpec{Seats: []string{"greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CancelTable(started.ID, ana); !errors.Is(err, models.ErrNotOpen) {
		t.Fatalf("cancelling a started game: %v", err)
	}

	// Expiry: 14 days to the minute.
	old, err := s.CreateGame(ana, models.GameSpec{Seats: []string{"@bob"}})
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(models.TableLife - time.Minute)
	if n, err := s.ExpireTables(10); err != nil || n != 0 {
		t.Fatalf("a table of 14 days less a minute expired: %d, %v", n, err)
	}
	clock.Advance(time.Minute)
	if n, err := s.ExpireTables(10); err != nil || n != 1 {
		t.Fatalf("a table of 14 days: %d expired, %v", n, err)
	}
	for _, u := range []*models.User{ana, bob} {
		if n := newest(u); n.GameID != old.ID || n.Format != "Game %d was cancelled: its open seats were not taken in 14 days." {
			t.Fatalf("%s is told %q", u.Username, n.Text)
		}
	}

	// Ten tables at once; thirty invitations a day.
	for i := 0; i < models.MaxOpenTables; i++ {
		if _, err := s.CreateGame(bob, models.GameSpec{Seats: []string{models.SeatOpen}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.CreateGame(bob, models.GameSpec{Seats: []string{models.SeatOpen}}); !errors.Is(err, models.ErrTooManyTables) {
		t.Fatalf("bob's eleventh table: %v", err)
	}
	var people []*models.User
	for i := 0; i < 31; i++ {
		people = append(people, models.MustUser(t, s, "p"+string(rune('a'+i/26))+string(rune('a'+i%26))))
	}
	sent := 0
	for sent+3 <= models.MaxInvitesPerDay {
		g, err := s.CreateGame(cyd, models.GameSpec{Seats: []string{"@" + people[sent].Username, "@" + people[sent+1].Username, "@" + people[sent+2].Username}})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.CancelTable(g.ID, cyd); err != nil { // a cancelled table's invitations still count
			t.Fatal(err)
		}
		sent += 3
	}
	if _, err := s.CreateGame(cyd, models.GameSpec{Seats: []string{"@" + people[30].Username}}); !errors.Is(err, models.ErrTooManyInvites) {
		t.Fatalf("cyd's 31st invitation of the day: %v", err)
	}
	clock.Advance(24 * time.Hour)
	if _, err := s.CreateGame(cyd, models.GameSpec{Seats: []string{"@" + people[30].Username}}); err != nil {
		t.Fatalf("an invitation the next day: %v", err)
	}
}
