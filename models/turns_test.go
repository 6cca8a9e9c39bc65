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

// TestCommitOn: a commit on the game as loaded plays the move without
// changing the load it was given; a second commit on that same load, the
// game having moved on since, is a conflict and changes nothing.
func TestCommitOn(t *testing.T) {
	s, _ := openClocked(t)
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	id := startDuel(t, s, ana, bob, 0)
	l := mustLoad(t, s, id)
	st := l.Play.State()
	user := ana.ID
	if l.Seats[st.Current()].UserID != nil && *l.Seats[st.Current()].UserID == bob.ID {
		user = bob.ID
	}
	m := engine.Move{Placement: st.LegalPlacements(nil)[0]}
	if opts := st.FillOptions(m.At); len(opts) > 0 {
		m.Fills = opts[0]
	}
	version, logLen, turns := l.Game.Version, len(l.Log), st.Turns()
	done, err := s.CommitOn(l, version, models.Actor{UserID: user}, models.Play{Move: &m})
	if err != nil {
		t.Fatal(err)
	}
	if done.Game.Version != version+1 || len(done.Log) <= logLen || done.Play.State().Turns() != turns+1 {
		t.Fatalf("the commit's answer: version %d, %d log entries, %d turns; want %d, more than %d, %d", done.Game.Version, len(done.Log), done.Play.State().Turns(), version+1, logLen, turns+1)
	}
	if l.Game.Version != version || len(l.Log) != logLen || l.Play.State().Turns() != turns {
		t.Fatalf("the load given was changed: version %d, %d log entries, %d turns", l.Game.Version, len(l.Log), l.Play.State().Turns())
	}
	if again := mustLoad(t, s, id); again.Game.Version != version+1 || len(again.Log) != len(done.Log) {
		t.Fatalf("as stored: version %d, %d log entries; want the commit's", again.Game.Version, len(again.Log))
	}
	if _, err := s.CommitOn(l, version, models.Actor{UserID: user}, models.Play{Move: &m}); !errors.Is(err, models.ErrConflict) {
		t.Fatalf("a commit on a load the game moved past: %v, want ErrConflict", err)
	}
	if again := mustLoad(t, s, id); again.Game.Version != version+1 {
		t.Fatalf("the refused commit changed the game: version %d", again.Game.Version)
	}
}
