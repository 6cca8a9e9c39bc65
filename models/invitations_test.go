package models_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"cacao/models"
)

// TestInvitationsPerTarget: one player receives a bounded number of
// invitations a day from all together, and a few from any one player; a
// refusal makes no table; a day later they may be invited again.
func TestInvitationsPerTarget(t *testing.T) {
	s, clock := openClocked(t)
	bob := models.MustUser(t, s, "bob")
	invite := func(from *models.User) error {
		_, err := s.CreateGame(from, models.GameSpec{Seats: []string{"@bob"}})
		return err
	}
	ana := models.MustUser(t, s, "ana")
	for i := 0; i < models.MaxInvitesFromOne; i++ {
		if err := invite(ana); err != nil {
			t.Fatal(err)
		}
	}
	if err := invite(ana); !errors.Is(err, models.ErrInvitedEnough) {
		t.Fatalf("one invitation too many from ana to bob: %v", err)
	}
	for i := models.MaxInvitesFromOne; i < models.MaxInvitesFromStrangers; i++ {
		if err := invite(models.MustUser(t, s, fmt.Sprintf("user%d", i))); err != nil {
			t.Fatal(err)
		}
	}
	eve := models.MustUser(t, s, "eve")
	if err := invite(eve); !errors.Is(err, models.ErrInvitedEnough) {
		t.Fatalf("one invitation too many to bob: %v", err)
	}
	first, total, err := s.Invitations(bob.ID, 0, 15)
	if err != nil || total != models.MaxInvitesFromStrangers || len(first) != 15 {
		t.Fatalf("bob's first page: %d of %d, %v; want 15 of %d", len(first), total, err, models.MaxInvitesFromStrangers)
	}
	rest, _, _ := s.Invitations(bob.ID, 15, 15)
	if len(rest) != models.MaxInvitesFromStrangers-15 || rest[0].Game.ID >= first[14].Game.ID {
		t.Fatalf("bob's second page has %d invitations, from game %d after %d", len(rest), rest[0].Game.ID, first[14].Game.ID)
	}
	clock.Advance(25 * time.Hour)
	if _, err := s.ExpireTables(0); err != nil { // drops the day-old invitations
		t.Fatal(err)
	}
	if err := invite(eve); err != nil {
		t.Fatalf("a day later: %v", err)
	}
}

