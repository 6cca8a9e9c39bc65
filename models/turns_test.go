package models_test

import (
	"errors"
	"os"
	"testing"

	"cacao/engine"
	"cacao/models"
)

// TestAt: a game stepped to each of its log entries plays as it did: the
// last step is the game as it is, the first the start.
func TestAt(t *testing.T) {
	s, _ := openClocked(t)
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	l := playOut(t, s, startDuel(t, s, ana, bob, 0), ana, bob)
	start, err := l.At(0)
	if err != nil || start.Play.State().Turns() != 0 || len(start.Events) != 0 {
		t.Fatalf("the start: %v", err)
	}
	end, err := l.At(len(l.Log))
	if err != nil || !end.Play.State().Over() || end.Play.State().Score().Scores[0] != l.Play.State().Score().Scores[0] {
		t.Fatalf("the end: %v", err)
	}
	if _, err := l.At(len(l.Log) + 1); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("past the end: %v", err)
	}
}

// TestFromRecord: a record of the engine's samples steps through as a
// game; a turn that cannot be played is told with its number.
func TestFromRecord(t *testing.T) {
	data, err := os.ReadFile("../engine/testdata/records/03-full.json")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := engine.DecodeRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	want, err := engine.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	l, err := models.FromRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	end, err := l.At(len(l.Log))
	if err != nil || end.Play.State().Score().Scores[1] != want.Score().Scores[1] || len(l.Log) != len(rec.Turns) {
		t.Fatalf("the record's end: %v", err)
	}
	rec.Turns[3] = rec.Turns[2] // played twice: not legal
	var te *engine.TurnError
	if _, err := models.FromRecord(rec); !errors.As(err, &te) || te.Turn != 3 {
		t.Fatalf("a bad turn: %v", err)
	}
}
