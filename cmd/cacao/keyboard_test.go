package main

// The keyboard test: a whole turn of Cacao can be played with the keyboard
// alone, and every place focus stops at shows where it is. Headless Chromium
// plays turns against the greedy bot by Tab, Shift+Tab, Enter, Space and the
// arrow keys only (DevTools' Input.dispatchKeyEvent): no clicks, no focus()
// from a script and no page loads but the first one of the game page. The
// test only reads the page (document.activeElement, computed styles) between
// key presses.

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// focusInfo is document.activeElement as the test sees it after a key press.
type focusInfo struct {
	None    bool   `json:"none"` // nothing in the page has focus (the body)
	Tag     string `json:"tag"`
	ID      string `json:"id"`
	Class   string `json:"class"`
	Label   string `json:"label"`
	Text    string `json:"text"`
	Section string `json:"section"` // the heading of the closest section, or the landmark
	Kind    string `json:"kind"`    // tag#id.class in section: one kind of focus stop

	// The focus indicator: whether one is drawn, and what it is.
	Visible      bool   `json:"visible"`
	How          string `json:"how"`
	FocusVisible bool   `json:"focusVisible"` // the element matches :focus-visible

	// What the element is in a turn.
	Tile     bool   `json:"tile"`     // a tile in the hand (.hand a)
	TileKind string `json:"tileKind"` // which worker tile it is (its data-tile)
	Rotate   bool   `json:"rotate"`   // #rotate
	Cell     bool   `json:"cell"`     // a legal cell on the board (#board a.cell)
	Fill     bool   `json:"fill"`     // a fill choice (a link in #play's fieldset list)
	Use      bool   `json:"use"`      // a worker select (select[name=use])
	Workers  bool   `json:"workers"`  // the summary that opens the worker controls
	Confirm  bool   `json:"confirm"`  // #confirm
	Resolve  bool   `json:"resolve"`  // the pending choice's Confirm choice button

	SelectIndex int `json:"selectIndex"` // for a select: the selected option
	Options     int `json:"options"`     // for a select: how many options
}

func (f focusInfo) String() string {
	if f.None {
		return "nothing (" + f.Tag + ")"
	}
	s := f.Kind
	if f.Label != "" {
		s += fmt.Sprintf(" [aria-label=%q]", f.Label)
	} else if f.Text != "" {
		s += fmt.Sprintf(" %q", f.Text)
	}
	return s
}

