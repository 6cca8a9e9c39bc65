package handlers

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
)

// errBusy refuses a password check when too many wait for one already.
var errBusy = errors.New("handlers: too many password checks waiting")

// gate runs password hashing (bcrypt: tens of milliseconds of a core
// each) a few at a time, so that a flood of sign-ups or log-ins cannot
// queue without bound ahead of a real log-in: at most slots run, at most
// maxWait wait, the rest are refused at once (429), and a waiter whose
// client has gone is dropped before it hashes.
type gate struct {
	slots   chan struct{}
	waiting atomic.Int32
	maxWait int32
}

func newGate(slots, maxWait int) *gate {
	return &gate{slots: make(chan struct{}, slots), maxWait: int32(maxWait)}
}

// hashGate is the site's: one hash per core, four cores' worth waiting.
func hashGate() *gate {
	n := runtime.GOMAXPROCS(0)
	return newGate(n, 4*n)
}

// do runs fn when a slot is free: errBusy if too many wait already,
// ctx's error if ctx ends first.
func (g *gate) do(ctx context.Context, fn func() error) error {
	if g.waiting.Add(1) > g.maxWait {
		g.waiting.Add(-1)
		return errBusy
	}
	select {
	case g.slots <- struct{}{}:
		g.waiting.Add(-1)
	case <-ctx.Done():
		g.waiting.Add(-1)
		return ctx.Err()
	}
	defer func() { <-g.slots }()
	if err := ctx.Err(); err != nil {
		return err
	}
	return fn()
}
