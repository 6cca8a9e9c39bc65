package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// tap clicks the first element matching css after checking that a tap
// there reaches it: on the screen (scrolled to where the page does not
// show it) and not covered (by the bar of the move, a phone's tray).
func (tb *tab) tap(css, what string) {
	tb.b.t.Helper()
	if !tb.reachable(css) {
		tb.b.fatalf("%s: %s (%s) is not on the screen or a tap there does not reach it (page %s)", tb.name, what, css, tb.location())
	}
	tb.must(tb.click(css, what))
}

// learnByClicks takes a new visitor from the site's header through every
// step of the tutorial by the lessons' marks: the marked tile, Rotate
// until a cell is marked, that cell, Confirm; it returns how many lessons
// it took.
func learnByClicks(tb *tab, base string) int {
	tb.b.t.Helper()
	tb.must(tb.navigate(base + "/"))
	tb.tap(`header.top a[href="/learn"]`, "Learn to play")
	tb.tap(`#learn-start`, "Start the first lesson")
	lessons := 0
	for step := 2; ; step++ {
		if ok, _ := eval[bool](tb, `!!document.querySelector('#learn-play')`); ok {
			break
		}
		if step > 12 {
			tb.b.fatalf("%s: the tutorial has not ended after %d steps (page %s)", tb.name, step, tb.location())
		}
		if want := fmt.Sprintf("/learn/%d", step-1); !strings.HasSuffix(strings.SplitN(tb.location(), "?", 2)[0], want) {
			tb.b.fatalf("%s: at %s, want step %s", tb.name, tb.location(), want)
		}
		if wide, err := eval[[]string](tb, overflowJS); err != nil || len(wide) > 0 {
			tb.b.fatalf("%s: step %d scrolls sideways: %v %v", tb.name, step, wide, err)
		}
		takeLesson(tb, step)
		lessons++
		if tb.text("#coach-wrong") != "" {
			tb.b.fatalf("%s: step %d: the lesson's move confirmed was called wrong: %s", tb.name, step, tb.text("#coach-wrong"))
		}
	}
	if !strings.HasSuffix(tb.location(), fmt.Sprintf("/learn/%d", lessons+1)) {
		tb.b.fatalf("%s: the end is at %s", tb.name, tb.location())
	}
	if ok, _ := eval[bool](tb, `!!document.querySelector('#final') && document.querySelector('#learn-play').getAttribute('href') === '/play?bot=easy' && !!document.querySelector('#learn-signup')`); !ok {
		tb.b.fatalf("%s: the last step shows no score, or offers no game against the easy bot and no sign-up", tb.name)
	}
	if !tb.reachable(`#learn-play`) {
		tb.b.fatalf("%s: the offer of a real game cannot be tapped", tb.name)
	}
	return lessons
}

// takeLesson makes the move of the lesson at step by its marks: the marked
// tile, Rotate until a cell is marked, that cell, Confirm.
func takeLesson(tb *tab, step int) {
	tb.b.t.Helper()
	tb.tap(`#hand a.tile.coach`, "the lesson's tile")
	for r := 0; ; r++ {
		if ok, _ := eval[bool](tb, `!!document.querySelector('#place-cells a.cell.coach')`); ok {
			break
		}
		if r == 4 {
			tb.b.fatalf("%s: step %d: no rotation of the lesson's tile marks a cell", tb.name, step)
		}
		tb.tap(rotateSel, "Rotate")
	}
	if !strings.Contains(tb.text("#coach-do"), "lay it") {
		tb.b.fatalf("%s: step %d, the tile turned: the bar says %q", tb.name, step, tb.text("#coach-do"))
	}
	tb.tap(`#place-cells a.cell.coach`, "the lesson's cell")
	if got := tb.text("#coach-do"); !strings.Contains(got, "Confirm") || tb.text("#coach-wrong") != "" {
		tb.b.fatalf("%s: step %d, the lesson's move chosen: the bar says %q, %q", tb.name, step, got, tb.text("#coach-wrong"))
	}
	tb.tap(`#confirm`, "Confirm move")
}

