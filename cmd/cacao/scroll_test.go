package main

// Where the page is: the steps of a turn and the live refreshes never move
// the page away from where the player put it, and at the moment of
// confirming the move, its cell, what it brings and Confirm are in view.

import (
	"cacao/models"
	"cacao/models/autoplay"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// screens are the sizes the game page is tested at: a laptop and a phone.
var screens = []struct {
	name string
	w, h int
}{{"desktop", 1280, 800}, {"phone", 390, 844}}

// TestBrowserPageStaysPut: alice, scrolled down (300 px, or as far as the
// page goes), sees the board stay where it is on her screen while bob's
// move reaches her page (news of it appears above the board), and while
// she chooses a tile, rotates it, chooses a cell (the bar of the move
// grows with Confirm) and how the jungle is filled.
func TestBrowserPageStaysPut(t *testing.T) {
	t.Parallel()
	for _, sc := range screens {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			s, b, a, bb, game := bobToPlay(t, true, sc.w, sc.h)
			a.scrollTo(300)
			top := a.boardTop()
			a.must(a.markMain())
			bb.playAMove(s.gameURL(game))
			a.must(a.waitFor(changedJS, 10*time.Second, "bob's move on alice's page"))
			a.wantBoardAt(top, "after bob's move reached the page")

			a.must(a.waitFor(`!!document.querySelector('#confirm-choice') || (document.querySelector('#play') || {innerText: ''}).innerText.includes('Choose a tile from your hand.')`, 10*time.Second, "alice's turn"))
			for a.mustState().Choice {
				a.jsClick(`#confirm-choice`, "Confirm choice")
				a.wantBoardAt(top, "after confirming a choice")
			}
			// A tile that turns, if the hand has one (1111 has no Rotate).
			a.must(a.waitFor(`!!document.querySelector('.hand a.tile')`, 10*time.Second, "alice's hand to play"))
			first := `.hand a.tile:not([data-tile="1111"])`
			if n, _ := eval[int](a, `document.querySelectorAll('`+first+`').length`); n == 0 {
				first = `.hand a.tile`
			}
			a.jsClick(first, "a tile")
			a.wantBoardAt(top, "after choosing a tile")
			if a.mustState().Rotate {
				a.jsClick(rotateSel, "Rotate")
				a.wantBoardAt(top, "after Rotate")
			}
			for tries := 0; len(a.mustState().Cells) == 0; tries++ {
				if tries == 12 {
					b.fatalf("no tile of alice's hand has a place")
				}
				if tries%4 == 3 || !a.mustState().Rotate { // 1111 has no Rotate
					a.jsClick(fmt.Sprintf(`.hand a.tile:nth-child(%d)`, tries/4+2), "another tile")
				} else {
					a.jsClick(rotateSel, "Rotate")
				}
				a.wantBoardAt(top, "after another tile or rotation")
			}
			// The lowest cell, brought to the lower part of the screen, where
			// the bar of the move at the top, grown with what the move brings,
			// cannot cover it (the page moves to show a cell it covers;
			// TestBrowserConfirmInView). A cell near the board's top may be
			// under the bar however the page is scrolled.
			cell, err := eval[string](a, `[...document.querySelectorAll('#board a.cell')].pop().getAttribute('data-cell')`)
			a.must(err)
			_, err = eval[int](a, fmt.Sprintf(`(() => { const r = document.querySelector('#board a.cell[data-cell=%q]').getBoundingClientRect(); window.scrollTo(0, Math.max(0, window.scrollY + r.top - innerHeight * 0.8)); return Math.round(window.scrollY); })()`, cell))
			a.must(err)
			top = a.boardTop()
			a.jsClick(fmt.Sprintf(`#board a.cell[data-cell=%q]`, cell), "cell "+cell)
			a.wantBoardAt(top, "after choosing a cell")
			if n, _ := eval[int](a, `document.querySelectorAll('#play a[id^="fill-"]').length`); n > 0 {
				a.jsClick(`#play a[id^="fill-"]`, "another fill")
				a.wantBoardAt(top, "after choosing how the jungle is filled")
			}
		})
	}
}

