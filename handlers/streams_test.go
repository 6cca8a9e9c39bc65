package handlers_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"cacao/handlers"
)

// TestStreamLimits: one account holds at most a few event streams, the
// site at most MaxStreams; past them a stream is refused with 429, and a
// stream closed frees its place.
func TestStreamLimits(t *testing.T) {
	s := newSiteWith(t, func(cfg *handlers.Config) { cfg.MaxStreams = handlers.MaxStreamsPerUser + 2 })
	id, ana, bob := s.anaAndBob()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first, stopFirst := context.WithCancel(ctx)
	defer stopFirst()
	for i := 0; i < handlers.MaxStreamsPerUser; i++ {
		c := ctx
		if i == 0 {
			c = first
		}
		if _, err := ana.events(c, id, ""); err != nil {
			t.Fatalf("ana's stream %d: %v", i+1, err)
		}
	}
	if _, err := ana.events(ctx, id, ""); err == nil || !strings.Contains(err.Error(), "429") {
		t.Fatalf("one stream too many for ana: %v", err)
	}
	if _, err := ana.stream(ctx, "/events", ""); err == nil || !strings.Contains(err.Error(), "429") {
		t.Fatalf("one home stream too many for ana: %v", err)
	}
	for i := 0; i < 2; i++ {
		if _, err := bob.events(ctx, id, ""); err != nil {
			t.Fatalf("bob's stream %d: %v", i+1, err)
		}
	}
	if _, err := bob.events(ctx, id, ""); err == nil || !strings.Contains(err.Error(), "429") {
		t.Fatalf("a stream past the site's limit: %v", err)
	}
	stopFirst()
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, err := bob.events(ctx, id, "")
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a closed stream did not free its place: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestStreamsKeepRoomForPlayers: viewers not signed in, from however many
// addresses, hold at most half of the site's streams (each address
// MaxStreamsPerUser); players signed in still find room.
func TestStreamsKeepRoomForPlayers(t *testing.T) {
	s := newSiteWith(t, func(cfg *handlers.Config) {
		proxied(cfg)
		cfg.MaxStreams = 4 * handlers.MaxStreamsPerUser
	})
	id, ana, _ := s.anaAndBob()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for a := 0; a < 2; a++ {
		anon := s.client(fmt.Sprint("anon", a)).from(fmt.Sprintf("203.0.113.%d", a+1))
		for i := 0; i < handlers.MaxStreamsPerUser; i++ {
			if _, err := anon.events(ctx, id, ""); err != nil {
				t.Fatalf("%s's stream %d: %v", anon.name, i+1, err)
			}
		}
	}
	if _, err := s.client("anon2").from("203.0.113.3").events(ctx, id, ""); err == nil || !strings.Contains(err.Error(), "429") {
		t.Fatalf("an anonymous stream past their half of the site's: %v", err)
	}
	for i := 0; i < handlers.MaxStreamsPerUser; i++ {
		if _, err := ana.events(ctx, id, ""); err != nil {
			t.Fatalf("ana's stream %d, the anonymous share full: %v", i+1, err)
		}
	}
}
