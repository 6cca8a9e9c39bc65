package models

import (
	"container/list"
	"sync"

	"cacao/engine"
)

// replays keeps the latest replay of the games used most recently, so that
// loading a game replays only the log entries appended since. A stored
// replay is never changed: loads get clones. It is checked against the
// game's version, which grows with every log entry, and it is only stored
// from committed data.
type replays struct {
	mu    sync.Mutex
	max   int
	m     map[uint]*list.Element
	order *list.List // front: most recently used
}

type replay struct {
	id      uint
	version int
	log     []LogEntry
	events  []Event
	play    *engine.Game
}

func newReplays(max int) *replays {
	return &replays{max: max, m: map[uint]*list.Element{}, order: list.New()}
}

// get returns the stored replay of game id, or nil.
func (c *replays) get(id uint) *replay {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[id]
	if !ok {
		return nil
	}
	c.order.MoveToFront(e)
	return e.Value.(*replay)
}

// put stores r unless a newer replay of the game is stored already.
func (c *replays) put(r *replay) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[r.id]; ok {
		if e.Value.(*replay).version < r.version {
			e.Value = r
		}
		c.order.MoveToFront(e)
		return
	}
	c.m[r.id] = c.order.PushFront(r)
	for c.order.Len() > c.max {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.m, old.Value.(*replay).id)
	}
}

// drop forgets game id (its stored replay may be ahead of the database after
// a failed commit).
func (c *replays) drop(id uint) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[id]; ok {
		c.order.Remove(e)
		delete(c.m, id)
	}
}

// users keeps the users looked up on every request. Every write to a user
// drops it after committing; the generation keeps a read that raced with a
// write from storing what it read before the write.
type users struct {
	mu  sync.Mutex
	m   map[uint]User
	gen uint64
	// held are users whose change is being committed: nothing read of
	// them is kept until the writer tells the change (tell), so that a
	// count it moves is the count from before the change.
	held map[uint]bool
}

func (c *users) get(id uint) (User, bool, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	u, ok := c.m[id]
	return u, ok, c.gen
}

func (c *users) put(u User, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return
	}
	if c.held[u.ID] {
		return
	}
	if c.m == nil || len(c.m) > 100_000 {
		c.m = map[uint]User{}
	}
	c.m[u.ID] = u
}

// tell is told by the writer that a committed change of user id is over:
// the user is held no more, and is dropped, or (keep) has its unread count
// moved by delta, the only change the commit made to the row. Either way
// the generation ends (a read from before the change keeps nothing).
func (c *users) tell(id uint, keep bool, delta int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	delete(c.held, id)
	if u, ok := c.m[id]; ok && keep {
		u.Unread += delta
		c.m[id] = u
	} else {
		delete(c.m, id)
	}
}

// hold keeps what is read of users ids out of the cache until their
// change is told (only the writer's tell ends a hold: a drop from
// elsewhere may come while another change is being committed).
func (c *users) hold(ids []uint) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held == nil {
		c.held = map[uint]bool{}
	}
	for _, id := range ids {
		c.held[id] = true
	}
}

func (c *users) drop(id uint) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	delete(c.m, id)
}

// gameRows keeps the last rows read of each game (its row and its seats),
// with the game's generation when the read began. The writing connection
// tells of every change to a games row (its update hook; the rev triggers
// turn every change to a seat into one), and once the change is committed
// the game's generation moves on (see writePool). So rows kept at the
// current generation are the committed rows: a read that began before a
// commit was kept at the generation before it, which the commit ended.
//
// Only this process writes the database (one server per database file).
type gameRows struct {
	mu   sync.Mutex
	m    map[uint]gameRowsEntry
	gens map[uint]uint64
	// epoch moves on when gens is cleared (bounded memory): every kept row
	// is then out of date.
	epoch uint64
}

type gameRowsEntry struct {
	gen   uint64
	epoch uint64
	game  Game
	seats []Seat
}

// maxGameRows bounds the memory: past it the cache starts afresh.
const maxGameRows = 5000

func newGameRows() *gameRows {
	return &gameRows{m: map[uint]gameRowsEntry{}, gens: map[uint]uint64{}}
}

// rowsGen is a game's generation: epoch and count of committed changes.
type rowsGen struct{ epoch, gen uint64 }

// gen returns game id's generation now; a read that begins after it keeps
// its rows at it.
func (c *gameRows) gen(id uint) rowsGen {
	c.mu.Lock()
	defer c.mu.Unlock()
	return rowsGen{c.epoch, c.gens[id]}
}

// changed ends the generation of each game whose rows a commit changed.
func (c *gameRows) changed(ids map[uint]bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.gens) >= 4*maxGameRows {
		clear(c.gens)
		clear(c.m)
		c.epoch++
	}
	for id := range ids {
		c.gens[id]++
		delete(c.m, id)
	}
}

// get returns a copy of the rows of game id kept at generation g, if any.
func (c *gameRows) get(id uint, g rowsGen) (Game, []Seat, bool) {
	c.mu.Lock()
	e, ok := c.m[id]
	c.mu.Unlock()
	if !ok || e.gen != g.gen || e.epoch != g.epoch {
		return Game{}, nil, false
	}
	return e.game, append([]Seat(nil), e.seats...), true
}

// put keeps rows read from generation g on, unless it has ended.
func (c *gameRows) put(g rowsGen, game Game, seats []Seat) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.epoch != g.epoch || c.gens[game.ID] != g.gen {
		return
	}
	if len(c.m) >= maxGameRows {
		clear(c.m)
	}
	c.m[game.ID] = gameRowsEntry{gen: g.gen, epoch: g.epoch, game: game, seats: append([]Seat(nil), seats...)}
}
