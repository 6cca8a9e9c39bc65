package autoplay

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"sync"

	"cacao/engine/bot"
	"cacao/models"
)

// Runner lets the bots answer a person's action without making the person
// wait for a slow one. Quick bots (and every bot's pending choices) move
// within Bots, so the answer shows what they did; a slow bot's move (the
// search thinks for a second) is played in the background and reaches the
// table live, as anyone's move does.
//
// The search runs in a few slots (Slots), one move at a time, the search
// itself on a thread of the lowest priority (lowThread), so that it thinks
// with the time the pages leave (a program that gives each slot a P of
// its own, as cacao serve does, keeps the pages' cores theirs). The slots
// are shared between persons, not games: the persons whose games (or
// hints) wait take turns, one move each, so that a person's move waits
// for at most one move of each other person, however many games they keep
// busy.
// A person has at most perPerson moves waiting or under way: a game
// woken beyond that is not kept, and models.Store.StalledBots (the
// worker's Stalled) offers it again later, as it does a game whose move
// a stopped process lost. A few goroutines (one a slot) play the line.
//
// Each process runs its own Runner: two instances share their persons'
// games as each is woken on them, and the store's versions settle a move
// both play.
type Runner struct {
	store  *models.Store
	log    *slog.Logger
	move   Move
	slots  int
	review bot.Review

	mu      sync.Mutex
	wg      sync.WaitGroup
	workers int              // goroutines playing the line, at most slots
	line    []uint           // the persons with jobs waiting, in turn
	waiting map[uint][]*job  // each person's jobs waiting, oldest first
	held    map[uint]int     // each person's jobs waiting or under way
	games   map[uint]*job    // the games waiting or under way
	timing  map[seatKey]bool // the seats whose stand-in waits or thinks
	jobs    int              // every job waiting or under way
	closed  bool
}

// A person has at most perPerson moves (a game's next slow move, a hint,
// a stand-in's timeout) waiting or under way at once: a person at the
// keyboard plays one game at a time, and seldom has more than a couple
// waiting on the hard bots; a few more would only wait their turn
// behind those. maxJobs bounds them all, whatever the number of persons.
const (
	perPerson = 4
	maxJobs   = 2000
)

// job is a turn in a slot: a game's next slow move, or f, a person's
// search (a hint, a stand-in's move), for person.
type job struct {
	person uint
	game   uint
	f      func(think thinker)
	done   chan struct{} // closed once f ran (ran) or never will
	ran    bool
	under  bool               // under way
	again  bool               // the game was woken again while under way
	stop   context.CancelFunc // ends the game's move under way
}

// Move plays game id's next slow move in a slot, its search run by think,
// and the quick moves after it, and reports whether another slow move
// waits (the game goes to the back of its person's line for it). It stops
// early, and plays nothing more, once ctx ends.
type Move func(ctx context.Context, id uint, think func(func())) (waiting bool, err error)

// Option sets up a Runner.
type Option func(*Runner)

// WithMove replaces the Runner's slow move (default: the bots' own, the
// search's for the hard bot): tests count and order the moves without
// thinking for a second each.
func WithMove(m Move) Option { return func(rn *Runner) { rn.move = m } }

// WithSlots sets how many searches run at once (n > 0; default Slots()).
func WithSlots(n int) Option {
	return func(rn *Runner) {
		if n > 0 {
			rn.slots = n
		}
	}
}

// Slots is a Runner's searches at once unless WithSlots says: half the
// cores (GOMAXPROCS), at least one.
func Slots() int { return max(1, runtime.GOMAXPROCS(0)/2) }

// NewRunner returns a Runner of store's games.
func NewRunner(store *models.Store, log *slog.Logger, opts ...Option) *Runner {
	if log == nil {
		log = slog.Default()
	}
	rn := &Runner{store: store, log: log, slots: Slots(), review: DefaultReview,
		waiting: map[uint][]*job{}, held: map[uint]int{}, games: map[uint]*job{}, timing: map[seatKey]bool{}}
	rn.move = func(ctx context.Context, id uint, think func(func())) (bool, error) {
		_, waiting, err := play(ctx, store, id, nil, 1, think)
		return waiting, err
	}
	for _, o := range opts {
		o(rn)
	}
	return rn
}

