//go:build long

package main

import (
	"testing"
	"time"
)

// TestLongBrowserGuestGame: a visitor plays a whole game against the easy
// bot as a guest, from /play to the final scores, by clicking
// (TestBrowserGuestPlaysABot, in `make test`, clicks its last turns).
func TestLongBrowserGuestGame(t *testing.T) {
	t.Parallel()
	base, logs := startSite(t)
	b := newBrowser(t, true, logs)
	g := b.newTab("gus", true)
	start := time.Now()
	game := g.playAsGuest(base, "gus")
	g.must(g.waitFor(`typeof window.htmx !== 'undefined'`, 10*time.Second, "htmx"))
	playToEnd(b, play{game: game, limit: 120 * time.Second, stall: 8 * time.Second}, g)
	g.checkFinal(2)
	if g.turns < 6 {
		b.fatalf("the guest played %d turns by clicking; a game has about 11 each", g.turns)
	}
	t.Logf("a guest's whole game against the easy bot by clicking: %s in %v", turnCounts([]*tab{g}), time.Since(start).Round(time.Millisecond))
}