// TestBrowserLearn: a new visitor completes /learn by clicks from the
// header to the end, with JavaScript (htmx swaps, no page load, the
// address following each step) at a laptop's size.
func TestBrowserLearn(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	b := newBrowser(t, true, s.logs)
	a := b.newTab("visitor", true)
	a.must(a.navigate(s.base + "/learn"))
	a.setMarker()
	n := learnByClicks(a, s.base)
	if n < 7 {
		b.fatalf("%d lessons taken, want the 7 topics", n)
	}
	// learnByClicks opened the welcome page first: one page load, then
	// htmx all the way.
	if st := a.mustState(); !st.HTMXLoaded {
		b.fatalf("htmx is not loaded")
	}
	if blocked := a.cspBlocked(); len(blocked) > 0 {
		b.fatalf("the content security policy blocked %v", blocked)
	}
	if ok, _ := eval[bool](a, `window.__cacaoMarker === 42`); ok {
		b.fatalf("the window survived the welcome page's load: the marker should be gone")
	}
	a.setMarker()
	a.tap(`#learn-again`, "Start the tutorial again")
	if ok, _ := eval[bool](a, `window.__cacaoMarker === 42 && location.pathname === '/learn'`); !ok {
		b.fatalf("Start again was not an htmx swap to /learn (at %s)", a.location())
	}
}

// visitorOnAPhone is a new site and a visitor's tab on a 390×844 phone,
// with JavaScript or without.
func visitorOnAPhone(t *testing.T, js bool) (*site, *browser, *tab) {
	t.Helper()
	s := seededSite(t)
	b := newBrowser(t, js, s.logs)
	a := b.newTab("visitor", js)
	a.must(a.do(10*time.Second, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile)))
	return s, b, a
}

// TestBrowserLearnNoJavaScript: the same without JavaScript, on a phone:
// every step a page of its own.
func TestBrowserLearnNoJavaScript(t *testing.T) {
	t.Parallel()
	s, b, a := visitorOnAPhone(t, false)
	n := learnByClicks(a, s.base)
	if st := a.mustState(); st.HTMXLoaded {
		b.fatalf("htmx is loaded: JavaScript should be off in this browser")
	}
	if n < 7 {
		b.fatalf("%d lessons taken, want the 7 topics", n)
	}
}

// shootLearn shoots the tutorial's steps (as 08-learn-*): the
// introduction, each lesson as it opens, the first lesson's tile turned
// (its cell marked), its move chosen and a wrong try, and the score.
func (tb *tab) shootLearn(dir, base string) {
	tb.b.t.Helper()
	tb.must(tb.navigate(base + "/learn"))
	tb.shoot(dir, "08-learn-0-intro")
	tb.must(tb.navigate(base + "/learn/1"))
	tb.shoot(dir, "08-learn-1-lesson")
	tb.must(tb.click(`#hand a.tile.coach`, "the lesson's tile"))
	if ok, _ := eval[bool](tb, `!!document.querySelector('#coach-do .hand-pic')`); ok {
		tb.shoot(dir, "08-learn-1a-tile") // "turn it until it looks like this"
	}
	for r := 0; r < 4; r++ {
		if ok, _ := eval[bool](tb, `!!document.querySelector('#place-cells a.cell.coach')`); ok {
			break
		}
		tb.must(tb.click(rotateSel, "Rotate"))
	}
	tb.shoot(dir, "08-learn-1b-turned")
	tb.must(tb.click(`#place-cells a.cell.coach`, "the lesson's cell"))
	tb.shoot(dir, "08-learn-1c-chosen")
	tb.must(tb.click(`#place-cells a.cell:not(.coach)`, "another cell"))
	tb.shoot(dir, "08-learn-1d-wrong")
	for n := 2; ; n++ {
		tb.must(tb.navigate(fmt.Sprintf("%s/learn/%d", base, n)))
		if ok, _ := eval[bool](tb, `!!document.querySelector('#learn-play')`); ok {
			tb.shoot(dir, fmt.Sprintf("08-learn-%d-end", n))
			return
		}
		tb.shoot(dir, fmt.Sprintf("08-learn-%d-lesson", n))
	}
}