// Bots is the package's Bots but for slow bots, whose moves it starts in
// the background: the game returned is the one a person may be shown now.
// A game no person plays any more has no slow bots (see unattended): its
// move waiting or under way here is dropped, its search stopped.
func (rn *Runner) Bots(id uint, from *models.Loaded) (*models.Loaded, error) {
	if from == nil {
		var err error
		if from, err = rn.store.LoadGame(id); err != nil {
			return nil, err
		}
	}
	if person(from) == 0 {
		rn.drop(id)
	}
	l, waiting, err := play(context.Background(), rn.store, id, from, 0, direct) // no slow move: nothing to think
	if err != nil || !waiting {
		return l, err
	}
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if j := rn.games[id]; j != nil {
		j.again = j.under // a waiting job plays the move anyway
		return l, nil
	}
	if j := (&job{person: person(l), game: id}); rn.add(j) {
		rn.games[id] = j
	}
	return l, nil
}

// drop forgets game id's move waiting, or stops the one under way.
func (rn *Runner) drop(id uint) {
	rn.mu.Lock()
	defer rn.mu.Unlock()
	switch j := rn.games[id]; {
	case j == nil:
	case j.under:
		j.stop()
	default:
		rn.unqueue(j)
		rn.release(j)
	}
}

// add puts j at the back of its person's line, and reports whether it
// did: not after Close, nor beyond perPerson or maxJobs. rn.mu is held.
func (rn *Runner) add(j *job) bool {
	if rn.closed || rn.held[j.person] >= perPerson || rn.jobs >= maxJobs {
		return false
	}
	rn.held[j.person]++
	rn.jobs++
	rn.requeue(j)
	if rn.workers < rn.slots {
		rn.workers++
		rn.wg.Add(1)
		go rn.work()
	}
	return true
}

// requeue puts j, held already, at the back of its person's jobs; the
// person joins the line if they were not in it. rn.mu is held.
func (rn *Runner) requeue(j *job) {
	if len(rn.waiting[j.person]) == 0 {
		rn.line = append(rn.line, j.person)
	}
	rn.waiting[j.person] = append(rn.waiting[j.person], j)
}

// next takes the first job of the person first in line, who goes to the
// back of the line if they have more (nil: none). rn.mu is held.
func (rn *Runner) next() *job {
	if len(rn.line) == 0 {
		return nil
	}
	p := rn.line[0]
	rn.line = rn.line[1:]
	q := rn.waiting[p]
	j := q[0]
	if len(q) == 1 {
		delete(rn.waiting, p)
	} else {
		rn.waiting[p] = q[1:]
		rn.line = append(rn.line, p)
	}
	return j
}

// unqueue takes waiting job j out of the line. rn.mu is held.
func (rn *Runner) unqueue(j *job) {
	q := rn.waiting[j.person]
	for i := range q {
		if q[i] == j {
			q = append(q[:i:i], q[i+1:]...)
			break
		}
	}
	if len(q) > 0 {
		rn.waiting[j.person] = q
		return
	}
	delete(rn.waiting, j.person)
	for i, p := range rn.line {
		if p == j.person {
			rn.line = append(rn.line[:i:i], rn.line[i+1:]...)
			break
		}
	}
}

// release forgets j, no longer waiting nor under way. rn.mu is held.
func (rn *Runner) release(j *job) {
	if rn.held[j.person]--; rn.held[j.person] == 0 {
		delete(rn.held, j.person)
	}
	rn.jobs--
	if j.game != 0 {
		delete(rn.games, j.game)
	}
	if j.done != nil {
		close(j.done)
	}
}

// work plays the line, one job at a time, until it is empty or the
// Runner closes.
func (rn *Runner) work() {
	defer rn.wg.Done()
	think, done := lowThread()
	defer done()
	rn.mu.Lock()
	defer rn.mu.Unlock()
	for {
		j := rn.next()
		if j == nil {
			rn.workers--
			return
		}
		ctx, stop := context.WithCancel(context.Background())
		j.under, j.again, j.stop = true, false, stop
		rn.mu.Unlock()
		waiting := false
		if j.game == 0 {
			j.f(think)
		} else {
			var err error
			waiting, err = rn.move(ctx, j.game, think)
			if err != nil {
				rn.log.Error("a bot's move in the background", "game", j.game, "err", err)
			}
		}
		rn.mu.Lock()
		j.under, j.ran = false, j.game == 0
		dropped := ctx.Err() != nil
		stop()
		if !rn.closed && j.game != 0 && (waiting && !dropped || j.again) {
			rn.requeue(j)
			continue
		}
		rn.release(j)
	}
}