// focusJS describes document.activeElement and its focus indicator: an
// outline (style not none, width above 0) or a box-shadow on the element
// or, for an SVG link, on its rect, or a stroke of at least 3 on that rect.
const focusJS = `(() => {
	const el = document.activeElement;
	if (!el || el === document.body || el === document.documentElement) return {none: true, tag: el ? el.tagName.toLowerCase() : ''};
	const attr = (n) => el.getAttribute(n) || '';
	const tag = el.tagName.toLowerCase();
	const cls = attr('class').trim();
	const sec = el.closest('section');
	let where = '';
	if (sec) {
		const h = sec.querySelector('h2, h3');
		where = h ? h.textContent.replace(/\s+/g, ' ').trim() : 'section#' + sec.id;
	} else {
		const land = el.closest('header, nav, footer, fieldset, main');
		where = land ? land.tagName.toLowerCase() + (land.id ? '#' + land.id : '') : 'body';
	}
	const kind = tag + (el.id && !/^use-|^order-/.test(el.id) ? '#' + el.id : '') + (cls ? '.' + cls.split(/\s+/).join('.') : '') +
		(tag === 'select' || tag === 'input' ? '[name=' + attr('name') + (attr('type') ? '][type=' + attr('type') : '') + ']' : '') + ' in "' + where + '"';
	const ways = [];
	const look = (e, name) => {
		const cs = getComputedStyle(e);
		const ow = parseFloat(cs.outlineWidth) || 0;
		if (cs.outlineStyle !== 'none' && ow > 0) ways.push(name + 'outline ' + cs.outlineWidth + ' ' + cs.outlineStyle + ' ' + cs.outlineColor);
		if (cs.boxShadow && cs.boxShadow !== 'none') ways.push(name + 'box-shadow ' + cs.boxShadow);
	};
	look(el, '');
	let how = '';
	if (el instanceof SVGElement) {
		const r = el.querySelector('rect');
		if (r) {
			look(r, 'rect ');
			const rs = getComputedStyle(r);
			const sw = parseFloat(rs.strokeWidth) || 0;
			if (rs.stroke !== 'none' && sw >= 3) ways.push('rect stroke ' + rs.strokeWidth + ' ' + rs.stroke);
			else how = 'rect stroke ' + rs.strokeWidth + ' ' + rs.stroke + ' (under 3)';
		}
	}
	if (ways.length === 0 && !how) {
		const cs = getComputedStyle(el);
		how = 'outline-style ' + cs.outlineStyle + ', outline-width ' + cs.outlineWidth + ', box-shadow ' + cs.boxShadow;
	}
	return {
		tag, id: el.id || '', class: cls, label: attr('aria-label'),
		text: (el.textContent || el.value || '').replace(/\s+/g, ' ').trim().slice(0, 60),
		section: where, kind,
		visible: ways.length > 0, how: ways.length > 0 ? ways[0] : how,
		focusVisible: el.matches(':focus-visible'),
		tile: el.matches('.hand a'), tileKind: attr('data-tile') || '',
		rotate: el.id === 'rotate',
		cell: el.matches('#board a.cell'),
		fill: el.matches('#play fieldset ul a'),
		use: el.matches('select[name=use]'),
		workers: el.matches('#worker-use > summary'),
		confirm: el.id === 'confirm',
		resolve: el.matches('form[action$="/resolve"] button[type=submit]'),
		selectIndex: tag === 'select' ? el.selectedIndex : -1,
		options: tag === 'select' ? el.options.length : 0,
	};
})()`

// kbPlayer plays a tab's turns with the keyboard and keeps what it saw.
type kbPlayer struct {
	tb   *tab
	turn int // turns confirmed

	presses   int                        // keys pressed since the game page was loaded
	stops     int                        // focus stops checked
	shown     map[string]map[string]bool // kind of stop -> the indicators seen on it
	invisible map[string]string          // kind of stop -> why it shows no focus (first time seen)

	toTile, rotateToCell, toConfirm []int // Tab presses per turn
	fills, selects, choices         int   // fill choices taken, worker selects changed, pending choices confirmed
	log                             []string
}

func newKBPlayer(tb *tab) *kbPlayer {
	return &kbPlayer{tb: tb, shown: map[string]map[string]bool{}, invisible: map[string]string{}}
}

func (kp *kbPlayer) fatalf(format string, args ...any) {
	kp.tb.b.t.Helper()
	kp.tb.b.t.Logf("keys so far:\n%s", strings.Join(kp.tail(), "\n"))
	kp.tb.b.fatalf("%s (turn %d): %s", kp.tb.name, kp.turn+1, fmt.Sprintf(format, args...))
}

func (kp *kbPlayer) tail() []string {
	if len(kp.log) > 25 {
		return kp.log[len(kp.log)-25:]
	}
	return kp.log
}

// key presses one key (Shift held when shift), as a keyboard does.
func (kp *kbPlayer) key(name, k string, shift bool) {
	kp.tb.b.t.Helper()
	var opts []chromedp.KeyOption
	if shift {
		opts = append(opts, chromedp.KeyModifiers(chromedp.ModifierShift))
		name = "Shift+" + name
	}
	kp.presses++
	if err := kp.tb.do(5*time.Second, chromedp.KeyEvent(k, opts...)); err != nil {
		kp.fatalf("pressing %s: %v", name, err)
	}
}

