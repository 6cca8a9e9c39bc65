package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestBrowserCellHint: a legal cell under the pointer or the focus tells
// in the bar what it would bring (its label), and the bar keeps its
// height meanwhile; leaving the cell clears it.
func TestBrowserCellHint(t *testing.T) {
	t.Parallel()
	_, b, a, _ := aliceAgainstGreedyAt(t, true, afterTurns, 3, 1280, 800)
	a.chooseTileWithPlaces(1)
	cell := a.mustState().Cells[0]
	sel := fmt.Sprintf(`#board a.cell[data-cell=%q]`, cell)
	height := func() float64 {
		h, err := eval[float64](a, `document.getElementById('play').getBoundingClientRect().height`)
		a.must(err)
		return h
	}
	before := height()
	type hint struct{ Hint, Label string }
	read := func() hint {
		h, err := eval[hint](a, fmt.Sprintf(`({hint: document.getElementById('cell-hint').textContent, label: document.querySelector(%q).getAttribute('aria-label')})`, sel))
		a.must(err)
		return h
	}
	_, err := eval[bool](a, fmt.Sprintf(`(() => { document.querySelector(%q).focus(); return true; })()`, sel))
	a.must(err)
	if h := read(); h.Hint == "" || h.Hint != h.Label {
		b.fatalf("focused, cell %s hints %q; want its label %q", cell, h.Hint, h.Label)
	}
	if after := height(); after != before {
		b.fatalf("the bar went from %.0f to %.0f px tall with the hint", before, after)
	}
	_, err = eval[bool](a, `(() => { document.activeElement.blur(); return true; })()`)
	a.must(err)
	if h := read(); h.Hint != "" {
		b.fatalf("the hint %q stays after the cell lost the focus", h.Hint)
	}
	// The pointer over the cell.
	type point struct{ X, Y float64 }
	p, err := eval[point](a, fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); return {x: r.left + r.width / 2, y: r.top + r.height / 2}; })()`, sel))
	a.must(err)
	a.must(a.do(5*time.Second, chromedp.MouseEvent("mouseMoved", p.X, p.Y)))
	if h := read(); h.Hint != h.Label {
		b.fatalf("under the pointer, cell %s hints %q; want %q", cell, h.Hint, h.Label)
	}
}

// TestBrowserMoveArrives: after a move the tile laid (and the greedy bot's
// answer) grow into place and each village's gain floats up, with
// motion allowed; a reload shows the game still; asking for reduced
// motion, nothing moves.
func TestBrowserMoveArrives(t *testing.T) {
	t.Parallel()
	for _, reduce := range []bool{false, true} {
		s, b, a, game := aliceAgainstGreedyAt(t, true, afterTurns, 3, 1280, 800)
		if reduce {
			a.must(a.do(5*time.Second, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
				_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
					Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}})
				return err
			})))
		}
		if n, _ := eval[int](a, `document.querySelectorAll('#board g.arrive, #villages.arrive').length`); n != 0 {
			b.fatalf("the page just opened animates %d things", n)
		}
		a.chooseTileWithPlaces(1)
		cell := a.mustState().Cells[0]
		a.must(a.click(fmt.Sprintf(`#board a.cell[data-cell=%q]`, cell), "cell "+cell))
		a.must(a.click(`#confirm`, "Confirm move"))
		a.must(a.waitFor(`!document.querySelector('#confirm')`, 10*time.Second, "the move to be played"))
		type arrival struct {
			Tiles    []string // each arriving tile's animation
			Villages bool     // the villages are marked arriving
			Gains    []string // each gain's animation
		}
		got, err := eval[arrival](a, `(() => {
			const v = document.getElementById('villages');
			return {
				tiles: [...document.querySelectorAll('#board g.arrive')].map((g) => getComputedStyle(g).animationName),
				villages: v.classList.contains('arrive'),
				gains: [...v.querySelectorAll('.gain-float')].map((f) => getComputedStyle(f).animationName),
			};
		})()`)
		a.must(err)
		if len(got.Tiles) < 2 || !got.Villages { // alice's tile and the bot's at least
			b.fatalf("reduce=%v: after the move %d tiles arrive and the villages %v; want alice's tile and the bot's, and the villages", reduce, len(got.Tiles), got.Villages)
		}
		tile, gain := "arrive", "gain-float"
		if reduce {
			tile, gain = "none", "none"
		}
		for _, name := range got.Tiles {
			if name != tile {
				b.fatalf("reduce=%v: a tile arrives with the animation %q, want %q", reduce, name, tile)
			}
		}
		for _, name := range got.Gains {
			if name != gain {
				b.fatalf("reduce=%v: a gain floats with the animation %q, want %q", reduce, name, gain)
			}
		}
		a.must(a.navigate(s.gameURL(game)))
		a.must(a.waitFor(`document.readyState === 'complete'`, 10*time.Second, "the game page"))
		if n, _ := eval[int](a, `document.querySelectorAll('#board g.arrive, #villages.arrive').length`); n != 0 {
			b.fatalf("reloaded, the page animates %d things", n)
		}
	}
}
