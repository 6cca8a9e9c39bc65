package handlers

import (
	"context"
	"errors"
	"runtime"
	"slices"
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
// maxWait wait (first come, first hashed), and a waiter whose client has
// gone is dropped before it hashes. One address (AddressOf) holds at most
// perAddress places, hashing or waiting. When every waiting place is
// taken, a try from an address holding fewer places than the address
// holding the most turns away that address's newest waiting try (errBusy)
// and waits in its place; other tries are refused at once (429). So
// addresses that flood make room for an honest one rather than keep it
// out, and its try, once waiting (its address holding one place), is
// turned away only when every waiting try is of an address holding one
// place too: an attacker needs as many addresses as waiting places.
type gate struct {
	slots      int
	maxWait    int
	perAddress int

	mu      sync.Mutex
	hashing int
	queue   []*waiter      // first come first
	held    map[string]int // places per address, hashing or waiting
}

// waiter is a try waiting in the gate: its turn receives nil when it may
// hash, errBusy when a newcomer turned it away.
type waiter struct {
	addr string
	turn chan error
}

func newGate(slots, maxWait, perAddress int) *gate {
	return &gate{slots: slots, maxWait: maxWait, perAddress: perAddress, held: map[string]int{}}
}

// hashGate is the site's, with n slots (0: GOMAXPROCS, which the Go
// runtime sets from the cores or the container's CPU quota): four slots'
// worth waiting, two places an address (an office behind one address is
// served two at a time; nobody signs in faster than that by hand).
func hashGate(n int) *gate {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	return newGate(n, 4*n, 2)
}

// do runs fn for address addr in its turn: errBusy if the gate is full or
// addr holds its share, or when a newcomer turns it away while it waits;
// ctx's error if ctx ends first.
func (g *gate) do(ctx context.Context, addr string, fn func() error) error {
	w := g.enter(addr)
	if w == nil {
		return errBusy
	}
	var err error
	select {
	case err = <-w.turn:
	case <-ctx.Done():
		if g.drop(w) {
			return ctx.Err()
		}
		err = <-w.turn // its turn came, or it was turned away, meanwhile
	}
	if err != nil {
		return err
	}
	defer g.done(addr)
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

// enter queues a try of addr, turning another away if the gate is full
// and addr holds fewer places than the address holding the most; nil if
// there is no place for it.
func (g *gate) enter(addr string) *waiter {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.held[addr] >= g.perAddress || len(g.queue) >= g.maxWait && !g.turnAway(addr) {
		return nil
	}
	w := &waiter{addr: addr, turn: make(chan error, 1)}
	g.queue = append(g.queue, w)
	g.held[addr]++
	g.serve()
	return w
}

// turnAway turns away the newest waiting try of the address holding the
// most places among those waiting (the longest waiting of them on a tie),
// if addr holds fewer; it reports whether it did. g.mu is held.
func (g *gate) turnAway(addr string) bool {
	most := -1
	for i, w := range g.queue {
		if most < 0 || g.held[w.addr] > g.held[g.queue[most].addr] {
			most = i
		}
	}
	if most < 0 || g.held[addr] >= g.held[g.queue[most].addr] {
		return false
	}
	victim := g.queue[most].addr
	for i := len(g.queue) - 1; ; i-- {
		if w := g.queue[i]; w.addr == victim {
			g.queue = slices.Delete(g.queue, i, i+1)
			g.release(victim)
			w.turn <- errBusy
			return true
		}
	}
}

// serve lets the first waiters hash while slots are free. g.mu is held.
func (g *gate) serve() {
	for g.hashing < g.slots && len(g.queue) > 0 {
		w := g.queue[0]
		g.queue = g.queue[1:]
		g.hashing++
		w.turn <- nil
	}
}

// drop takes w out of the queue (its client left), reporting whether it
// was still waiting.
func (g *gate) drop(w *waiter) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	i := slices.Index(g.queue, w)
	if i < 0 {
		return false
	}
	g.queue = slices.Delete(g.queue, i, i+1)
	g.release(w.addr)
	return true
}

// done ends a hash of addr's and gives its slot to the next waiter.
func (g *gate) done(addr string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.hashing--
	g.release(addr)
	g.serve()
}

// release gives up one of addr's places. g.mu is held.
func (g *gate) release(addr string) {
	if g.held[addr]--; g.held[addr] == 0 {
		delete(g.held, addr)
	}
}

// waitingNow is how many tries wait.
func (g *gate) waitingNow() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.queue)
}
