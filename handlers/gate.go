package handlers

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
)

// errBusy refuses a password check when too many wait for one already, or
// when its address holds its share of the places.
var errBusy = errors.New("handlers: too many password checks waiting")

// gate runs password hashing (bcrypt: tens of milliseconds of a core
// each) a few at a time, so that a flood of sign-ups or log-ins cannot
// queue without bound ahead of a real log-in: at most slots run, at most
// maxWait wait, the rest are refused at once (429), and a waiter whose
// client has gone is dropped before it hashes. One address (AddressOf)
// holds at most perAddress places, hashing or waiting: a few addresses
// cannot fill the gate, whatever they send at once.
type gate struct {
	slots      chan struct{}
	maxWait    int
	perAddress int

	mu      sync.Mutex
	waiting int
	held    map[string]int // places per address, hashing or waiting
}

func newGate(slots, maxWait, perAddress int) *gate {
	return &gate{slots: make(chan struct{}, slots), maxWait: maxWait, perAddress: perAddress, held: map[string]int{}}
}

// hashGate is the site's: one hash per core, four cores' worth waiting,
// two places an address (an office behind one address is served two at a
// time; nobody signs in faster than that by hand).
func hashGate() *gate {
	n := min(runtime.GOMAXPROCS(0), runtime.NumCPU()) // cacao serve adds Ps for the bots
	return newGate(n, 4*n, 2)
}

// do runs fn for address addr when a slot is free: errBusy if too many
// wait already or addr holds its share, ctx's error if ctx ends first.
func (g *gate) do(ctx context.Context, addr string, fn func() error) error {
	if !g.enter(addr) {
		return errBusy
	}
	defer g.leave(addr)
	select {
	case g.slots <- struct{}{}:
		g.waited()
	case <-ctx.Done():
		g.waited()
		return ctx.Err()
	}
	defer func() { <-g.slots }()
	if err := ctx.Err(); err != nil {
		return err
	}
	return fn()
}

// checksError refuses a password check from an address that has used its
// passwordChecks, for wait.
type checksError struct{ wait time.Duration }

func (e *checksError) Error() string { return "handlers: too many password checks from one address" }

// takeCheck takes one of the password checks of c's client address, or
// refuses with a *checksError (and Retry-After).
func (s *Server) takeCheck(c echo.Context) error {
	if d := s.take(c, checksKey(c.RealIP())); d > 0 {
		return &checksError{wait: d}
	}
	return nil
}

// hash runs fn, which checks or sets a password, for c's client: one of
// its address's password checks first, then its turn in the site's gate.
func (s *Server) hash(c echo.Context, fn func() error) error {
	if err := s.takeCheck(c); err != nil {
		return err
	}
	return s.hashing.do(c.Request().Context(), AddressOf(c.RealIP()), fn)
}

// enter takes a waiting place for addr, if there is one.
func (g *gate) enter(addr string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.waiting >= g.maxWait || g.held[addr] >= g.perAddress {
		return false
	}
	g.waiting++
	g.held[addr]++
	return true
}

// waited gives up a waiting place (the try hashes now, or has left).
func (g *gate) waited() {
	g.mu.Lock()
	g.waiting--
	g.mu.Unlock()
}

// leave gives up addr's place.
func (g *gate) leave(addr string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.held[addr]--; g.held[addr] == 0 {
		delete(g.held, addr)
	}
}

// waitingNow is how many tries wait.
func (g *gate) waitingNow() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.waiting
}