// scrollTo scrolls the page down by y, or as far as it goes when that is
// at least 100 px, and returns where it got.
func (tb *tab) scrollTo(y int) int {
	tb.b.t.Helper()
	got, err := eval[int](tb, fmt.Sprintf(`(() => { window.scrollTo(0, %d); return Math.round(window.scrollY); })()`, y))
	tb.must(err)
	if got < 100 {
		tb.b.fatalf("%s: the page scrolls only %d px down", tb.name, got)
	}
	return got
}

// boardTop is where the board's top is on the screen.
func (tb *tab) boardTop() int {
	tb.b.t.Helper()
	top, err := eval[int](tb, `Math.round(document.getElementById('board-wrap').getBoundingClientRect().top)`)
	tb.must(err)
	return top
}

// wantBoardAt checks that the board's top is where it was on the screen
// (to 2 px).
func (tb *tab) wantBoardAt(top int, when string) {
	tb.b.t.Helper()
	if got := tb.boardTop(); got < top-2 || got > top+2 {
		tb.b.fatalf("%s: %s the board is %d px from the top of the screen, not %d px where the player had it", tb.name, when, got, top)
	}
}

// markMain marks the page so that changedJS tells when the game area has
// been replaced.
func (tb *tab) markMain() error {
	_, err := eval[bool](tb, markJS)
	return err
}

// jsClick clicks an element as a script does (no scrolling it into view
// first, as a mouse click through DevTools would) and waits for the game
// area to be replaced.
func (tb *tab) jsClick(css, what string) {
	tb.b.t.Helper()
	tb.must(tb.markMain())
	ok, err := eval[bool](tb, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return false; e.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, view: window})); return true; })()`, css))
	tb.must(err)
	if !ok {
		tb.b.fatalf("%s: no %s to click (%s)", tb.name, what, css)
	}
	tb.must(tb.waitFor(changedJS, 10*time.Second, "the game area after clicking "+what))
}

// TestBrowserConfirmInView: once alice has chosen a tile and a cell, the
// tile drawn on its cell, what the move brings and Confirm are all on the
// screen, at both sizes, on a page that was at its top, as it opens.
func TestBrowserConfirmInView(t *testing.T) {
	t.Parallel()
	for _, sc := range screens {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			b, a, game := aliceAgainstABot(t)
			a.must(a.do(5*time.Second, chromedp.EmulateViewport(int64(sc.w), int64(sc.h))))
			a.must(a.navigate(game))
			a.must(a.waitFor(`typeof window.htmx !== 'undefined'`, 10*time.Second, "htmx"))
			for turn := 0; turn < 3; turn++ {
				a.chooseTileWithPlaces(1)
				cells := a.mustState().Cells
				cell := cells[turn%len(cells)]
				// In sight first, as a player scrolls to the cell they choose.
				_, err := eval[bool](a, fmt.Sprintf(`(() => { document.querySelector('#board a.cell[data-cell=%q]').scrollIntoView({block: 'center'}); return true; })()`, cell))
				a.must(err)
				a.must(a.click(fmt.Sprintf(`#board a.cell[data-cell=%q]`, cell), "cell "+cell))
				out, err := eval[[]string](a, inViewJS)
				a.must(err)
				if len(out) > 0 {
					b.fatalf("turn %d, cell %s at %dx%d: %v", turn+1, cell, sc.w, sc.h, out)
				}
				a.must(a.click(`#confirm`, "Confirm move"))
				a.must(a.waitFor(`!!document.querySelector('#confirm-choice') || (document.querySelector('#play') || {innerText: ''}).innerText.includes('Choose a tile from your hand.')`, 10*time.Second, "alice's next turn"))
				for a.mustState().Choice {
					a.must(a.click(`#confirm-choice`, "Confirm choice"))
				}
			}
		})
	}
}

