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
	if v, ok := m.load(key); ok {
		return v
	}
	v := make()
	m.store(key, v)
	return v
}

// load returns the value remembered for key, if any.
func (m *memo[V]) load(key string) (V, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.m[key]
	return v, ok
}

// store remembers v for key.
func (m *memo[V]) store(key string, v V) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.m) >= m.max {
		clear(m.m)
	}
	m.m[key] = v
}
