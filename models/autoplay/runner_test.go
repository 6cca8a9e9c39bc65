package autoplay_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"cacao/models"
	"cacao/models/autoplay"
)

// A person's games take the slots in turn, one slow move each, so that
// one table of hard bots cannot hold them; Close lets the move under way
// end and plays no more.
func TestRunnerTakesTurns(t *testing.T) {
	f := newFake(t, false)
	s, ana, rn := f.s, f.ana, f.rn
	long, short := hardGame(t, s, ana, 3), hardGame(t, s, ana, 3)
	f.want(long, 3)
	f.want(short, 3)
	for _, id := range []uint{long, short} {
		if _, err := rn.Bots(id, nil); err != nil {
			t.Fatal(err)
		}
	}
	var order []uint
	for range 3 {
		order = append(order, f.next(t))
		f.release <- struct{}{}
	}
	order = append(order, f.next(t))
	if want := []uint{long, short, long, short}; !slices.Equal(order, want) {
		t.Fatalf("the slow moves went to games %v; want %v", order, want)
	}
	go func() { time.Sleep(50 * time.Millisecond); f.release <- struct{}{} }()
	rn.Close() // returns once the move under way is played
	if len(f.calls) > 0 {
		t.Fatal("Close let a waiting move be played")
	}
}

// A game nobody plays any more (its person resigned) is played to its
// result by the quick bot within Bots, off the slots: no search for it.
func TestRunnerLeavesNoSearchForGamesNobodyPlays(t *testing.T) {
	f := newFake(t, false)
	s, ana, rn := f.s, f.ana, f.rn
	close(f.release)
	defer rn.Close()
	id := hardGame(t, s, ana, 3)
	done, err := s.Resign(id, ana.ID)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	l, err := rn.Bots(id, done)
	if err != nil {
		t.Fatal(err)
	}
	rn.Wait()
	if len(f.calls) > 0 || l.Game.Status != models.StatusFinished || !l.Game.Scored {
		t.Fatalf("after ana resigned: %d slow moves, game %s (scored %v)", len(f.calls), l.Game.Status, l.Game.Scored)
	}
	t.Logf("the rest of the game played in %v", time.Since(start))
}

// A search under way for a game whose persons have all gone stops: its
// context ends once the game is handed to Bots again.
func TestRunnerStopsThinkingWhenEveryoneLeft(t *testing.T) {
	s := open(t)
	ana, _ := s.CreateUser("ana", "password-ana")
	started, stopped := make(chan struct{}), make(chan struct{})
	rn := autoplay.NewRunner(s, nil, autoplay.WithSlots(1), autoplay.WithMove(func(ctx context.Context, id uint, _ func(func())) (bool, error) {
		close(started)
		<-ctx.Done()
		close(stopped)
		return false, nil
	}))
	id := hardGame(t, s, ana, 1)
	if _, err := rn.Bots(id, nil); err != nil {
		t.Fatal(err)
	}
	<-started
	done, err := s.Resign(id, ana.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rn.Bots(id, done); err != nil {
		t.Fatal(err)
	}
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("the search went on after ana resigned") // (and Close would wait for it)
	}
	rn.Close()
}
