package handlers

import "sync"

// memo remembers values computed from data that never changes once
// committed (a log entry, a position at a version), so that the requests
// of a turn (choosing a tile, a cell, the move, the others' refresh) do
// not each compute them again. It is bounded: when full it starts afresh.
type memo[V any] struct {
	mu  sync.Mutex
	max int
	m   map[string]V
}

func newMemo[V any](max int) *memo[V] { return &memo[V]{max: max, m: map[string]V{}} }

// get returns the value for key, computing it with make when it is not
// remembered. make runs outside the lock; two requests may both run it.
func (m *memo[V]) get(key string, make func() V) V {
	m.mu.Lock()
	v, ok := m.m[key]
	m.mu.Unlock()
	if ok {
		return v
	}
	v = make()
	m.mu.Lock()
	if len(m.m) >= m.max {
		clear(m.m)
	}
	m.m[key] = v
	m.mu.Unlock()
	return v
}