// inViewJS lists what is not wholly on the screen of the chosen cell (in
// the board's visible part too, and not covered), the preview of what the
// move brings and the Confirm button (in the bar's visible part too).
const inViewJS = `(() => {
	const out = [];
	const within = (r, box) => r.width > 0 && r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
	const screen = {left: 0, top: 0, right: window.innerWidth, bottom: window.innerHeight};
	const check = (what, el, ...boxes) => {
		if (!el) { out.push('no ' + what); return; }
		const r = el.getBoundingClientRect();
		for (const box of boxes) {
			if (!within(r, box)) out.push(what + ' at ' + JSON.stringify([Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)]) + ' is outside ' + JSON.stringify([Math.round(box.left), Math.round(box.top), Math.round(box.right), Math.round(box.bottom)]));
		}
	};
	const wrap = document.getElementById('board-wrap');
	const ghost = document.querySelector('svg.board .chosen');
	check('the tile on its cell', ghost, screen, wrap.getBoundingClientRect());
	if (ghost) {
		const r = ghost.getBoundingClientRect();
		const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
		if (top && !document.getElementById('board').contains(top)) out.push('the tile on its cell is covered by ' + top.tagName + '#' + top.id + '.' + top.className);
	}
	const h = [...document.querySelectorAll('#play h3')].find((e) => e.textContent.includes('If you confirm'));
	check('what the move brings', h && h.parentElement, screen, document.getElementById('play').getBoundingClientRect());
	check('Confirm', document.getElementById('confirm'), screen, document.getElementById('play').getBoundingClientRect());
	return out;
})()`

// TestBrowserPhoneShowsTheBoard: on a phone, on the player's turn with
// news since their last move, the board starts on the first screen, with
// room to see some of it (it started below the screen).
func TestBrowserPhoneShowsTheBoard(t *testing.T) {
	t.Parallel()
	_, b, a, _ := aliceAgainstGreedyAt(t, true, afterTurnsWithNews, 3, 390, 844)
	if a.text("#since") == "" {
		b.fatalf("the page tells no news since alice's last move: the test needs it")
	}
	top, err := eval[int](a, `(() => { window.scrollTo(0, 0); return Math.round(document.getElementById('board-wrap').getBoundingClientRect().top); })()`)
	a.must(err)
	if top > 844-150 {
		b.fatalf("on a phone the board starts %d px down, below the first screen's last 150 px", top)
	}
}

// bobToPlay opens a game between alice and bob at bob's turn in a tab of
// each (alice's at the screen size given), with JavaScript or without.
func bobToPlay(t *testing.T, js bool, w, h int) (s *site, b *browser, a, bb *tab, game uint) {
	t.Helper()
	s = seededSite(t)
	alice, bob := s.user("alice"), s.user("bob")
	game = s.gameBetween(alice, bob)
	s.playUntil(game, toPlay(bob))
	b = newBrowser(t, js, s.logs)
	a, bb = b.newTab("alice", js), b.newTab("bob", js)
	a.must(a.do(5*time.Second, chromedp.EmulateViewport(int64(w), int64(h))))
	s.openGame(a, "alice", game)
	s.openGame(bb, "bob", game)
	return s, b, a, bb, game
}

// playAMove plays the tab's steps until it has confirmed a move.
func (tb *tab) playAMove(game string) {
	tb.b.t.Helper()
	want := tb.turns + 1
	for deadline := time.Now().Add(30 * time.Second); tb.turns < want; {
		if time.Now().After(deadline) {
			tb.b.fatalf("%s did not get to confirm a move: %s", tb.name, tb.text("#play"))
		}
		_, err := tb.step(game)
		tb.must(err)
	}
}

// TestBrowserBoardSizeKept: the board size chosen is kept across a step
// and a reload, with JavaScript (as the radio changes) and without (the
// Set size button).
func TestBrowserBoardSizeKept(t *testing.T) {
	t.Parallel()
	for _, js := range []bool{true, false} {
		s, b, a, game := aliceAgainstGreedyAt(t, js, afterTurns, 0, 1280, 800)
		a.must(a.do(5*time.Second, chromedp.Click(chromedp.CSS(`label:has(#zoom-2)`))))
		if js {
			// The choice is sent as it changes; a step keeps the form as it is.
			a.must(a.waitFor(`performance.getEntriesByType('resource').some((e) => e.name.endsWith('/board-size'))`, 5*time.Second, "the size to be sent"))
			a.chooseTileWithPlaces(1)
		} else {
			a.must(a.click(`#zoom button[type=submit]`, "Set size"))
		}
		if on, _ := eval[bool](a, `document.getElementById('zoom-2').checked`); !on {
			b.fatalf("js=%v: the board size is no longer Large after choosing it", js)
		}
		a.must(a.navigate(s.gameURL(game)))
		a.must(a.waitFor(`document.readyState === 'complete'`, 10*time.Second, "the game page"))
		if on, _ := eval[bool](a, `document.getElementById('zoom-2').checked`); !on {
			b.fatalf("js=%v: the board size chosen is forgotten on reload", js)
		}
	}
}

