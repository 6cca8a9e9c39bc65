package main

import (
	"strings"
	"testing"
	"time"
)

// TestBrowserResign: with JavaScript and without, alice resigns her game
// against the greedy bot through its confirmation page (its link 44 px
// tall, to be tapped on a phone); the bot then plays
// her seat to the end, and the final table (which fits a phone) and the log
// say she resigned.
func TestBrowserResign(t *testing.T) {
	t.Parallel()
	for _, js := range []bool{true, false} {
		s, b, a, game := aliceAgainstGreedyAt(t, js, afterTurns, 2, 390, 844)
		// A finger's height: not a line of small text.
		if h, err := eval[float64](a, `document.querySelector('.game-side .resign a').getBoundingClientRect().height`); err != nil || h < 44 {
			b.fatalf("js=%v: Resign… is %.0f px tall, want 44 (%v)", js, h, err)
		}
		a.must(a.click(`.game-side .resign a`, "Resign…"))
		a.must(a.waitFor(`!!document.querySelector('form button#resign')`, 10*time.Second, "the confirmation"))
		if !strings.Contains(a.text("main"), "You cannot take the seat back.") {
			b.fatalf("js=%v: the confirmation does not say what resigning does: %q", js, a.text("main"))
		}
		a.must(a.click(`form button#resign`, "Resign"))
		a.must(a.waitFor(`!!document.getElementById('final')`, 10*time.Second, "the game, played to the end by the bots"))
		for sel, want := range map[string]string{
			"#final": "alice (resigned)",
			"main":   "You resigned this game",
		} {
			if got := strings.Join(strings.Fields(a.text(sel)), " "); !strings.Contains(got, want) {
				b.fatalf("js=%v: %s says %q; want %q in it", js, sel, got, want)
			}
		}
		// On the phone, the final table with its mark fits its card.
		over, err := eval[float64](a, `(() => { const r = document.querySelector('#final .table-scroll'); return r.scrollWidth - r.clientWidth; })()`)
		a.must(err)
		if over > 0 {
			b.fatalf("js=%v: on a phone the final table is %.0f px wider than its card", js, over)
		}
		a.must(a.navigate(s.gameURL(game) + "/log"))
		if got := strings.Join(strings.Fields(a.text("main")), " "); !strings.Contains(got, "alice resigned: the stand-in bot plays their seat to the end.") {
			b.fatalf("js=%v: the whole log does not say alice resigned: %q", js, got)
		}
	}
}