// focus reads where focus is and checks that it is visible.
func (kp *kbPlayer) focus() focusInfo {
	kp.tb.b.t.Helper()
	var f focusInfo
	var err error
	for range 3 { // the page may be between two documents
		if f, err = eval[focusInfo](kp.tb, focusJS); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		kp.fatalf("reading document.activeElement: %v", err)
	}
	if f.None {
		return f
	}
	kp.stops++
	if kp.shown[f.Kind] == nil {
		kp.shown[f.Kind] = map[string]bool{}
	}
	if f.Visible {
		kp.shown[f.Kind][f.How] = true
	} else {
		kp.shown[f.Kind]["NONE: "+f.How] = true
		if _, seen := kp.invisible[f.Kind]; !seen {
			kp.invisible[f.Kind] = fmt.Sprintf("%s: no visible focus (%s; matches :focus-visible: %v)", f, f.How, f.FocusVisible)
		}
	}
	return f
}

// tabUntil presses Tab (Shift+Tab when back) until want is true of the
// focused element, at most max times, checking every stop on the way. A stop
// for which skip is true (when not nil) on the way breaks the focus order.
func (kp *kbPlayer) tabUntil(what string, back bool, max int, want, skip func(focusInfo) bool) (focusInfo, int) {
	kp.tb.b.t.Helper()
	dir := "Tab"
	if back {
		dir = "Shift+Tab"
	}
	var path []string
	for n := 1; n <= max; n++ {
		kp.key("Tab", kb.Tab, back)
		f := kp.focus()
		path = append(path, f.String())
		if want(f) {
			kp.log = append(kp.log, fmt.Sprintf("%s ×%d to %s: %s", dir, n, what, strings.Join(path, " → ")))
			return f, n
		}
		if skip != nil && skip(f) {
			kp.fatalf("the focus order is wrong: on the way to %s by %s focus stopped on %s first (%s)", what, dir, f, strings.Join(path, " → "))
		}
	}
	kp.fatalf("%d presses of %s did not reach %s; focus went: %s", max, dir, what, strings.Join(path, " → "))
	return focusInfo{}, 0
}

// activate presses Enter (or Space) on the focused control, which follows a
// link or submits a form, and waits until the game area (htmx) or the page
// (without JavaScript) has been replaced.
func (kp *kbPlayer) activate(name, k string, f focusInfo) {
	kp.tb.b.t.Helper()
	if _, err := eval[bool](kp.tb, markJS); err != nil {
		kp.fatalf("before pressing %s on %s: %v", name, f, err)
	}
	kp.key(name, k, false)
	kp.log = append(kp.log, fmt.Sprintf("%s on %s", name, f))
	if err := kp.tb.waitFor(changedJS, 10*time.Second, "the page to change after "+name+" on "+f.String()); err != nil {
		kp.fatalf("%v", err)
	}
}

