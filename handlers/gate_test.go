package handlers

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"
)

// TestHashGate: password hashing runs a few at a time; a bounded number
// wait, and past that a try from an address holding as many places as
// any other is refused at once (errBusy); a waiter whose client left is
// dropped without hashing.
func TestHashGate(t *testing.T) {
	g := newGate(1, 1, 2)
	release := make(chan struct{})
	started := make(chan struct{})
	go g.do(context.Background(), "a", func() error { close(started); <-release; return nil })
	<-started

	ctx, cancel := context.WithCancel(context.Background())
	ran := false
	waiter := make(chan error)
	go func() { waiter <- g.do(ctx, "b", func() error { ran = true; return nil }) }()
	waitFor(t, g, 1)
	if err := g.do(context.Background(), "a", func() error { return nil }); !errors.Is(err, errBusy) {
		t.Fatalf("a second try of the hashing address with one hashing and one waiting: %v", err)
	}
	cancel()
	if err := <-waiter; !errors.Is(err, context.Canceled) || ran {
		t.Fatalf("a waiter whose client left: %v, hashed %v", err, ran)
	}
	close(release)
	for g.do(context.Background(), "a", func() error { return nil }) != nil {
		time.Sleep(time.Millisecond)
	}
}

// TestHashGateFair: one address holds at most its share of the gate's
// places (hashing or waiting): however many tries it sends at once, a
// try from another address still finds a place and is hashed.
func TestHashGateFair(t *testing.T) {
	g := newGate(1, 3, 2)
	release := make(chan struct{})
	started := make(chan struct{})
	go g.do(context.Background(), "mallory", func() error { close(started); <-release; return nil })
	<-started
	results := make(chan error, 10)
	for range 5 {
		go func() { results <- g.do(context.Background(), "mallory", func() error { return nil }) }()
	}
	for deadline := time.Now().Add(5 * time.Second); g.waitingNow()+len(results) < 5 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if g.waitingNow() != 1 || len(results) != 4 {
		t.Fatalf("of mallory's 5 tries at once with one of hers hashing, %d wait and %d were answered; want 1 and 4", g.waitingNow(), len(results))
	}
	for range 4 {
		if err := <-results; !errors.Is(err, errBusy) {
			t.Fatalf("a try of mallory's past her share: %v", err)
		}
	}
	hashed := make(chan error)
	go func() { hashed <- g.do(context.Background(), "ana", func() error { return nil }) }()
	waitFor(t, g, 2)
	close(release)
	if err := <-hashed; err != nil {
		t.Fatalf("ana's try while mallory floods the gate: %v", err)
	}
	if err := <-results; err != nil {
		t.Fatalf("mallory's waiting try: %v", err)
	}
}

// TestHashGateSlots: the site's gate has the slots it is given, else one
// a P; four slots' worth wait.
func TestHashGateSlots(t *testing.T) {
	if g := hashGate(3); g.slots != 3 || g.maxWait != 12 {
		t.Errorf("given 3 slots: %d slots, %d waiting", g.slots, g.maxWait)
	}
	if g := hashGate(0); g.slots != runtime.GOMAXPROCS(0) {
		t.Errorf("given none: %d slots with %d Ps", g.slots, runtime.GOMAXPROCS(0))
	}
}

// waitFor waits until n tries wait in g.
func waitFor(t *testing.T, g *gate, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); g.waitingNow() != n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d wait, want %d", g.waitingNow(), n)
		}
	}
}

// TestHashGateFairAmongAddresses: when addresses that each hold their
// share have filled the gate (2 hashing, 8 waiting: 5 addresses), a try
// from an address holding fewer places turns away one waiting try of an
// address holding the most (errBusy) and waits in its place; the tries
// hashing are left alone, and the newcomer is hashed in its turn.
func TestHashGateFairAmongAddresses(t *testing.T) {
	g := newGate(2, 8, 2)
	release := make(chan struct{})
	hashing := make(chan struct{}, 10)
	results := make(chan error, 10)
	for _, addr := range []string{"m1", "m2", "m3", "m4", "m5"} {
		for range 2 {
			go func() {
				results <- g.do(context.Background(), addr, func() error { hashing <- struct{}{}; <-release; return nil })
			}()
		}
	}
	<-hashing
	<-hashing
	waitFor(t, g, 8)
	hashed := make(chan error)
	go func() { hashed <- g.do(context.Background(), "ana", func() error { return nil }) }()
	select {
	case err := <-results:
		if !errors.Is(err, errBusy) {
			t.Fatalf("a waiting try of a flooding address, when ana comes: %v", err)
		}
	case err := <-hashed:
		t.Fatalf("ana's try while five addresses fill the gate: %v", err)
	}
	waitFor(t, g, 8)
	close(release)
	if err := <-hashed; err != nil {
		t.Fatalf("ana's try while five addresses flood the gate: %v", err)
	}
	for range 9 {
		if err := <-results; err != nil {
			t.Fatalf("a flooding try that had its place: %v", err)
		}
	}
}
