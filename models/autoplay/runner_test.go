package autoplay_test

import (
	"runtime"
	"testing"
	"time"

	"cacao/engine"
	"cacao/models"
	"cacao/models/autoplay"
)

// slowMoves counts the turns the hard bots of game id have played.
func slowMoves(t *testing.T, s *models.Store, id uint) int {
	t.Helper()
	l, err := s.LoadGame(id)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range l.Events {
		if e.Kind == models.KindTurn && l.Seats[e.Seat].Bot == "hard" {
			n++
		}
	}
	return n
}

// The background takes one slow move of a game at a time: a game whose
// hard bots have the rest of a game to play (its person resigned) lets
// another game's hard bot move after its own first move, not at its end;
// Close stops it after the move being thought.
func TestRunnerTakesTurns(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // one slot
	s := open(t)
	ana, _ := s.CreateUser("ana", "password-ana")
	bob, _ := s.CreateUser("bob", "password-bob")
	rn := autoplay.NewRunner(s, nil)
	long, err := s.CreateGame(ana, models.GameSpec{Seats: []string{"hard"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Resign(long.ID, ana.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := rn.Bots(long.ID, nil); err != nil { // thinks its first move
		t.Fatal(err)
	}
	short, err := s.CreateGame(bob, models.GameSpec{Seats: []string{"hard"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rn.Bots(short.ID, nil); err != nil { // waits for the slot, if the bot plays first
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); slowMoves(t, s, short.ID) == 0; time.Sleep(20 * time.Millisecond) {
		l, _ := s.LoadGame(short.ID)
		if l.Play.State().Current() == l.SeatOf(bob.ID) {
			// bob plays first: his move, then the bot's.
			legal := l.Play.State().LegalPlacements(nil)
			if _, err := s.CommitTurn(short.ID, l.Game.Version, models.Actor{UserID: bob.ID}, engine.Move{Placement: legal[0]}); err != nil {
				t.Fatal(err)
			}
			if _, err := rn.Bots(short.ID, nil); err != nil {
				t.Fatal(err)
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the short game's hard bot never moved")
		}
	}
	if n := slowMoves(t, s, long.ID); n > 3 {
		t.Fatalf("the long game's hard bot made %d moves before the other game's made one", n)
	}
	rn.Close() // returns once the move being thought is played
	if l, _ := s.LoadGame(long.ID); l.Game.Status == models.StatusFinished {
		t.Fatal("Close let the long game's bots play it to the end")
	}
}
