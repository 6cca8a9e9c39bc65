// Package modeltest holds what tests of the store and of the site share: a
// clock they drive by hand, a database of their own, a buffer to log to.
package modeltest

import (
	"bytes"
	"sync"
	"time"
)

// Clock is a clock for Store.Now that moves only when told to, and by Tick
// each time it is read (so that rows written one after the other keep their
// order; 0 keeps it still). It is safe for concurrent use.
type Clock struct {
	mu   sync.Mutex
	now  time.Time
	tick time.Duration
}

// NewClock returns a clock at start that moves tick per read.
func NewClock(start time.Time, tick time.Duration) *Clock {
	return &Clock{now: start, tick: tick}
}

// Now returns the clock's time (then moves it by its tick).
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(c.tick)
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// SyncBuffer is a buffer that a logger writes while a test reads it.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
