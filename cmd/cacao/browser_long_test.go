//go:build long

package main

// Whole browser games played by clicking from the sign-up on, beside the one
// `make test` keeps (TestBrowserTwoPlayersFullGame): `make test-long` runs
// them. The short tests of the same journeys start a few turns from the end.

import (
	"testing"
	"time"
)

// TestLongBrowserNoJavaScriptGame: the journey of TestBrowserNoJavaScript
// with JavaScript off, the whole game played by clicking. Every step is a
// plain link or a form post; a waiting player reloads to see the other's
// move. The game is played to the final scores.
func TestLongBrowserNoJavaScriptGame(t *testing.T) {
	t.Parallel()
	base, logs := startSite(t)
	b := newBrowser(t, false, logs)
	start := time.Now()
	a, bb, game := startTwoPlayerGame(b, base, false)
	st, err := a.state()
	a.must(err)
	if st.HTMXLoaded {
		b.fatalf("htmx is loaded: JavaScript should be off in this browser")
	}
	playToEnd(b, play{game: game, limit: 150 * time.Second, stall: 20 * time.Second}, a, bb)
	for _, tb := range []*tab{a, bb} {
		tb.must(tb.navigate(game))
		tb.checkFinal(2)
	}
	if a.turns < 6 || bb.turns < 6 {
		b.fatalf("each player should have played at least 6 turns: %s", turnCounts([]*tab{a, bb}))
	}
	sameFinal(b, a, bb)
	t.Logf("full game without JavaScript: %s in %v", turnCounts([]*tab{a, bb}), time.Since(start).Round(time.Millisecond))
}

// TestLongBrowserBotGame: one player plays a whole game against the greedy
// bot by clicking, with JavaScript, and never reloads: after each confirmed
// move the page must come back to "Choose a tile" once the bot has answered.
// The bot moves within the player's own request, so the page gets two
// versions at once (the player's move and the bot's) while its own POST is
// in flight.
func TestLongBrowserBotGame(t *testing.T) {
	t.Parallel()
	base, logs := startSite(t)
	b := newBrowser(t, true, logs)
	a := b.newTab("alice", true)
	a.signUp(base, "alice")
	game := a.createGame(base, "medium")
	a.must(a.waitFor(`typeof window.htmx !== 'undefined'`, 10*time.Second, "htmx"))
	playToEnd(b, play{game: game, limit: 90 * time.Second, stall: 8 * time.Second}, a)
	a.checkFinal(2)
	checkWholeLog(b, a, game)
}
