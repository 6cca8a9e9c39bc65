package autoplay_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"cacao/engine"
	"cacao/engine/bot"
	"cacao/models"
	"cacao/models/autoplay"
	"cacao/models/modeltest"
)

// hardGame is a game of u against bots hard bots, one of which is to move
// (u moves first if it is her turn).
func hardGame(t *testing.T, s *models.Store, u *models.User, bots int) uint {
	t.Helper()
	spec := models.GameSpec{}
	for range bots {
		spec.Seats = append(spec.Seats, "hard")
	}
	g, err := s.CreateGame(u, spec)
	if err != nil {
		t.Fatal(err)
	}
	l, err := s.LoadGame(g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st := l.Play.State(); st.Current() == l.SeatOf(u.ID) {
		legal := st.LegalPlacements(nil)
		if _, err := s.CommitTurn(g.ID, l.Game.Version, models.Actor{UserID: u.ID}, engine.Move{Placement: legal[0]}); err != nil {
			t.Fatal(err)
		}
	}
	return g.ID
}

// quickMove plays the move of game id's bot whose turn it is with the
// quick bot (nothing when a person's turn).
func quickMove(s *models.Store, id uint) error {
	l, err := s.LoadGame(id)
	if err != nil {
		return err
	}
	st := l.Play.State()
	seat := st.Current()
	if st.Over() || l.BotOf(seat) == "" || len(st.Player(seat).Queue()) > 0 {
		return nil
	}
	m, err := bot.Greedy{}.Move(st, engine.NewRand(1))
	if err != nil {
		return err
	}
	m.Fills = append([]engine.Fill(nil), m.Fills...)
	_, err = s.Commit(id, l.Game.Version, models.Actor{Bot: true, Seat: seat}, models.Play{Move: &m})
	return err
}

// fakeMoves stands in for the search of rn, a Runner of one slot on s,
// where ana and bob play: each slow move is told on calls and waits for
// release (or its context's end); then, if commit, the quick bot plays
// it. A game wants more slow moves while left says so.
type fakeMoves struct {
	s        *models.Store
	ana, bob *models.User
	rn       *autoplay.Runner
	commit   bool
	calls    chan uint
	release  chan struct{}
	mu       sync.Mutex
	left     map[uint]int
}

// newFake returns a fakeMoves on a new store set up by opts.
func newFake(t *testing.T, commit bool, opts ...models.Option) *fakeMoves {
	s := open(t, opts...)
	ana, _ := s.CreateUser("ana", "password-ana")
	bob, _ := s.CreateUser("bob", "password-bob")
	f := &fakeMoves{s: s, ana: ana, bob: bob, commit: commit, calls: make(chan uint, 1000), release: make(chan struct{}), left: map[uint]int{}}
	f.rn = autoplay.NewRunner(s, nil, autoplay.WithSlots(1), autoplay.WithMove(f.move))
	return f
}

func (f *fakeMoves) move(ctx context.Context, id uint, _ func(func())) (bool, error) {
	f.calls <- id
	select {
	case <-f.release:
	case <-ctx.Done():
		return false, nil
	}
	if f.commit {
		return false, quickMove(f.s, id)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.left[id]--
	return f.left[id] > 0, nil
}

// want says game id wants n slow moves.
func (f *fakeMoves) want(id uint, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.left[id] = n
}

// next is the next slow move's game (0: a Think's), after a wait.
func (f *fakeMoves) next(t *testing.T) uint {
	t.Helper()
	select {
	case id := <-f.calls:
		return id
	case <-time.After(10 * time.Second):
		t.Fatal("no slow move began")
		return 0
	}
}

// runnerGoroutines counts the goroutines running a Runner's code.
func runnerGoroutines() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "autoplay.(*Runner)") {
			n++
		}
	}
	return n
}

