package autoplay_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"cacao/models"
	"cacao/models/modeltest"
)

// timedOutDuel is a duel of ana and bob on f's store with a day a turn and
// the stand-in standIn, whose current seat's time has run out (the clock
// moved past it); it returns the game and its version.
func timedOutDuel(t *testing.T, f *fakeMoves, clock *modeltest.Clock, standIn string) (uint, int) {
	t.Helper()
	g, err := f.s.CreateGame(f.ana, models.GameSpec{Seats: []string{models.SeatOpen}, TurnHours: 24, StandIn: standIn})
	if err != nil {
		t.Fatal(err)
	}
	if g, err = f.s.Join(g.ID, "", f.bob); err != nil {
		t.Fatal(err)
	}
	clock.Advance(25 * time.Hour)
	l, err := f.s.LoadGame(g.ID)
	if err != nil {
		t.Fatal(err)
	}
	return g.ID, l.Game.Version
}

// holdSlot has ana's game against a hard bot take the Runner's one slot
// until f.release is closed.
func holdSlot(t *testing.T, f *fakeMoves) {
	t.Helper()
	id := hardGame(t, f.s, f.ana, 1)
	f.want(id, 1)
	if _, err := f.rn.Bots(id, nil); err != nil {
		t.Fatal(err)
	}
	f.next(t)
}

// The worker's pass of timeouts waits for no slot: a quick stand-in plays
// at once, off the slots; a slow one is queued in the slots, the pass not
// waiting for it (and a second pass queues it no second time), and plays
// once its turn comes.
func TestRunnerTimeoutsWaitForNoSlot(t *testing.T) {
	for _, standIn := range []string{"medium", "hard"} {
		t.Run(standIn, func(t *testing.T) {
			clock := modeltest.NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), 0)
			f := newFake(t, false, models.WithClock(clock.Now))
			var free sync.Once
			defer func() { free.Do(func() { close(f.release) }); f.rn.Close() }()
			holdSlot(t, f)
			id, version := timedOutDuel(t, f, clock, standIn)
			for pass := range 2 {
				done := make(chan error, 1)
				go func() { _, err := f.rn.Timeouts(); done <- err }()
				select {
				case err := <-done:
					if err != nil {
						t.Fatal(err)
					}
				case <-time.After(5 * time.Second):
					t.Fatalf("pass %d of the timeouts waits for the slot another game holds", pass+1)
				}
			}
			l, err := f.s.LoadGame(id)
			if err != nil {
				t.Fatal(err)
			}
			played := l.Game.Version > version
			if want := standIn == "medium"; played != want {
				t.Fatalf("while the slot is held, the %s stand-in played: %v; want %v", standIn, played, want)
			}
			free.Do(func() { close(f.release) })
			f.rn.Wait()
			if l, err = f.s.LoadGame(id); err != nil {
				t.Fatal(err)
			}
			if l.Game.Version != version+1 {
				t.Fatalf("the timed-out seat was played %d times; want once", l.Game.Version-version)
			}
		})
	}
}

// A slow stand-in whose player has their share of the slots waiting
// already is not left for a later pass (the pass would meet the same seat
// first again, and never reach the others): the quick bot plays it at
// once.
func TestRunnerTimeoutPastTheShare(t *testing.T) {
	clock := modeltest.NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), 0)
	f := newFake(t, false, models.WithClock(clock.Now))
	defer func() { close(f.release); f.rn.Close() }()
	holdSlot(t, f)
	id, version := timedOutDuel(t, f, clock, "hard")
	l, err := f.s.LoadGame(id)
	if err != nil {
		t.Fatal(err)
	}
	due := *l.Seats[l.Play.State().Current()].UserID
	for range 4 { // the player's share, besides ana's game in the slot if it is hers
		go f.rn.Think(context.Background(), due, func() {})
	}
	time.Sleep(100 * time.Millisecond) // the searches are queued
	if n, err := f.rn.Timeouts(); err != nil || n != 1 {
		t.Fatalf("timeouts: %d, %v; want 1 played", n, err)
	}
	if l, err = f.s.LoadGame(id); err != nil {
		t.Fatal(err)
	}
	if l.Game.Version != version+1 {
		t.Fatalf("the seat past its player's share is played %d times now; want once", l.Game.Version-version)
	}
}
