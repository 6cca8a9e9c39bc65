package main

// The table as it stands on the screen: the board, the bar of the move and
// every village in view together on a laptop; on a phone the hand and
// Rotate there to tap at every scroll, the player's own village before the
// board; the chosen tile turned by a tap on it or by the R key.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"cacao/models"
	"cacao/models/autoplay"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// fourAtTheTable opens alice's four-player game against three greedy bots
// at her turn, a few moves in, at the screen size given, with a tile
// chosen that has a place to go.
func fourAtTheTable(t *testing.T, w, h int64) (*browser, *tab) {
	t.Helper()
	s := seededSite(t)
	alice := s.user("alice")
	g, err := s.store.CreateGame(alice, models.GameSpec{Seats: []string{"greedy", "greedy", "greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	autoplay.Bots(s.store, g.ID, nil)
	s.playUntil(g.ID, withATurningTile(alice, afterTurns(alice, 3)))
	b, a := s.aliceAtHerTurn(g.ID, true, w, h)
	a.chooseTileWithPlaces(1)
	return b, a
}

// withATurningTile is p with a tile in u's hand that turns (not 1-1-1-1).
func withATurningTile(u *models.User, p target) target {
	return target{p.what + ", with a tile that turns", func(l *models.Loaded) bool {
		if !p.is(l) {
			return false
		}
		for _, w := range l.Play.State().Player(seatOf(l, u)).HandTiles() {
			if len(w.Rotations()) > 1 {
				return true
			}
		}
		return false
	}}
}

// notInViewJS lists, of the elements named (CSS, what), those not wholly
// on the screen, or covered at their middle by something else.
const notInViewJS = `((wanted) => {
	const out = [];
	for (const [css, what] of wanted) {
		const els = [...document.querySelectorAll(css)];
		if (els.length === 0) { out.push('no ' + what); continue; }
		for (const el of els) {
			const r = el.getBoundingClientRect();
			if (r.width === 0 || r.left < -1 || r.top < -1 || r.right > innerWidth + 1 || r.bottom > innerHeight + 1) {
				out.push(what + ' at ' + JSON.stringify([Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)]) + ' is not wholly on the ' + innerWidth + 'x' + innerHeight + ' screen');
				continue;
			}
			const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
			if (!hit || !(el.contains(hit) || hit.contains(el))) out.push(what + ' is covered by ' + (hit ? hit.tagName + '#' + hit.id + '.' + hit.className : 'nothing'));
		}
	}
	return out;
})`

func (tb *tab) notInView(wanted [][2]string) []string {
	tb.b.t.Helper()
	var parts []string
	for _, w := range wanted {
		parts = append(parts, fmt.Sprintf("[%q, %q]", w[0], w[1]))
	}
	out, err := eval[[]string](tb, notInViewJS+"(["+strings.Join(parts, ",")+"])")
	tb.must(err)
	return out
}

// TestBrowserTableInView: at 1280×800, in a four-player game with a tile
// chosen, the board, the bar of the move, the display and every village
// are on the screen together, uncovered.
func TestBrowserTableInView(t *testing.T) {
	t.Parallel()
	b, a := fourAtTheTable(t, 1280, 800)
	_, err := eval[bool](a, `(() => { window.scrollTo(0, 0); return true; })()`)
	a.must(err)
	if out := a.notInView([][2]string{{"#board-wrap", "the board"}, {"#play", "the bar of the move"}, {"#table-centre", "the display and the pile"},
		{"#hand .tile", "a tile of the hand"}, {".village", "a village"}}); len(out) > 0 {
		b.fatalf("at 1280x800: %s", strings.Join(out, "; "))
	}
	if n, err := eval[int](a, `document.querySelectorAll('.village').length`); err != nil || n != 4 {
		b.fatalf("%d villages drawn (%v); want 4", n, err)
	}
}

// TestBrowserBarHoldsHint: at a turn with nothing chosen yet, the bar of
// the move holds its one line and Hint whole, without a scrollbar of its
// own, on a laptop and on a phone.
func TestBrowserBarHoldsHint(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	alice := s.user("alice")
	id := s.botGame(alice, "greedy")
	s.playUntil(id, afterTurns(alice, 2))
	for _, size := range [][2]int64{{1280, 800}, {390, 844}} {
		b, a := s.aliceAtHerTurn(id, true, size[0], size[1])
		if out := a.notInView([][2]string{{"#hint-button", "Hint"}}); len(out) > 0 {
			b.fatalf("at %dx%d: %s", size[0], size[1], strings.Join(out, "; "))
		}
		got, err := eval[[]float64](a, `(() => { const bar = document.getElementById('play'), r = bar.getBoundingClientRect(), h = document.getElementById('hint-button').getBoundingClientRect();
			return [bar.scrollHeight - bar.clientHeight, h.top - r.top, r.bottom - h.bottom]; })()`)
		a.must(err)
		if got[0] > 0 || got[1] < 0 || got[2] < 0 {
			b.fatalf("at %dx%d the bar of the move scrolls by %.0f px, Hint %.0f px from its top and %.0f px from its foot", size[0], size[1], got[0], got[1], got[2])
		}
	}
}

// TestBrowserFitBoardFits: with the board's size at Fit, the board fills
// its box without scrolling in it, across or down, unless it is drawn at
// its smallest legible size (40 px a cell) that way: a board too long or
// too wide for the box at that size pans, as on a phone.
func TestBrowserFitBoardFits(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int64{{1280, 800}, {390, 844}} {
		b, a := fourAtTheTable(t, size[0], size[1])
		a.must(a.do(5*time.Second, chromedp.Click(`#zoom-fit`)))
		a.must(a.waitFor(`document.getElementById('zoom-fit').checked`, 5*time.Second, "Fit chosen"))
		got, err := eval[[]float64](a, `(() => { const w = document.getElementById('board-wrap'), b = document.getElementById('board'), r = b.getBoundingClientRect(), s = getComputedStyle(b);
			return [w.scrollWidth - w.clientWidth, w.scrollHeight - w.clientHeight, r.width - parseFloat(s.minWidth), r.height - parseFloat(s.minHeight)]; })()`)
		a.must(err)
		across, down := got[0] > 1 && got[2] > 1, got[1] > 1 && got[3] > 1
		if across || down {
			b.fatalf("at %dx%d a board fitted to its box scrolls in it by %.0f px across and %.0f px down, %.0f px wider and %.0f px taller than its smallest", size[0], size[1], got[0], got[1], got[2], got[3])
		}
	}
}

// TestBrowserNumbersStayInView: a Large board scrolled down and across in
// its box keeps its column numbers along the top of what shows of the box
// (under the bar of the move, which stays at a phone's top) and its row
// numbers along its left; a tap where a number lies over a place to play
// still reaches the place; so does a laptop's board fitted to its box.
func TestBrowserNumbersStayInView(t *testing.T) {
	t.Parallel()
	b, a := fourAtTheTable(t, 390, 844)
	a.must(a.do(5*time.Second, chromedp.Click(`#zoom-2`)))
	a.must(a.waitFor(`document.getElementById('zoom-2').checked && document.getElementById('board-wrap').classList.contains('pans')`, 5*time.Second, "Large chosen"))
	for _, page := range []int{0, 200} {
		_, err := eval[bool](a, fmt.Sprintf(`(() => { const w = document.getElementById('board-wrap'); w.scrollTop = 40; w.scrollLeft = 40; window.scrollTo(0, w.getBoundingClientRect().top + scrollY - 60 + %d); return true; })()`, page))
		a.must(err)
		numbersPinned(b, a, fmt.Sprintf("on a phone, the page %d px further", page))
	}
	// A place to play brought under the column numbers (the box scrolled
	// so that its top lies 4 px above the numbers' foot): a tap on the
	// numbers there reaches it.
	_, err := eval[bool](a, `(() => { const w = document.getElementById('board-wrap'), v = w.getBoundingClientRect(), cells = [...document.querySelectorAll('#place-cells rect')];
		const c = cells.map((r) => r.getBoundingClientRect()).filter((r) => r.left > v.left + 30 && r.right < v.right).sort((p, q) => p.top - q.top)[0];
		w.scrollTop += c.top - (v.top + w.clientTop) - 4; window.scrollTo(0, 0); return true; })()`)
	a.must(err)
	under := `(() => { const c = document.querySelector('#board .numbers.cols rect').getBoundingClientRect(), v = document.getElementById('board-wrap').getBoundingClientRect();
		return [...document.querySelectorAll('#place-cells rect')].map((r) => r.getBoundingClientRect()).find((r) => r.top < c.bottom && r.bottom > c.bottom && r.left > v.left + 30 && r.right < v.right); })()`
	if err := a.waitFor(`!!`+under, 5*time.Second, "a place to play under the numbers"); err != nil {
		b.fatalf("no place to play lies under the column numbers after scrolling to one: %v", err)
	}
	hit, err := eval[bool](a, `(() => { const r = `+under+`, c = document.querySelector('#board .numbers.cols rect').getBoundingClientRect(), el = document.elementFromPoint(r.left + r.width / 2, (Math.max(r.top, c.top) + c.bottom) / 2);
		return !!el && !!el.closest('#place-cells a'); })()`)
	a.must(err)
	if !hit {
		b.fatalf("a tap on a column number over a place to play does not reach the place")
	}
	// At a laptop's size, the board fitted to its box (a tall board stands
	// in the middle of a wider box), the page scrolled so that the box's top
	// is under the bar.
	b, a = fourAtTheTable(t, 1280, 800)
	a.must(a.do(5*time.Second, chromedp.Click(`#zoom-fit`)))
	a.must(a.waitFor(`document.getElementById('zoom-fit').checked`, 5*time.Second, "Fit chosen"))
	for range 2 { // the bar stays at the top once the page passes it
		_, err = eval[bool](a, `(() => { window.scrollBy(0, document.getElementById('board-wrap').getBoundingClientRect().top - document.getElementById('play').getBoundingClientRect().bottom + 60); return true; })()`)
		a.must(err)
	}
	numbersPinned(b, a, "at 1280x800, fitted")
}

// numbersPinned fails unless the board's column numbers stand along the
// top of what shows of the board (its box's inside, the bar's foot or the
// drawing's top, whichever is lowest) and its row numbers along its left.
func numbersPinned(b *browser, a *tab, where string) {
	b.t.Helper()
	// The edges: of the box's inside, the bar's foot and the drawing (which
	// may stand in the middle of its box); the first column's and row's
	// number not under the other band.
	const edges = `const w = document.getElementById('board-wrap'), v = w.getBoundingClientRect(), bar = document.getElementById('play').getBoundingClientRect(), m = document.getElementById('board').getScreenCTM(),
		top = Math.max(v.top + w.clientTop, bar.bottom, m.f), left = Math.max(v.left + w.clientLeft, m.e),
		col = [...document.querySelectorAll('#board .numbers.cols text')].map((t) => t.getBoundingClientRect()).find((r) => r.left >= left + 30),
		row = [...document.querySelectorAll('#board .numbers.rows text')].map((t) => t.getBoundingClientRect()).find((r) => r.top >= top + 30);`
	pinned := `(() => { ` + edges + ` return col.top >= top - 1 && col.top <= top + 24 && row.left >= left - 1 && row.left <= left + 30; })()`
	if err := a.waitFor(pinned, 5*time.Second, "the numbers pinned"); err != nil {
		got, _ := eval[[]float64](a, `(() => { `+edges+` return [w.scrollTop, w.scrollLeft, top, col.top, left, row.left]; })()`)
		b.fatalf("%s, the box scrolled by %.0f px down and %.0f across: its inside's top shows at %.0f px, a column number at %.0f; its left at %.0f, a row number at %.0f", where, got[0], got[1], got[2], got[3], got[4], got[5])
	}
}

// TestBrowserPhoneHandTakesTheTap: at 390×844 with a tile chosen, the
// hand and Rotate are on the screen and nothing covers them, with the page
// scrolled 0, 150 and 300 px; the player's own village is on the first
// screen, before the board; a tap on the chosen tile turns it and leaves
// the page where it was.
func TestBrowserPhoneHandTakesTheTap(t *testing.T) {
	t.Parallel()
	b, a := fourAtTheTable(t, 390, 844)
	for _, y := range []int{0, 150, 300} {
		got, err := eval[int](a, fmt.Sprintf(`(() => { window.scrollTo(0, %d); return Math.round(window.scrollY); })()`, y))
		a.must(err)
		if got != y {
			b.fatalf("the page scrolls to %d px only: the test needs %d", got, y)
		}
		if out := a.notInView([][2]string{{"#hand .tile", "a tile of the hand"}, {rotateSel, "Rotate"}}); len(out) > 0 {
			b.fatalf("scrolled %d px: %s", y, strings.Join(out, "; "))
		}
		if y == 0 {
			if out := a.notInView([][2]string{{".village.mine", "alice's village"}}); len(out) > 0 {
				b.fatalf("on the first screen: %s", strings.Join(out, "; "))
			}
			if above, err := eval[bool](a, `document.querySelector('.village.mine').getBoundingClientRect().bottom <= document.getElementById('board-wrap').getBoundingClientRect().top`); err != nil || !above {
				b.fatalf("alice's village is not before the board (%v)", err)
			}
		}
	}
	before := rotation(a.mustState().URL)
	xy, err := eval[[]float64](a, `(() => { const r = document.querySelector('.hand a[aria-current="true"]').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2, window.scrollY]; })()`)
	a.must(err)
	a.setMarker()
	a.must(a.do(5*time.Second, chromedp.MouseClickXY(xy[0], xy[1])))
	a.must(a.waitFor(turnedFrom(before), 5*time.Second, "the tile turned"))
	a.must(a.waitFor(`!document.querySelector('.htmx-request')`, 5*time.Second, "the step settled"))
	if got := rotation(a.mustState().URL); got != (before+1)%4 {
		b.fatalf("a tap on the chosen tile turned it from %d to %d", before, got)
	}
	if y, err := eval[float64](a, `window.scrollY`); err != nil || y < xy[2]-2 || y > xy[2]+2 {
		b.fatalf("the page moved from %.0f to %.0f px as the tile turned (%v)", xy[2], y, err)
	}
	if !a.mustState().HasMarker {
		b.fatalf("the page was loaded again to turn the tile")
	}
}

// TestBrowserRTurnsTheTile: the R key turns the chosen tile, as Rotate
// does; typed into the chat it is a letter.
func TestBrowserRTurnsTheTile(t *testing.T) {
	t.Parallel()
	b, a := fourAtTheTable(t, 1280, 800)
	before := rotation(a.mustState().URL)
	a.must(a.do(5*time.Second, chromedp.KeyEvent("r")))
	a.must(a.waitFor(turnedFrom(before), 5*time.Second, "the tile turned"))
	if got := rotation(a.mustState().URL); got != (before+1)%4 {
		b.fatalf("R turned the tile from %d to %d", before, got)
	}
	at := a.mustState().URL
	a.must(a.do(5*time.Second, chromedp.Focus(`#chat textarea`), chromedp.KeyEvent("r"+kb.Tab)))
	time.Sleep(300 * time.Millisecond)
	if got := a.mustState().URL; got != at {
		b.fatalf("r typed into the chat turned the tile: %s", got)
	}
}

// turnedFrom is true once the address shows the chosen tile turned other
// than before.
func turnedFrom(before int) string {
	return fmt.Sprintf(`(new URL(location.href).searchParams.get('rot') || '0') !== '%d'`, before)
}

// TestBrowserDragHintOnce: on a phone the board that does not fit says it
// can be dragged until the player has dragged it once; then not again,
// also on the next page.
func TestBrowserDragHintOnce(t *testing.T) {
	t.Parallel()
	b, a := fourAtTheTable(t, 390, 844)
	hint := func() bool {
		shown, err := eval[bool](a, `getComputedStyle(document.getElementById('pan-hint')).display !== 'none'`)
		a.must(err)
		return shown
	}
	if pans, err := eval[bool](a, `document.getElementById('board-wrap').classList.contains('pans')`); err != nil || !pans {
		b.fatalf("the board fits the phone (%v): the test needs one that pans", err)
	}
	if !hint() {
		b.fatalf("the board pans, and the page does not say it can be dragged")
	}
	_, err := eval[bool](a, `document.getElementById('board').dispatchEvent(new WheelEvent('wheel', {bubbles: true, deltaX: 40}))`)
	a.must(err)
	if hint() {
		b.fatalf("the hint stays once the board was dragged")
	}
	a.must(a.navigate(a.mustState().URL))
	a.must(a.waitFor(`document.readyState === 'complete'`, 10*time.Second, "the page again"))
	if hint() {
		b.fatalf("the hint is back on the next page")
	}
}

// TestBrowserPhoneFillsStaySmall: on a phone, with a cell chosen whose
// jungle can be filled several ways, the bar of the move with its list of
// fills takes at most a third of the screen, every way to fill and
// Confirm whole in it.
func TestBrowserPhoneFillsStaySmall(t *testing.T) {
	t.Parallel()
	b, a := aliceAtAChoiceOfFills(t, 390, 844)
	h, err := eval[float64](a, `document.getElementById('play').getBoundingClientRect().height / innerHeight`)
	a.must(err)
	if h > 1.0/3 {
		b.fatalf("with the fills listed the bar of the move takes %.0f %% of the screen", 100*h)
	}
	// Every way to fill, whole on the screen: none past its edge.
	if out := a.notInView([][2]string{{"#play fieldset.fills li:last-child", "the last way to fill"}}); len(out) > 0 {
		b.fatalf("with the fills listed: %s", strings.Join(out, "; "))
	}
	// Confirm whole in the bar, not cut by its edge.
	if in, err := eval[bool](a, `(() => { const c = document.getElementById('confirm').getBoundingClientRect(), p = document.getElementById('play').getBoundingClientRect(); return c.top >= p.top && c.bottom <= p.bottom; })()`); err != nil || !in {
		b.fatalf("with the fills listed Confirm is cut by the bar's edge (%v)", err)
	}
}

// TestBrowserHandInViewWithFills: at 1280×800, with a cell chosen whose
// jungle can be filled several ways (the tallest bar of the move but for a
// hint) and then with a hint shown (after Start over), the bar, the hand and the board are
// wholly on the screen and nothing covers them: the bar, staying at the
// top as it grows, does not slide over the hand below it.
func TestBrowserHandInViewWithFills(t *testing.T) {
	t.Parallel()
	b, a := aliceAtAChoiceOfFills(t, 1280, 800)
	// From the top of the page: a cell at the board's foot may have taken
	// a scroll to reach, which slides the hand away as it would for anyone.
	top := func() {
		_, err := eval[bool](a, `(() => { window.scrollTo(0, 0); return true; })()`)
		a.must(err)
	}
	top()
	table := [][2]string{{"#play", "the bar of the move"}, {"#hand .tile", "a tile of the hand"}, {"#board-wrap", "the board"}}
	if out := a.notInView(table); len(out) > 0 {
		b.fatalf("with the fills listed: %s", strings.Join(out, "; "))
	}
	a.must(a.click(`#play a.button.secondary`, "Start over"))
	if ok, err := eval[bool](a, `!!document.querySelector('#hint-button')`); err != nil || !ok {
		b.fatalf("alice's game against greedy offers no hint (%v)", err)
	}
	a.must(a.click(`#hint-button`, "Hint"))
	a.must(a.waitFor(`!!document.querySelector('#hint') && !document.querySelector('.htmx-request')`, 10*time.Second, "the hint"))
	top()
	if out := a.notInView(table); len(out) > 0 {
		b.fatalf("with a hint shown: %s", strings.Join(out, "; "))
	}
}

// TestBrowserFillKeepsThePage: at 1280×800, with the page scrolled so that
// the bar of the move stays at the top, choosing another way to fill
// leaves the page where it was.
func TestBrowserFillKeepsThePage(t *testing.T) {
	t.Parallel()
	b, a := aliceAtAChoiceOfFills(t, 1280, 800)
	y, err := eval[float64](a, `(() => { window.scrollTo(0, 120); return window.scrollY; })()`)
	a.must(err)
	if y < 100 {
		b.fatalf("the page scrolls to %.0f px only: the test needs 100", y)
	}
	// A tap where the link shows (a click by selector would first scroll
	// the page to the bar's place in it, as no player's does).
	xy, err := eval[[]float64](a, `(() => { const r = document.querySelector('#play fieldset.fills a.fill-option').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`)
	a.must(err)
	a.must(a.do(5*time.Second, chromedp.MouseClickXY(xy[0], xy[1])))
	a.must(a.waitFor(`location.search.includes('fill=') && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')`, 5*time.Second, "the fill chosen, settled"))
	if got, err := eval[float64](a, `window.scrollY`); err != nil || got < y-2 || got > y+2 {
		b.fatalf("choosing another way to fill moved the page from %.0f to %.0f px (%v)", y, got, err)
	}
}

// aliceAtAChoiceOfFills opens, at w×h, alice's game against greedy with a
// cell chosen whose jungle can be filled several ways.
func aliceAtAChoiceOfFills(t *testing.T, w, h int64) (*browser, *tab) {
	t.Helper()
	s := seededSite(t)
	alice := s.user("alice")
	id, ok := s.gameAt(func() uint { return s.botGame(alice, "greedy") }, fillChoiceNearTheEnd(alice, 6), 20)
	if !ok {
		t.Fatal("no game came to a choice of fills: the test needs one")
	}
	b, a := s.aliceAtHerTurn(id, true, w, h)
	if !a.chooseCellWithFills() {
		b.fatalf("no cell of alice's hand has a jungle to fill two ways: the test needs one")
	}
	return b, a
}

// aliceAtHerTurn opens game id for alice in a browser of its own (with
// JavaScript or without) at w×h, her pending choices confirmed with their
// defaults.
func (s *site) aliceAtHerTurn(id uint, js bool, w, h int64) (*browser, *tab) {
	s.t.Helper()
	b := newBrowser(s.t, js, s.logs)
	a := b.newTab("alice", js)
	a.must(a.do(5*time.Second, chromedp.EmulateViewport(w, h)))
	s.openGame(a, "alice", id)
	for a.mustState().Choice {
		a.must(a.click(`#confirm-choice`, "Confirm choice"))
	}
	return b, a
}

// TestBrowserArrowsMoveBetweenCells: with a legal cell focused, each arrow
// key moves the focus to the nearest legal cell that way on the board (a
// step aside counting as two), which is on the screen and takes the tap;
// with none that way, the focus stays. On a laptop and on a phone.
func TestBrowserArrowsMoveBetweenCells(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int64{{1280, 800}, {390, 844}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			arrowsMoveBetweenCells(fourAtTheTable(t, size[0], size[1]))
		})
	}
}

// arrowsMoveBetweenCells is TestBrowserArrowsMoveBetweenCells on a's page.
func arrowsMoveBetweenCells(b *browser, a *tab) {
	a.chooseTileWithPlaces(4)
	// From the cell in the middle of the legal ones, the cell each way the
	// page should choose ("" for none): the least along + 2·aside.
	want, err := eval[map[string]string](a, `(() => {
		const cells = [...document.querySelectorAll('#place-cells a[data-cell]')].map(a => a.dataset.cell.split(',').map(Number));
		const mx = cells.reduce((s, c) => s + c[0], 0) / cells.length, my = cells.reduce((s, c) => s + c[1], 0) / cells.length;
		const start = cells.reduce((b, c) => Math.hypot(c[0] - mx, c[1] - my) < Math.hypot(b[0] - mx, b[1] - my) ? c : b);
		const out = {start: start.join(',')};
		for (const [key, d] of Object.entries({ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]})) {
			let best = '', cost = Infinity;
			for (const c of cells) {
				const along = (c[0] - start[0]) * d[0] + (c[1] - start[1]) * d[1], aside = Math.abs((c[0] - start[0]) * d[1] + (c[1] - start[1]) * d[0]);
				if (along > 0 && along + 2 * aside < cost) { best = c.join(','); cost = along + 2 * aside; }
			}
			out[key] = best;
		}
		return out;
	})()`)
	a.must(err)
	moved := 0
	for _, k := range []struct{ name, key string }{{"ArrowLeft", kb.ArrowLeft}, {"ArrowRight", kb.ArrowRight}, {"ArrowUp", kb.ArrowUp}, {"ArrowDown", kb.ArrowDown}} {
		a.must(a.do(5*time.Second, chromedp.Focus(fmt.Sprintf(`#place-cells a[data-cell=%q]`, want["start"])), chromedp.KeyEvent(k.key)))
		got, err := eval[string](a, `document.activeElement.closest('#place-cells a[data-cell]') ? document.activeElement.dataset.cell : document.activeElement.tagName`)
		a.must(err)
		to := want[k.name]
		if to == "" {
			to = want["start"]
		} else {
			moved++
		}
		if got != to {
			b.fatalf("from cell %s %s moved the focus to %s; want cell %s", want["start"], k.name, got, to)
		}
		if out := a.notInView([][2]string{{"#place-cells a:focus", "the cell focused"}}); len(out) > 0 {
			b.fatalf("after %s: %s", k.name, strings.Join(out, "; "))
		}
		// Clear of the numbers along the box's top and left, once they
		// follow its scroll, of the bar of the move above and of a phone's
		// hand tray below: wholly, not only at its middle.
		clear := `(() => { const r = document.activeElement.getBoundingClientRect(), c = document.querySelector('#board .numbers.cols rect').getBoundingClientRect(), w = document.querySelector('#board .numbers.rows rect').getBoundingClientRect(),
			bar = document.getElementById('play').getBoundingClientRect(), tray = document.querySelector('.game-hand'), foot = getComputedStyle(tray).position === 'sticky' ? tray.getBoundingClientRect().top : innerHeight;
			return r.top >= c.bottom - 1 && r.left >= w.right - 1 && r.top >= bar.bottom - 1 && r.bottom <= foot + 1; })()`
		if err := a.waitFor(clear, 2*time.Second, "the cell clear of the numbers, the bar and the tray"); err != nil {
			b.fatalf("after %s the cell focused lies partly under the board's numbers, the bar of the move or the hand's tray: %v", k.name, err)
		}
	}
	if moved == 0 {
		b.fatalf("from cell %s no arrow leads to another legal cell", want["start"])
	}
}