// ErrBusy means the caller's turn in the slots did not come before its
// context ended, or the caller has too many searches waiting already.
var ErrBusy = errors.New("autoplay: the bots are busy")

// Think runs f, a search for user (a hint, or a stand-in's move for
// their seat), in a slot in user's turn, so that it takes no more cores
// and no more than user's share of them; ErrBusy when its turn does not
// come before ctx ends, or user has perPerson searches and moves waiting.
func (rn *Runner) Think(ctx context.Context, user uint, f func()) error {
	j := &job{person: user, f: func(think thinker) { think(f) }, done: make(chan struct{})}
	rn.mu.Lock()
	ok := rn.add(j)
	rn.mu.Unlock()
	if !ok {
		return ErrBusy
	}
	select {
	case <-j.done:
	case <-ctx.Done():
		rn.mu.Lock()
		select {
		case <-j.done: // ran, or dropped by Close
		default:
			if !j.under {
				rn.unqueue(j)
				rn.release(j)
			}
		}
		rn.mu.Unlock()
		<-j.done
	}
	if !j.ran {
		return ErrBusy
	}
	return nil
}

// Timeouts is the package's Timeouts through the Runner: a quick
// stand-in plays at once, off the slots; a slow one's search is queued in
// the slots, in the seat's player's turn, and the call does not wait for
// it (a seat queued already is left to it); when that player's share is
// full, the unattended bot plays the seat at once. It returns how many
// seats it played for or queued.
func (rn *Runner) Timeouts() (int, error) {
	return timeouts(rn.store, func(seat models.Seat) (bool, error) {
		played, err := playTimeout(rn.store, seat, nil, false, rn.bots)
		if !errors.Is(err, errSlow) {
			return played, err
		}
		if rn.queueTimeout(seat) {
			return true, nil
		}
		return playTimeout(rn.store, seat, nil, true, rn.bots)
	})
}

// seatKey is a seat of a game.
type seatKey struct {
	game uint
	seat int
}

// queueTimeout queues the slow stand-in's play of seat, and reports
// whether it is queued (now or before).
func (rn *Runner) queueTimeout(seat models.Seat) bool {
	key := seatKey{seat.GameID, seat.Index}
	var user uint
	if seat.UserID != nil {
		user = *seat.UserID
	}
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.timing[key] {
		return true
	}
	j := &job{person: user, f: func(think thinker) {
		if _, err := playTimeout(rn.store, seat, think, false, rn.bots); err != nil {
			rn.log.Error("a stand-in's move in the background", "game", seat.GameID, "seat", seat.Index, "err", err)
		}
		rn.mu.Lock()
		delete(rn.timing, key)
		rn.mu.Unlock()
	}}
	if !rn.add(j) {
		return false
	}
	rn.timing[key] = true
	return true
}

// Stalled is the package's Stalled through the Runner: a game it plays
// already is left to it.
func (rn *Runner) Stalled() (int, error) { return stalled(rn.store, rn.bots) }

func (rn *Runner) bots(id uint) error {
	_, err := rn.Bots(id, nil)
	return err
}

// Wait returns once no bot thinks in the background. It is for tests,
// once their moves are made: a Bots, Think or Timeouts that starts work
// while Wait waits on none may race it.
func (rn *Runner) Wait() { rn.wg.Wait() }

// Close starts nothing new, drops the moves and searches waiting (a
// Think waiting returns ErrBusy), lets those under way end, and waits for
// them.
func (rn *Runner) Close() {
	rn.mu.Lock()
	rn.closed = true
	for len(rn.line) > 0 {
		rn.release(rn.next())
	}
	rn.mu.Unlock()
	rn.wg.Wait()
}
