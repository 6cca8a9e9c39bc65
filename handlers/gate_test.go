package handlers

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestHashGate: password hashing runs a few at a time; a bounded number
// wait, and past that a try is refused at once (errBusy); a waiter whose
// client left is dropped without hashing.
func TestHashGate(t *testing.T) {
	g := newGate(1, 1)
	release := make(chan struct{})
	started := make(chan struct{})
	go g.do(context.Background(), func() error { close(started); <-release; return nil })
	<-started

	ctx, cancel := context.WithCancel(context.Background())
	ran := false
	waiter := make(chan error)
	go func() { waiter <- g.do(ctx, func() error { ran = true; return nil }) }()
	for g.waiting.Load() != 1 {
		time.Sleep(time.Millisecond)
	}
	if err := g.do(context.Background(), func() error { return nil }); !errors.Is(err, errBusy) {
		t.Fatalf("a third try with one hashing and one waiting: %v", err)
	}
	cancel()
	if err := <-waiter; !errors.Is(err, context.Canceled) || ran {
		t.Fatalf("a waiter whose client left: %v, hashed %v", err, ran)
	}
	close(release)
	for g.do(context.Background(), func() error { return nil }) != nil {
		time.Sleep(time.Millisecond)
	}
}
