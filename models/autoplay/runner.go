package autoplay

import (
	"log/slog"
	"runtime"
	"sync"

	"cacao/models"
)

// Runner lets the bots answer a person's action without making the person
// wait for a slow one. Quick bots (and every bot's pending choices) move
// within Bots, so the answer shows what they did; a slow bot's move (the
// search thinks for a second) is played in the background and reaches the
// table live, as anyone's move does. At most a few games think at once,
// so that the search never takes the cores the pages need; a game waits
// its turn (models.Store.StalledBots is the net should a process stop
// while one waits).
type Runner struct {
	store *models.Store
	log   *slog.Logger
	slots chan struct{}
	wg    sync.WaitGroup

	mu     sync.Mutex
	busy   map[uint]bool // games being played in the background
	again  map[uint]bool // games asked for again meanwhile
	closed bool
}

// NewRunner returns a Runner of store's games that thinks in at most half
// the cores at once (one at least).
func NewRunner(store *models.Store, log *slog.Logger) *Runner {
	if log == nil {
		log = slog.Default()
	}
	return &Runner{store: store, log: log, slots: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2)),
		busy: map[uint]bool{}, again: map[uint]bool{}}
}

// Bots is the package's Bots but for slow bots, whose moves it starts in
// the background: the game returned is the one a person may be shown now.
func (rn *Runner) Bots(id uint, from *models.Loaded) (*models.Loaded, error) {
	l, waiting, err := play(rn.store, id, from, false)
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

// run plays game id's bots, slow ones too, until a person must act; again
// if someone asked meanwhile.
func (rn *Runner) run(id uint) {
	defer rn.wg.Done()
	for {
		rn.slots <- struct{}{}
		if _, err := Bots(rn.store, id, nil); err != nil {
			rn.log.Error("a bot's move in the background", "game", id, "err", err)
		}
		<-rn.slots
		rn.mu.Lock()
		if !rn.again[id] || rn.closed {
			delete(rn.busy, id)
			delete(rn.again, id)
			rn.mu.Unlock()
			return
		}
		delete(rn.again, id)
		rn.mu.Unlock()
	}
}

// Think runs f, a search for a person (a hint), in one of the slots the
// background moves take turns in, so that it does not take more cores.
func (rn *Runner) Think(f func()) {
	rn.slots <- struct{}{}
	defer func() { <-rn.slots }()
	f()
}

// Wait returns once no bot thinks in the background.
func (rn *Runner) Wait() { rn.wg.Wait() }

// Close starts nothing new and waits for the moves being thought.
func (rn *Runner) Close() {
	rn.mu.Lock()
	rn.closed = true
	rn.mu.Unlock()
	rn.wg.Wait()
}