// TestBrowserLearnByKeyboard: a lesson is taken with Tab and Enter alone
// from the page's top (the marked tile, Rotate, the marked cell,
// Confirm), the next step (swapped in) focuses its lesson's heading, and
// Skip this step is reached by Tab.
func TestBrowserLearnByKeyboard(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	b := newBrowser(t, true, s.logs)
	a := b.newTab("visitor", true)
	a.must(a.navigate(s.base + "/learn/1"))
	kp := newKBPlayer(a)
	coach := func(f focusInfo) bool { return strings.Contains(" "+f.Class+" ", " coach ") }
	f, _ := kp.tabUntil("the lesson's tile", false, 12, func(f focusInfo) bool { return f.Tile && coach(f) }, nil)
	kp.activate("Enter", kb.Enter, f)
	for r := 0; ; r++ {
		if ok, _ := eval[bool](a, `!!document.querySelector('#place-cells a.cell.coach')`); ok {
			break
		}
		if r == 4 {
			kp.fatalf("no rotation marks a cell")
		}
		f = kp.expectFocus("Rotate", func(f focusInfo) bool { return f.Rotate })
		kp.activate("Enter", kb.Enter, f)
	}
	f, _ = kp.tabUntil("the lesson's cell", false, 40, func(f focusInfo) bool { return f.Cell && coach(f) }, nil)
	if !strings.Contains(f.Label, "this lesson's cell") {
		kp.fatalf("the lesson's cell does not say so to a screen reader: %q", f.Label)
	}
	kp.activate("Enter", kb.Enter, f)
	f = kp.expectFocus("Confirm move", func(f focusInfo) bool { return f.Confirm })
	kp.activate("Enter", kb.Enter, f)
	kp.expectFocus("the next lesson's heading", func(f focusInfo) bool { return f.ID == "lesson-h" })
	if !strings.HasSuffix(a.location(), "/learn/2") {
		kp.fatalf("Confirm led to %s", a.location())
	}
	f, _ = kp.tabUntil("Skip this step", false, 12, func(f focusInfo) bool { return f.ID == "learn-skip" }, nil)
	kp.activate("Enter", kb.Enter, f)
	if !strings.HasSuffix(a.location(), "/learn/3") {
		kp.fatalf("Skip led to %s", a.location())
	}
	if len(kp.invisible) > 0 {
		kp.fatalf("focus without a visible indicator: %v", kp.invisible)
	}
}

// TestBrowserLearnPhoneShowsTheBoard: on a 390×844 phone, a lesson's first
// screen, before any scroll, shows its title, Skip and every tile on the
// board, above the hand's tray: the jungle the lesson is about, not only
// its text; a lesson taken, the next opens at its title (htmx swaps it in).
func TestBrowserLearnPhoneShowsTheBoard(t *testing.T) {
	t.Parallel()
	s, b, a := visitorOnAPhone(t, true)
	a.must(a.navigate(s.base + "/learn/1"))
	if out := a.notInView([][2]string{{"#lesson-h", "the lesson's title"}, {"#learn-skip", "Skip this step"}}); len(out) > 0 {
		b.fatalf("on the first screen: %s", strings.Join(out, "; "))
	}
	got, err := eval[[]float64](a, `(() => { const h = document.getElementById('hand').getBoundingClientRect(), tiles = [...document.querySelectorAll('#tiles > use[x], #tiles > g > use[x]')].map((u) => u.getBoundingClientRect());
		return [tiles.length, Math.max(...tiles.map((r) => r.bottom)) - Math.min(h.top, innerHeight), -Math.min(...tiles.map((r) => r.top))]; })()`)
	a.must(err)
	if got[0] < 2 || got[1] > 0 || got[2] > 0 {
		b.fatalf("of the %.0f tiles on a lesson's first screen, the lowest goes %.0f px under the tray or the screen's foot, the highest %.0f px over its top", got[0], got[1], got[2])
	}
	// The lesson taken from further down the page, the next one opens at
	// its title, Skip on the screen too.
	_, err = eval[bool](a, `(() => { window.scrollTo(0, 300); return true; })()`)
	a.must(err)
	takeLesson(a, 2)
	a.must(a.waitFor(`location.pathname.endsWith('/learn/2') && !document.querySelector('.htmx-request')`, 10*time.Second, "the next lesson"))
	if out := a.notInView([][2]string{{"#lesson-h", "the next lesson's title"}, {"#learn-skip", "Skip this step"}}); len(out) > 0 {
		b.fatalf("the next lesson opens with: %s", strings.Join(out, "; "))
	}
}