// TestBrowserBoardOpensFramed: on a phone, a board larger than its box
// opens with the cells the player may choose in view (it opened on its
// top-left corner), at the large size too, and with the tile on its
// chosen cell in view when a cell is chosen.
func TestBrowserBoardOpensFramed(t *testing.T) {
	t.Parallel()
	_, b, a, game := aliceAgainstGreedyAt(t, true, afterTurns, 10, 390, 844)
	a.chooseTileWithPlaces(1)
	a.must(a.do(5*time.Second, chromedp.Click(chromedp.CSS(`label:has(#zoom-2)`))))
	a.must(a.waitFor(`performance.getEntriesByType('resource').some((e) => e.name.endsWith('/board-size'))`, 5*time.Second, "the size to be kept"))
	a.must(a.navigate(a.location()))
	a.must(a.waitFor(`document.readyState === 'complete' && document.getElementById('zoom-2').checked`, 10*time.Second, "the page at the large size"))
	f := a.framing()
	if !f.Scrolls {
		b.fatalf("the board of game %d fits a phone at the large size: the test needs one that does not", game)
	}
	if !f.InView {
		b.fatalf("on a phone the large board opens with the middle of its legal cells out of view")
	}
	// Opened wide, then narrowed to a phone's width (a window resized, a
	// tablet turned): framed again.
	a.must(a.do(5*time.Second, chromedp.EmulateViewport(1280, 800)))
	a.must(a.navigate(a.location()))
	a.must(a.waitFor(`document.readyState === 'complete'`, 10*time.Second, "the page"))
	_, err := eval[bool](a, `(() => { const w = document.getElementById('board-wrap'); w.scrollTo(0, 0); return true; })()`)
	a.must(err)
	a.must(a.do(5*time.Second, chromedp.EmulateViewport(390, 844)))
	a.must(a.waitFor(`(() => { const w = document.getElementById('board-wrap'); return w.scrollLeft > 0 || w.scrollTop > 0; })()`, 5*time.Second, "the board framed again at a phone's width"))
	if f := a.framing(); !f.InView {
		b.fatalf("narrowed to a phone, the large board shows the middle of its legal cells out of view")
	}
	// A page opened with a cell chosen (a link, a reload) is framed on the
	// tile on that cell, wholly in view.
	tile, cells := a.location(), a.mustState().Cells
	for _, cell := range []string{cells[0], cells[len(cells)-1]} {
		a.must(a.navigate(tile))
		a.jsClick(fmt.Sprintf(`#board a.cell[data-cell=%q]`, cell), "cell "+cell)
		a.must(a.navigate(a.location()))
		a.must(a.waitFor(`document.readyState === 'complete' && !!document.querySelector('svg.board .chosen')`, 10*time.Second, "the page with the cell chosen"))
		in, err := eval[bool](a, `(() => { const v = document.getElementById('board-wrap').getBoundingClientRect(), c = document.querySelector('svg.board .chosen').getBoundingClientRect(); return c.left >= v.left && c.right <= v.right && c.top >= v.top && c.bottom <= v.bottom; })()`)
		a.must(err)
		if !in {
			b.fatalf("opened with cell %s chosen, the large board shows the tile on it out of view", cell)
		}
	}
}

type framing struct{ Scrolls, InView bool }

// framing tells whether the board scrolls in its box and whether the
// middle of its legal cells is in view.
func (tb *tab) framing() framing {
	tb.b.t.Helper()
	f, err := eval[framing](tb, `(() => {
		const w = document.getElementById('board-wrap'), v = w.getBoundingClientRect();
		let l = Infinity, t = Infinity, r = -Infinity, bt = -Infinity;
		for (const m of w.querySelectorAll('#place-cells rect')) { const q = m.getBoundingClientRect(); l = Math.min(l, q.left); t = Math.min(t, q.top); r = Math.max(r, q.right); bt = Math.max(bt, q.bottom); }
		const x = (l + r) / 2, y = (t + bt) / 2;
		return {scrolls: w.scrollWidth > w.clientWidth, inView: x >= v.left && x <= v.right && y >= v.top && y <= v.bottom};
	})()`)
	tb.must(err)
	return f
}

