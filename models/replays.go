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