// expectFocus waits (for an autofocus to be applied) until want is true of
// the focused element.
func (kp *kbPlayer) expectFocus(what string, want func(focusInfo) bool) focusInfo {
	kp.tb.b.t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		f := kp.focus()
		if want(f) {
			kp.log = append(kp.log, "focus is on "+what+": "+f.String())
			return f
		}
		if time.Now().After(deadline) {
			kp.fatalf("focus should be on %s (autofocus), it is on %s; the page is %s", what, f, kp.tb.location())
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// state reads the page once nothing is loading.
func (kp *kbPlayer) state() pageState {
	kp.tb.b.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, err := kp.tb.state()
		if err == nil && !st.Busy {
			return st
		}
		if time.Now().After(deadline) {
			kp.fatalf("the page stays busy (%v)", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitTurn waits until the page asks the player for a tile or a pending
// choice. The bot answers within the player's own request; with JavaScript
// an update may also come through the event stream. Nothing reloads the page.
func (kp *kbPlayer) waitTurn() pageState {
	kp.tb.b.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		st := kp.state()
		switch {
		case st.Choice || strings.Contains(st.PlayText, "Choose a tile from your hand."):
			return st
		case st.Final:
			kp.fatalf("the game ended after %d turns", kp.turn)
		case st.PlayError != "" || st.GameError != "":
			kp.fatalf("the page shows an error: %q %q", st.PlayError, st.GameError)
		}
		if time.Now().After(deadline) {
			kp.fatalf("it is not the player's turn again: the page (%s) says %q", st.URL, st.PlayText)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// playTurn plays one whole turn with the keyboard: pending choices first,
// then tile, rotation, cell, fill choice, workers and confirm.
func (kp *kbPlayer) playTurn() {
	kp.tb.b.t.Helper()
	st := kp.waitTurn()
	for st.Choice {
		// "A choice is waiting for you": Tab to Confirm choice.
		f, _ := kp.tabUntil("Confirm choice", false, 60, func(f focusInfo) bool { return f.Resolve }, nil)
		kp.activate("Enter", kb.Enter, f)
		kp.choices++
		st = kp.waitTurn()
	}

	// The steps of a turn in their order: hand, rotate, board, fill choice,
	// workers, confirm. Going forward from one, no stop of an earlier one may
	// come before the next; going back, no stop of a later one.
	afterHand := func(f focusInfo) bool { return f.Cell || f.Fill || f.Use || f.Confirm }
	afterBoard := func(f focusInfo) bool { return f.Fill || f.Use || f.Confirm }
	beforeFill := func(f focusInfo) bool { return f.Tile || f.Rotate || f.Cell }

	// A tile from the hand, then the rotate button (autofocus).
	// A tile is known by its kind (data-tile): its label tells its
	// workers as turned.
	tile := func(f focusInfo) string { return f.TileKind }
	tried := map[string]bool{}
	var tabs int
	var f focusInfo
	f, tabs = kp.tabUntil("a tile in the hand", false, 60, func(f focusInfo) bool { return f.Tile && !tried[tile(f)] }, nil)
	kp.toTile = append(kp.toTile, tabs)
	var cells int
	turns := true // the tile chosen turns: 1111 does not, and has no Rotate
	for {
		tried[tile(f)] = true
		kind := tile(f)
		turns = kind != "1111"
		kp.activate("Enter", kb.Enter, f)
		if turns {
			kp.expectFocus("#rotate after choosing "+f.Label, func(f focusInfo) bool { return f.Rotate })
		} else {
			kp.expectFocus("the tile, which does not turn, after choosing "+f.Label, func(f focusInfo) bool { return f.Tile && tile(f) == kind })
		}
		st = kp.state()
		if w := query(st.URL, "tile"); w == "" || kind != w {
			kp.fatalf("Enter on %s selected tile %q (%s)", f, w, st.URL)
		}
		cells, _ = eval[int](kp.tb, `document.querySelectorAll('#board a.cell').length`)
		if !turns && cells > 0 {
			break
		}
		// Rotate once, then as often as needed for a legal cell.
		found := false
		for r := 0; r < 4 && turns; r++ {
			before := rotation(st.URL)
			rf := kp.focus()
			kp.activate("Enter", kb.Enter, rf)
			kp.expectFocus("#rotate after rotating", func(f focusInfo) bool { return f.Rotate })
			st = kp.state()
			if got := rotation(st.URL); got != (before+1)%4 {
				kp.fatalf("Enter on #rotate: the rotation went from %d to %d (%s)", before, got, st.URL)
			}
			cells, _ = eval[int](kp.tb, `document.querySelectorAll('#board a.cell').length`)
			if cells > 0 {
				found = true
				break
			}
		}
		if found {
			break
		}
		// No legal cell in any rotation: back to another tile.
		f, _ = kp.tabUntil("another tile in the hand", true, 10, func(f focusInfo) bool { return f.Tile && !tried[tile(f)] }, afterHand)
	}

	if kp.turn == 0 && turns {
		// The rotate button comes right after the hand: Shift+Tab goes back to
		// a tile, Tab forward to the rotate button again.
		kp.tabUntil("the hand, back from #rotate", true, 1, func(f focusInfo) bool { return f.Tile }, nil)
		kp.tabUntil("#rotate, on from the hand", false, 1, func(f focusInfo) bool { return f.Rotate }, nil)
	}

	// From the rotate button (or the tile that does not turn, through the
	// rest of the hand) to the board's legal cells.
	f, tabs = kp.tabUntil("a legal cell on the board", false, 40, func(f focusInfo) bool { return f.Cell }, func(f focusInfo) bool { return turns && f.Tile || f.Rotate || afterBoard(f) })
	kp.rotateToCell = append(kp.rotateToCell, tabs)
	if tabs > 10 {
		kp.fatalf("%d presses of Tab from the rotate button to the first legal cell (want at most 10): the focus order is not hand → rotate → board", tabs)
	}
	// Vary the cell a little: a few more Tabs along the legal cells.
	for range (kp.turn * 3) % cells {
		f, _ = kp.tabUntil("the next legal cell", false, 1, func(f focusInfo) bool { return f.Cell }, nil)
	}
	kp.activate("Enter", kb.Enter, f)
	kp.expectFocus("#confirm after choosing a cell", func(f focusInfo) bool { return f.Confirm })
	st = kp.state()
	if !st.Confirm {
		kp.fatalf("after Enter on %s there is no Confirm button: %q", f, st.PlayText)
	}

	// A fill choice: Shift+Tab back from Confirm to the list, take another one.
	if n, _ := eval[int](kp.tb, `document.querySelectorAll('#play fieldset ul a').length`); n > 0 {
		legend := kp.tb.text("#play fieldset legend")
		if legend != "Which jungle tile goes where?" {
			kp.fatalf("the fill list's legend is %q", legend)
		}
		before := kp.tb.text("#play fieldset strong")
		f, _ = kp.tabUntil("a fill choice", true, 20, func(f focusInfo) bool { return f.Fill }, beforeFill)
		kp.activate("Enter", kb.Enter, f)
		kp.expectFocus("#confirm after a fill choice", func(f focusInfo) bool { return f.Confirm })
		if after := kp.tb.text("#play fieldset strong"); after == before {
			kp.fatalf("Enter on the fill choice %s did not change the choice (%q)", f, after)
		}
		kp.fills++
	}

	// Worker selects, closed until asked: Shift+Tab back to "Change how
	// workers are used", open it with Enter, Tab to a select, change it with
	// an arrow key, then Tab on to Confirm.
	tabs = 0
	if n, _ := eval[int](kp.tb, `document.querySelectorAll('select[name=use]').length`); n > 0 {
		f, _ = kp.tabUntil("the worker controls", true, 20, func(f focusInfo) bool { return f.Workers }, func(f focusInfo) bool { return f.Fill || beforeFill(f) })
		kp.key("Enter", kb.Enter, false)
		if open, _ := eval[bool](kp.tb, `document.getElementById('worker-use').open`); !open {
			kp.fatalf("Enter on %s did not open the worker controls", f)
		}
		f, _ = kp.tabUntil("a worker select", false, 20, func(f focusInfo) bool { return f.Use }, func(f focusInfo) bool { return f.Confirm || beforeFill(f) })
		if f.Options > 1 {
			arrow, name := kb.ArrowDown, "ArrowDown"
			if f.SelectIndex == f.Options-1 {
				arrow, name = kb.ArrowUp, "ArrowUp"
			}
			// The change asks for the move's preview again (htmx): the game
			// area comes back with the choice kept and the focus on it.
			if _, err := eval[bool](kp.tb, markJS); err != nil {
				kp.fatalf("before %s on %s: %v", name, f, err)
			}
			kp.key(name, arrow, false)
			if kp.tb.js {
				if err := kp.tb.waitFor(changedJS, 10*time.Second, "the preview after "+name+" on "+f.String()); err != nil {
					kp.fatalf("%v", err)
				}
			}
			g := kp.focus()
			if !g.Use || g.SelectIndex == f.SelectIndex {
				kp.fatalf("%s on %s (option %d) left focus on %s, option %d", name, f, f.SelectIndex, g, g.SelectIndex)
			}
			kp.log = append(kp.log, fmt.Sprintf("%s on %s: option %d → %d", name, f, f.SelectIndex, g.SelectIndex))
			kp.selects++
		}
		f, tabs = kp.tabUntil("#confirm", false, 20, func(f focusInfo) bool { return f.Confirm }, nil)
	} else {
		f = kp.expectFocus("#confirm", func(f focusInfo) bool { return f.Confirm })
	}
	kp.toConfirm = append(kp.toConfirm, tabs)

	// Confirm: Enter, or Space every other turn.
	if kp.turn%2 == 1 {
		kp.activate("Space", " ", f)
	} else {
		kp.activate("Enter", kb.Enter, f)
	}
	kp.turn++
	st = kp.state()
	if st.PlayError != "" || st.GameError != "" {
		kp.fatalf("confirming the move shows an error: %q %q", st.PlayError, st.GameError)
	}
}

// query reads a parameter of an address's query.
func query(addr, name string) string {
	u, err := url.Parse(addr)
	if err != nil {
		return ""
	}
	return u.Query().Get(name)
}

// report logs what the player saw and fails on focus stops without a
// visible indicator.
func (kp *kbPlayer) report(t *testing.T) {
	t.Helper()
	t.Logf("%d turns, %d keys, %d focus stops checked; fill choices taken %d, worker selects changed %d, pending choices confirmed %d",
		kp.turn, kp.presses, kp.stops, kp.fills, kp.selects, kp.choices)
	t.Logf("Tab presses per turn: to a hand tile %v, from #rotate to the first legal cell %v, from the worker select to #confirm %v",
		kp.toTile, kp.rotateToCell, kp.toConfirm)
	var lines []string
	for _, kind := range slices.Sorted(maps.Keys(kp.shown)) {
		lines = append(lines, fmt.Sprintf("  %s: %s", kind, strings.Join(slices.Sorted(maps.Keys(kp.shown[kind])), " | ")))
	}
	t.Logf("focus indicator per kind of stop:\n%s", strings.Join(lines, "\n"))
	if len(kp.invisible) > 0 {
		var bad []string
		for _, kind := range slices.Sorted(maps.Keys(kp.invisible)) {
			bad = append(bad, "  "+kp.invisible[kind])
		}
		t.Errorf("focus is not visible on %d kinds of stop:\n%s", len(bad), strings.Join(bad, "\n"))
	}
}

// TestBrowserKeyboardTurn: a player plays whole turns against the greedy bot
// with the keyboard alone, with JavaScript (htmx swaps the game area and
// focuses the autofocus control in it) and without (every step is a page
// load, whose autofocus the browser applies). Focus goes hand → rotate →
// board cells → fill choice and workers → confirm, and is visible at every
// stop.
func TestBrowserKeyboardTurn(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	games := map[string]string{} // by user: a new game against the greedy bot
	for _, user := range []string{"kbjavascript", "kbnojavascript"} {
		games[user] = s.gameURL(s.botGame(s.user(user), "greedy"))
	}
	for _, js := range []bool{true, false} {
		name := "javascript"
		if !js {
			name = "no-javascript"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			user := "kb" + strings.ReplaceAll(name, "-", "")
			game := games[user]
			b := newBrowser(t, js, s.logs)
			a := b.newTab(user, js)
			a.logIn(s.base, user, "")
			// The only page load from here on: the game page. Then keys alone.
			a.must(a.navigate(game))
			if js {
				a.must(a.waitFor(`typeof window.htmx !== 'undefined'`, 10*time.Second, "htmx"))
				a.setMarker()
			} else if st, err := a.state(); err != nil || st.HTMXLoaded {
				b.fatalf("htmx is loaded (%v): JavaScript should be off in this browser", err)
			}
			kp := newKBPlayer(a)
			const turns = 3
			for kp.turn < turns {
				kp.playTurn()
			}
			kp.waitTurn()
			if js {
				st, err := a.state()
				a.must(err)
				if !st.HasMarker {
					b.fatalf("the page was loaded again during the keyboard turns (the window marker is gone): htmx should have swapped the game area")
				}
			}
			kp.report(t)
			t.Logf("%s: %d turns by keyboard in %v", name, kp.turn, time.Since(start).Round(time.Millisecond))
		})
	}
}

// TestBrowserLiveRefreshKeepsFocus: when the other player moves, the page
// fetches the game area again (SSE); a keyboard user's focus stays on the
// control they were on, and the move is put in the page's live region.
func TestBrowserLiveRefreshKeepsFocus(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	id := s.gameBetween(s.user("alice"), s.user("bob"))
	game, base := s.gameURL(id), s.base
	b := newBrowser(t, true, s.logs)
	a, bb := b.newTab("alice", true), b.newTab("bob", true)
	for _, tb := range []*tab{a, bb} {
		s.openGame(tb, tb.name, id)
	}
	// Whoever waits puts focus on the board with the keyboard (their hand
	// is not theirs to use while they wait: no focus stop).
	waiter, mover := a, bb
	if st, err := a.state(); err == nil && strings.Contains(st.PlayText, "Choose a tile from your hand.") {
		waiter, mover = bb, a
	}
	kp := newKBPlayer(waiter)
	kp.tabUntil("the board", false, 30, func(f focusInfo) bool { return f.ID == "board-wrap" }, func(f focusInfo) bool { return f.Tile })
	before, err := eval[string](waiter, `document.activeElement.id`)
	waiter.must(err)
	if before != "board-wrap" {
		b.fatalf("the focus is on %q, not the board", before)
	}
	version, err := eval[string](waiter, `document.querySelector('#game-main').innerHTML.length + ''`)
	waiter.must(err)
	unreadBefore, err := eval[string](waiter, `document.getElementById('unread').textContent`)
	waiter.must(err)
	// The mover first invites the waiter to a second game: news the
	// waiter has not seen, unlike the move of the game on the screen.
	mover.createGame(base, "@"+waiter.name)
	mover.must(mover.navigate(game))
	mover.must(mover.waitFor(`typeof window.htmx !== 'undefined'`, 10*time.Second, "htmx"))
	// The mover plays a whole turn by clicking.
	turns := mover.turns
	for deadline := time.Now().Add(30 * time.Second); mover.turns == turns; {
		if time.Now().After(deadline) {
			b.fatalf("%s could not play a turn", mover.name)
		}
		if _, err := mover.step(game); err != nil {
			b.fatalf("%s: %v", mover.name, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	waiter.must(waiter.waitFor(fmt.Sprintf(`document.querySelector('#game-main').innerHTML.length + '' !== %q && document.querySelector('#announce').textContent.includes(%q)`, version, mover.name),
		15*time.Second, "the live refresh with the move announced"))
	after, err := eval[string](waiter, `document.activeElement.id`)
	waiter.must(err)
	if after != before {
		b.fatalf("after the live refresh focus is on %q, want %q", after, before)
	}
	// The header's unread count follows: one more, the invitation. The
	// move's "your turn" is not news to a player at the table (the page
	// that shows it reads it). The page, loaded again, shows the same.
	live, err := eval[string](waiter, `document.getElementById('unread').textContent`)
	waiter.must(err)
	waiter.must(waiter.navigate(game))
	loaded, err := eval[string](waiter, `document.getElementById('unread').textContent`)
	waiter.must(err)
	if n, _ := strconv.Atoi(unreadBefore); live != loaded || live != strconv.Itoa(n+1) {
		b.fatalf("the header's unread count is %q after the live refresh, %q before it, %q once the page is loaded again; want one more, the invitation", live, unreadBefore, loaded)
	}
}

// TestBrowserSkipToHand: on the player's turn, the second Tab from the top
// of the game page is a skip link to the hand; Enter on it and one more
// Tab reach the first tile (not the ten or so stops of the header and the
// panels above).
func TestBrowserSkipToHand(t *testing.T) {
	t.Parallel()
	_, a, game := aliceAgainstABot(t)
	a.must(a.navigate(game))
	a.must(a.waitFor(`document.readyState === 'complete'`, 10*time.Second, "the game page"))
	kp := newKBPlayer(a)
	kp.tabUntil("the skip link to the hand", false, 2, func(f focusInfo) bool { return f.Text == "Skip to your hand" }, nil)
	kp.key("Enter", kb.Enter, false)
	kp.tabUntil("a tile in the hand, right after the skip link", false, 1, func(f focusInfo) bool { return f.Tile }, nil)
}