// TestBrowserPhoneHeader: on a phone the signed-in header takes two lines
// at most (the site's name with who is signed in, then the links); it
// took three.
func TestBrowserPhoneHeader(t *testing.T) {
	t.Parallel()
	b, a, game := aliceAgainstABot(t)
	a.must(a.do(5*time.Second, chromedp.EmulateViewport(390, 844)))
	a.must(a.navigate(game))
	h, err := eval[int](a, `Math.round(document.querySelector('header.top').getBoundingClientRect().height)`)
	a.must(err)
	if h > 2*44+12 {
		b.fatalf("on a phone the header is %d px tall, more than two lines of 44 px", h)
	}
}

// aliceAgainstGreedyAt opens alice's game against the greedy bot in a tab
// at the screen size given, once she has played turns turns (at her turn,
// with no choice waiting), with JavaScript or without.
func aliceAgainstGreedyAt(t *testing.T, js bool, after func(*models.User, int) target, turns int, w, h int64) (*site, *browser, *tab, uint) {
	t.Helper()
	s := seededSite(t)
	alice := s.user("alice")
	game := s.botGame(alice, "greedy")
	s.playUntil(game, after(alice, turns))
	b, a := s.aliceAtHerTurn(game, js, w, h)
	return s, b, a, game
}

// TestBrowserFourPlayerBoardOnAPhone: late in a four-player game, "Fit"
// keeps the tiles legible (40 px a cell at least; on a phone it made them
// 28), and a board larger than its box says it can be dragged (on a phone
// at the normal size it does), one that fits says nothing.
func TestBrowserFourPlayerBoardOnAPhone(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	alice := s.user("alice")
	g, err := s.store.CreateGame(alice, models.GameSpec{Seats: []string{"greedy", "greedy", "greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	autoplay.Bots(s.store, g.ID, nil)
	s.playUntil(g.ID, afterTurns(alice, 6))
	b := newBrowser(t, true, s.logs)
	a := b.newTab("alice", true)
	type fit struct {
		Cell float64 // a cell's width on screen
		Pans bool    // the board is larger than its box (by more than a pixel)
		Hint bool    // the page says it can be dragged
		Cols int
	}
	measure := func(size string) fit {
		a.must(a.do(5*time.Second, chromedp.Click(chromedp.CSS(`label:has(#zoom-`+size+`)`))))
		// The hint follows the size (app.js, at the next frame).
		a.must(a.waitFor(`performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/board-size')).length > 0 && document.getElementById('zoom-`+size+`').checked`, 5*time.Second, "the size "+size+" sent"))
		time.Sleep(300 * time.Millisecond) // the page settles at its size (app.js, at the next frame)
		f, err := eval[fit](a, `(() => {
			const svg = document.getElementById('board'), w = document.getElementById('board-wrap'), v = svg.viewBox.baseVal, r = svg.getBoundingClientRect();
			return {cell: Math.min(r.width / (v.width / 64), r.height / (v.height / 64)), pans: w.scrollWidth > w.clientWidth + 1 || w.scrollHeight > w.clientHeight + 1,
				hint: getComputedStyle(document.getElementById('pan-hint')).display !== 'none', cols: Math.floor(v.width / 64)};
		})()`)
		a.must(err)
		return f
	}
	for _, sc := range screens {
		a.must(a.do(5*time.Second, chromedp.EmulateViewport(int64(sc.w), int64(sc.h))))
		s.openGame(a, "alice", g.ID)
		for _, size := range []string{"fit", "1"} {
			f := measure(size)
			if size == "fit" && f.Cell < 39.5 {
				b.fatalf("%s: at Fit a cell of the %d-column board is %.0f px wide", sc.name, f.Cols, f.Cell)
			}
			if f.Pans != f.Hint {
				b.fatalf("%s, size %s: the board is larger than its box: %v; the page says so: %v", sc.name, size, f.Pans, f.Hint)
			}
			if sc.name == "phone" && size == "1" && !f.Pans {
				b.fatalf("the %d-column board fits the phone at the normal size: the test needs a larger one", f.Cols)
			}
		}
	}
}