// One user's ten games against three hard bots each take the slots in
// turn with another person's: bob's bot moves after at most one more of
// ana's (besides the one being thought when he asked), not after one of
// each of her games; and so does his hint.
func TestRunnerSharesSlotsPerPerson(t *testing.T) {
	for _, hint := range []bool{false, true} {
		f := newFake(t, false)
		s, ana, bob, rn := f.s, f.ana, f.bob, f.rn
		for range 10 {
			id := hardGame(t, s, ana, 3)
			f.want(id, 3)
			if _, err := rn.Bots(id, nil); err != nil {
				t.Fatal(err)
			}
		}
		if f.next(t) == 0 { // ana's first game is in the slot
			t.Fatal("a hint moved before any game")
		}
		var bobs uint
		if hint {
			go rn.Think(context.Background(), bob.ID, func() { f.calls <- 0 })
			time.Sleep(100 * time.Millisecond) // his hint takes its place in line
		} else {
			bobs = hardGame(t, s, bob, 1)
			f.want(bobs, 1)
			if _, err := rn.Bots(bobs, nil); err != nil {
				t.Fatal(err)
			}
		}
		anas := 0
		for {
			f.release <- struct{}{}
			if f.next(t) == bobs {
				break
			}
			anas++
		}
		if anas > 1 {
			t.Errorf("hint %v: %d more of ana's bot moves were thought before bob's one", hint, anas)
		}
		close(f.release)
		rn.Close()
	}
}

// A person's games waiting for a slot are capped: of ten woken at once a
// few wait (no goroutine each), and the others are played when the
// worker's pass over stalled games offers them again.
func TestRunnerCapsQueuedGamesPerPerson(t *testing.T) {
	clock := modeltest.NewClock(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), time.Millisecond)
	f := newFake(t, true, models.WithClock(clock.Now))
	s, ana, rn := f.s, f.ana, f.rn
	defer rn.Close()
	games := map[uint]bool{}
	for range 10 {
		id := hardGame(t, s, ana, 1)
		games[id] = true
		if _, err := rn.Bots(id, nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := runnerGoroutines(); n > 1 {
		t.Errorf("ten games waiting for one slot took %d goroutines", n)
	}
	close(f.release)
	moved := map[uint]bool{}
	for pass := 0; len(moved) < len(games); pass++ {
		if pass > 0 {
			clock.Advance(2 * time.Minute)
			if _, err := rn.Stalled(); err != nil {
				t.Fatal(err)
			}
		}
		rn.Wait()
		n := 0
		for len(f.calls) > 0 {
			moved[<-f.calls] = true
			n++
		}
		if pass == 0 && n > 5 || n == 0 || pass > 5 {
			t.Fatalf("pass %d played %d of ana's games (%d of 10 moved); want a few at first, then the others", pass, n, len(moved))
		}
	}
}

// A search waits for its person's turn until its context ends, and then
// gives its place up (ErrBusy) without running; so it does when the
// Runner closes, or at once when its person has a few waiting already.
func TestRunnerThinkGivesUp(t *testing.T) {
	f := newFake(t, false)
	s, ana, bob, rn := f.s, f.ana, f.bob, f.rn
	id := hardGame(t, s, ana, 1)
	f.want(id, 1)
	if _, err := rn.Bots(id, nil); err != nil {
		t.Fatal(err)
	}
	f.next(t) // ana's game holds the slot
	ran := make(chan uint, 100)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := rn.Think(ctx, bob.ID, func() { ran <- bob.ID }); !errors.Is(err, autoplay.ErrBusy) {
		t.Fatalf("a hint whose turn did not come: %v", err)
	}
	busy := make(chan error, 10)
	for range 10 {
		go func() { busy <- rn.Think(context.Background(), ana.ID, func() { ran <- ana.ID }) }()
	}
	refused := 0
	for ; refused < 10-4+1; refused++ { // her game's move and three searches wait
		select {
		case err := <-busy:
			if !errors.Is(err, autoplay.ErrBusy) {
				t.Fatalf("a search beyond ana's share: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of ana's searches beyond her share were refused; want 7", refused)
		}
	}
	go func() { time.Sleep(100 * time.Millisecond); close(f.release) }()
	rn.Close()
	for range 3 {
		if err := <-busy; !errors.Is(err, autoplay.ErrBusy) {
			t.Fatalf("a search waiting when the Runner closed: %v", err)
		}
	}
	if len(ran) > 0 {
		t.Fatalf("%d searches ran that gave up their place", len(ran))
	}
}