// TestBlockAndDeclineAll: bob declines all his invitations at once (their
// creators are told, the seats open); he blocks ana, which declines hers
// and refuses her next ones; unblocked, she may invite him again.
func TestBlockAndDeclineAll(t *testing.T) {
	s, _ := openClocked(t)
	ana, bob, cy := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob"), models.MustUser(t, s, "cyd")
	for _, from := range []*models.User{ana, cy, ana} {
		if _, err := s.CreateGame(from, models.GameSpec{Seats: []string{"@bob"}}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.DeclineAll(bob); err != nil || n != 3 {
		t.Fatalf("declining all: %d, %v", n, err)
	}
	if inv, _, _ := s.Invitations(bob.ID, 0, 100); len(inv) != 0 {
		t.Fatalf("%d invitations left", len(inv))
	}
	if ns := notesOf(t, s, ana.ID, "declined"); len(ns) != 2 {
		t.Fatalf("ana was told of %d declines", len(ns))
	}
	if _, err := s.CreateGame(ana, models.GameSpec{Seats: []string{"@bob"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Block(bob, "ANA"); err != nil {
		t.Fatal(err)
	}
	if err := s.Block(bob, "bob"); err == nil {
		t.Fatal("bob blocked himself")
	}
	if inv, _, _ := s.Invitations(bob.ID, 0, 100); len(inv) != 0 {
		t.Fatal("blocking ana left her invitation")
	}
	if _, err := s.CreateGame(ana, models.GameSpec{Seats: []string{"@bob"}}); !errors.Is(err, models.ErrBlocked) {
		t.Fatalf("ana inviting bob, who blocked her: %v", err)
	}
	if _, err := s.CreateGame(cy, models.GameSpec{Seats: []string{"@bob"}}); err != nil {
		t.Fatalf("cy inviting bob: %v", err)
	}
	if names, err := s.Blocked(bob.ID); err != nil || len(names) != 1 || names[0] != "ana" {
		t.Fatalf("bob's blocked players: %v %v", names, err)
	}
	if err := s.Unblock(bob, "ana"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateGame(ana, models.GameSpec{Seats: []string{"@bob"}}); err != nil {
		t.Fatalf("ana inviting bob once unblocked: %v", err)
	}
}

// TestOpenGamesPaged: the lobby lists, a page at a time and newest first,
// the public tables with a seat free for anyone, not those of the viewer,
// nor private ones or ones whose open seats are all kept; and how many.
func TestOpenGamesPaged(t *testing.T) {
	s, clock := openClocked(t)
	ana := models.MustUser(t, s, "ana")
	var want []uint
	for i := 0; i < 25; i++ {
		u := models.MustUser(t, s, fmt.Sprintf("user%d", i))
		clock.Advance(time.Minute)
		g, err := s.CreateGame(u, models.GameSpec{Seats: []string{models.SeatOpen}})
		if err != nil {
			t.Fatal(err)
		}
		want = append([]uint{g.ID}, want...)
	}
	for _, spec := range []models.GameSpec{{Seats: []string{models.SeatOpen}, Private: true}, {Seats: []string{"@user1"}}} {
		if _, err := s.CreateGame(models.MustUser(t, s, fmt.Sprintf("other%d", len(spec.Seats[0]))), spec); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.CreateGame(ana, models.GameSpec{Seats: []string{models.SeatOpen}}); err != nil {
		t.Fatal(err)
	}
	var got []uint
	for from := 0; from < 30; from += 10 {
		page, total, err := s.OpenGames(ana.ID, from, 10)
		if err != nil || total != 25 {
			t.Fatalf("OpenGames from %d: %d in all, %v", from, total, err)
		}
		for _, g := range page {
			got = append(got, g.Game.ID)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("the lobby lists %v; want %v", got, want)
	}
}

// TestStrangersCannotCrowdOut: four new accounts fill bob's day with
// invitations from strangers; ana, who finished a game with him, and cyd,
// whom bob invited, may still invite him. Once bob declines them all,
// strangers may invite him again, though not the same one a sixth time.
func TestStrangersCannotCrowdOut(t *testing.T) {
	s, _ := openClocked(t)
	ana, bob, cyd := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob"), models.MustUser(t, s, "cyd")
	playOut(t, s, startDuel(t, s, ana, bob, 0), ana, bob)
	if _, err := s.CreateGame(bob, models.GameSpec{Seats: []string{"@cyd"}}); err != nil {
		t.Fatal(err)
	}
	invite := func(from *models.User) error {
		_, err := s.CreateGame(from, models.GameSpec{Seats: []string{"@bob"}})
		return err
	}
	var strangers []*models.User
	for i := 0; i < models.MaxInvitesFromStrangers; i++ {
		if i%models.MaxInvitesFromOne == 0 {
			strangers = append(strangers, models.MustUser(t, s, fmt.Sprintf("stranger%d", len(strangers))))
		}
		if err := invite(strangers[len(strangers)-1]); err != nil {
			t.Fatal(i, err)
		}
	}
	if err := invite(models.MustUser(t, s, "late")); !errors.Is(err, models.ErrInvitedEnough) {
		t.Fatalf("one stranger's invitation too many: %v", err)
	}
	for _, known := range []*models.User{ana, cyd} {
		if err := invite(known); err != nil {
			t.Fatalf("%s, whom bob knows, crowded out by strangers: %v", known.Username, err)
		}
	}
	if _, err := s.DeclineAll(bob); err != nil {
		t.Fatal(err)
	}
	if err := invite(models.MustUser(t, s, "later")); err != nil {
		t.Fatalf("a stranger after bob declined all: %v", err)
	}
	if err := invite(strangers[0]); !errors.Is(err, models.ErrInvitedEnough) {
		t.Fatalf("a sixth invitation from one stranger, the first five declined: %v", err)
	}
}
