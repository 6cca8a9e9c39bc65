package models_test

import (
	"errors"
	"testing"

	"cacao/models"
)

// TestFollows: a player follows another one way, not themselves, nor
// across a block; whom they follow is listed with their last visit unless
// hidden; a public table opened by the one followed tells the follower
// (not a private one, nor one of invited seats only); a block ends the
// follows both ways, and so does deleting the account.
func TestFollows(t *testing.T) {
	s, clock := openClocked(t)
	ana, bob, cyd := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob"), models.MustUser(t, s, "cyd")
	if err := s.FollowUser(ana, "ana"); !errors.Is(err, models.ErrFollowSelf) {
		t.Fatalf("following oneself: %v", err)
	}
	if err := s.FollowUser(ana, "nobody"); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("following nobody: %v", err)
	}
	gus, err := s.CreateGuest("gus")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.FollowUser(gus, "ana"); !errors.Is(err, models.ErrFollowGuest) {
		t.Fatalf("a guest follows: %v", err)
	}
	if err := s.FollowUser(ana, gus.Username); !errors.Is(err, models.ErrFollowGuest) {
		t.Fatalf("ana follows a guest: %v", err)
	}
	for _, name := range []string{"bob", "bob", "cyd"} {
		if err := s.FollowUser(ana, name); err != nil {
			t.Fatal(err)
		}
	}
	if f, _ := s.Follows(ana.ID, bob.ID); !f {
		t.Fatal("ana does not follow bob")
	}
	if f, _ := s.Follows(bob.ID, ana.ID); f {
		t.Fatal("bob follows ana back unasked")
	}
	session(t, s, bob) // bob signs in: he was seen
	models.DB(s).Exec("UPDATE users SET hide_last_seen = true WHERE id = ?", cyd.ID)
	session(t, s, cyd)
	list, err := s.Following(ana.ID)
	if err != nil || len(list) != 2 || list[0].Name != "bob" || list[0].LastSeen == nil || list[1].Name != "cyd" || list[1].LastSeen != nil {
		t.Fatalf("whom ana follows: %+v, %v", list, err)
	}
	if _, err := s.CreateGame(bob, models.GameSpec{Seats: []string{models.SeatOpen}, Private: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateGame(bob, models.GameSpec{Seats: []string{"@cyd"}}); err != nil {
		t.Fatal(err)
	}
	if n := len(notesOf(t, s, ana.ID, models.KindFollowed)); n != 0 {
		t.Fatalf("a private table, or one of invited seats, told ana %d times", n)
	}
	g, err := s.CreateGame(bob, models.GameSpec{Seats: []string{models.SeatOpen}})
	if err != nil {
		t.Fatal(err)
	}
	if ns := notesOf(t, s, ana.ID, models.KindFollowed); len(ns) != 1 || ns[0].GameID != g.ID {
		t.Fatalf("bob's public table: ana told %+v", ns)
	}
	if _, err := s.CreateGame(bob, models.GameSpec{Seats: []string{models.SeatOpen}}); err != nil {
		t.Fatal(err)
	}
	if n := len(notesOf(t, s, ana.ID, models.KindFollowed)); n != 1 {
		t.Fatalf("bob's second table within %v told ana again (%d)", models.FollowQuiet, n)
	}
	clock.Advance(models.FollowQuiet)
	if _, err := s.CreateGame(bob, models.GameSpec{Seats: []string{models.SeatOpen}}); err != nil {
		t.Fatal(err)
	}
	if n := len(notesOf(t, s, ana.ID, models.KindFollowed)); n != 2 {
		t.Fatalf("bob's table %v later: ana told %d times in all", models.FollowQuiet, n)
	}
	if n := len(notesOf(t, s, cyd.ID, models.KindFollowed)); n != 0 {
		t.Fatal("cyd, who does not follow bob, was told")
	}
	if err := s.Block(bob, "ana"); err != nil {
		t.Fatal(err)
	}
	if f, _ := s.Follows(ana.ID, bob.ID); f {
		t.Fatal("ana still follows bob, who blocked her")
	}
	if err := s.FollowUser(ana, "bob"); !errors.Is(err, models.ErrInvalid) {
		t.Fatalf("following one who blocked you: %v", err)
	}
	if _, err := s.DeleteAccount(cyd.ID, "password-cyd"); err != nil {
		t.Fatal(err)
	}
	if list, _ := s.Following(ana.ID); len(list) != 0 {
		t.Fatalf("ana still follows %+v", list)
	}
}
