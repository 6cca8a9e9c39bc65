package models_test

import (
	"errors"
	"strings"
	"testing"

	"cacao/models"
)

// TestNotes: a player's note on a game is theirs alone, trimmed, replaced
// when saved again and erased when saved empty; one too long, or on a game
// the user does not play, is refused and changes nothing.
func TestNotes(t *testing.T) {
	s, _ := openClocked(t)
	ana, bob, eve := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob"), models.MustUser(t, s, "eve")
	id := startDuel(t, s, ana, bob, 24)
	if err := s.SaveNote(ana.ID, id, "  first  "); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveNote(ana.ID, id, "second"); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveNote(ana.ID, id, strings.Repeat("x", models.MaxNote+1)); !errors.Is(err, models.ErrNoteTooLong) {
		t.Fatalf("a note too long: %v", err)
	}
	if err := s.SaveNote(eve.ID, id, "not mine"); !errors.Is(err, models.ErrNotAPlayer) {
		t.Fatalf("a note on a game eve does not play: %v", err)
	}
	if n, err := s.Note(ana.ID, id); err != nil || n != "second" {
		t.Fatalf("ana's note: %q, %v", n, err)
	}
	for _, u := range []*models.User{bob, eve} {
		if n, _ := s.Note(u.ID, id); n != "" {
			t.Fatalf("%s reads %q", u.Username, n)
		}
	}
	if err := s.SaveNote(ana.ID, id, " "); err != nil {
		t.Fatal(err)
	}
	if notes, err := s.Notes(ana.ID); err != nil || len(notes) != 0 {
		t.Fatalf("the note saved empty is kept: %v, %v", notes, err)
	}
}
