package autoplay

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"sync"

	"cacao/models"
)

// Runner lets the bots answer a person's action without making the person
// wait for a slow one. Quick bots (and every bot's pending choices) move
// within Bots, so the answer shows what they did; a slow bot's move (the
// search thinks for a second) is played in the background and reaches the
// table live, as anyone's move does.
//
// The search takes turns in a few slots (half the cores), one move at a
// time: a game with many slow moves to make goes to the back of the line
// after each, so that one table of hard bots cannot hold the slots, and
// the cores stay free for the pages. models.Store.StalledBots is the net
// should a process stop while a game waits.
type Runner struct {
	store *models.Store
	log   *slog.Logger
	move  Move
	slots chan struct{}
	wg    sync.WaitGroup

	mu     sync.Mutex
	busy   map[uint]bool // games being played in the background
	again  map[uint]bool // games asked for again meanwhile
	closed bool
}

// Move plays game id's next slow move in a slot, and the quick moves
// after it, and reports whether another slow move waits (the game goes to
// the back of the line for it). It stops early, and plays nothing more,
// once ctx ends.
type Move func(ctx context.Context, id uint) (waiting bool, err error)

// Option sets up a Runner.
type Option func(*Runner)

// WithMove replaces the Runner's slow move (default: the bots' own, the
// search's for the hard bot): tests count and order the moves without
// thinking for a second each.
func WithMove(m Move) Option { return func(rn *Runner) { rn.move = m } }

// NewRunner returns a Runner of store's games.
func NewRunner(store *models.Store, log *slog.Logger, opts ...Option) *Runner {
	if log == nil {
		log = slog.Default()
	}
	rn := &Runner{store: store, log: log, slots: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2)),
		busy: map[uint]bool{}, again: map[uint]bool{}}
	rn.move = func(ctx context.Context, id uint) (bool, error) {
		_, waiting, err := play(ctx, store, id, nil, 1)
		return waiting, err
	}
	for _, o := range opts {
		o(rn)
	}
	return rn
}

// Bots is the package's Bots but for slow bots, whose moves it starts in
// the background: the game returned is the one a person may be shown now.
func (rn *Runner) Bots(id uint, from *models.Loaded) (*models.Loaded, error) {
	l, waiting, err := play(context.Background(), rn.store, id, from, 0)
	if err != nil || !waiting {
		return l, err
	}
	rn.mu.Lock()
	defer rn.mu.Unlock()
	switch {
	case rn.closed:
	case rn.busy[id]:
		rn.again[id] = true
	default:
		rn.busy[id] = true
		rn.wg.Add(1)
		go rn.run(id)
	}
	return l, nil
}

// run plays game id's bots, one slow move a turn in the slots, until a
// person must act (and again if someone asked meanwhile), or the Runner
// closes.
func (rn *Runner) run(id uint) {
	defer rn.wg.Done()
	for {
		waiting := false
		if !rn.isClosed() {
			rn.slots <- struct{}{}
			var err error
			if !rn.isClosed() {
				waiting, err = rn.move(context.Background(), id)
			}
			<-rn.slots
			if err != nil {
				rn.log.Error("a bot's move in the background", "game", id, "err", err)
			}
		}
		rn.mu.Lock()
		if rn.closed || !waiting && !rn.again[id] {
			delete(rn.busy, id)
			delete(rn.again, id)
			rn.mu.Unlock()
			return
		}
		delete(rn.again, id)
		rn.mu.Unlock()
	}
}

func (rn *Runner) isClosed() bool {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	return rn.closed
}

// ErrBusy means every slot stayed taken until the caller's context ended.
var ErrBusy = errors.New("autoplay: the bots are busy")

// Think runs f, a search for a person (a hint), in a slot, so that it
// takes no more cores; ErrBusy when none frees before ctx ends.
func (rn *Runner) Think(ctx context.Context, f func()) error {
	select {
	case rn.slots <- struct{}{}:
	case <-ctx.Done():
		return ErrBusy
	}
	defer func() { <-rn.slots }()
	f()
	return nil
}

// Timeouts is the package's Timeouts, the stand-ins thinking in the slots
// and the bots after them moving through the Runner.
func (rn *Runner) Timeouts() (int, error) {
	think := func(f func()) { _ = rn.Think(context.Background(), f) }
	return timeouts(rn.store, think, rn.bots)
}

// Stalled is the package's Stalled through the Runner: a game it plays
// already is left to it.
func (rn *Runner) Stalled() (int, error) { return stalled(rn.store, rn.bots) }

func (rn *Runner) bots(id uint) error {
	_, err := rn.Bots(id, nil)
	return err
}

// Wait returns once no bot thinks in the background.
func (rn *Runner) Wait() { rn.wg.Wait() }

// Close starts nothing new, lets the moves being thought end, and waits
// for them.
func (rn *Runner) Close() {
	rn.mu.Lock()
	rn.closed = true
	rn.mu.Unlock()
	rn.wg.Wait()
}
