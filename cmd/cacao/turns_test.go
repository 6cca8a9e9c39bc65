package main

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserOneTurnNumbering: the turn a waiting choice names ("On turn N
// your workers were activated") is the log's turn N, a placement, on the
// game page and in the whole log.
func TestBrowserOneTurnNumbering(t *testing.T) {
	t.Parallel()
	s, b, a, id := aliceWithAChoiceWaiting(t)
	m := regexp.MustCompile(`On turn (\d+) your workers`).FindStringSubmatch(a.text("#pending"))
	if m == nil {
		b.fatalf("the waiting choice names no turn: %q", a.text("#pending"))
	}
	for _, page := range []string{"the game page", "the whole log"} {
		if page == "the whole log" {
			a.must(a.navigate(s.gameURL(id) + "/log"))
			a.must(a.waitFor(`document.readyState === 'complete'`, 10*time.Second, "the whole log"))
		}
		lines, err := eval[[]string](a, `[...document.querySelectorAll('#log li')].map((l) => l.textContent.replace(/\s+/g, ' ').trim())`)
		a.must(err)
		var line string
		for _, l := range lines {
			if strings.HasPrefix(l, "Turn "+m[1]+" ") {
				line = l
			}
		}
		if !strings.Contains(line, " placed ") && !strings.Contains(line, " overbuilt ") {
			b.fatalf("on %s the choice names turn %s, and the log's turn %s is %q: %q", page, m[1], m[1], line, lines)
		}
	}
}

// TestBrowserTitleSaysYourTurn: the tab's title says when it is the
// player's turn: not while bob plays, once his move reaches alice's page
// live, and no longer once she has moved.
func TestBrowserTitleSaysYourTurn(t *testing.T) {
	t.Parallel()
	s, b, a, bb, game := bobToPlay(t, true, 1280, 800)
	title := func(tb *tab) string {
		s, err := eval[string](tb, `document.title`)
		tb.must(err)
		return s
	}
	if got := title(a); strings.Contains(got, "Your turn") {
		b.fatalf("while bob plays alice's tab is titled %q", got)
	}
	if got := title(bb); !strings.HasPrefix(got, "Your turn") {
		b.fatalf("on his turn bob's tab is titled %q", got)
	}
	bb.playAMove(s.gameURL(game))
	a.must(a.waitFor(`document.title.startsWith('Your turn')`, 10*time.Second, "alice's title to say it is her turn"))
	if got := title(bb); strings.Contains(got, "Your turn") {
		b.fatalf("after his move bob's tab is titled %q", got)
	}
}

// TestBrowserPlayersTable: on each village a seat's state ("(to play)")
// sits whole on one line, at both sizes; the villages in numbers (the
// table under its disclosure) tell the tiles in hand and in the pile in
// words (not "3/8", which reads as a fraction); and the table fits its
// card without scrolling sideways.
func TestBrowserPlayersTable(t *testing.T) {
	t.Parallel()
	b, a, game := aliceAgainstABot(t)
	for _, sc := range screens {
		a.must(a.do(5*time.Second, chromedp.EmulateViewport(int64(sc.w), int64(sc.h))))
		a.must(a.navigate(game))
		a.must(a.waitFor(`document.readyState === 'complete'`, 10*time.Second, "the game page"))
		_, err := eval[bool](a, `document.getElementById('village-numbers').open = true`)
		a.must(err)
		heads, err := eval[[]string](a, `[...document.querySelectorAll('#village-numbers thead th')].map((h) => h.textContent.trim())`)
		a.must(err)
		if !slices.Contains(heads, "Tiles") {
			b.fatalf("%s: the players' table has the columns %q, want Tiles", sc.name, heads)
		}
		tiles, err := eval[[]string](a, `[...document.querySelectorAll('#village-numbers td.tiles')].map((td) => td.textContent.replace(/\s+/g, ' ').trim())`)
		a.must(err)
		for _, td := range tiles {
			if !regexp.MustCompile(`^\d+ in hand, \d+ in the pile$`).MatchString(td) {
				b.fatalf("%s: a seat's tiles read %q", sc.name, td)
			}
		}
		over, err := eval[float64](a, `(() => { const r = document.querySelector('#village-numbers .table-scroll'); return r.scrollWidth - r.clientWidth; })()`)
		a.must(err)
		if over > 0 {
			b.fatalf("%s: the players' table is %.0f px wider than its card", sc.name, over)
		}
		type state struct {
			Text         string
			Rects        int     // line boxes
			Height, Line float64 // its height, and a line's
		}
		states, err := eval[[]state](a, `[...document.querySelectorAll('.village-head *')].filter((e) => e.textContent.trim() === '(to play)').map((e) => {
			const r = e.getClientRects();
			return {text: e.textContent.trim(), rects: r.length, height: r.length ? r[0].height : 0, line: parseFloat(getComputedStyle(e).lineHeight) || 20};
		})`)
		a.must(err)
		if len(states) != 1 || states[0].Rects != 1 || states[0].Height > 1.5*states[0].Line {
			b.fatalf("%s: the seat to play is marked %+v; want \"(to play)\" whole, on one line", sc.name, states)
		}
	}
	// The table fits its card in every language (Persian's words and
	// digits are wider), at both sizes.
	a.villagesFit("zh-Hant", "fa")
}

// villagesFit checks that the villages in numbers fit their card in each
// language, at both sizes.
func (tb *tab) villagesFit(langs ...string) {
	tb.b.t.Helper()
	for _, l := range langs {
		tb.setLang(l)
		for _, sc := range screens {
			tb.must(tb.do(5*time.Second, chromedp.EmulateViewport(int64(sc.w), int64(sc.h))))
			over, err := eval[float64](tb, `(() => { document.getElementById('village-numbers').open = true; const r = document.querySelector('#village-numbers .table-scroll'); return r.scrollWidth - r.clientWidth; })()`)
			tb.must(err)
			if over > 0 {
				tb.b.fatalf("%s, %s: the players' table is %.0f px wider than its card", l, sc.name, over)
			}
			wide, err := eval[[]string](tb, `[...document.querySelectorAll('.village')].filter((v) => v.scrollWidth > v.clientWidth + 1).map((v) => v.textContent.replace(/\s+/g, ' ').trim())`)
			tb.must(err)
			if len(wide) > 0 {
				tb.b.fatalf("%s, %s: villages wider than their boards: %q", l, sc.name, wide)
			}
		}
	}
}

// TestBrowserBackAfterAMove: Back after a move never shows an error. With
// JavaScript the steps of the move added no history, so Back leaves the
// game; without, Back comes to the address of the move just played, which
// is out of date: the game is shown as it is, without "not a legal place".
func TestBrowserBackAfterAMove(t *testing.T) {
	t.Parallel()
	for _, js := range []bool{true, false} {
		s := seededSite(t)
		alice := s.user("alice")
		game := s.botGame(alice, "greedy")
		s.playUntil(game, toPlay(alice))
		b := newBrowser(t, js, s.logs)
		a := b.newTab("alice", js)
		a.must(a.navigate(s.base + "/rules"))
		s.openGame(a, "alice", game)
		a.chooseTileWithPlaces(1)
		cell := a.mustState().Cells[0]
		a.must(a.click(fmt.Sprintf(`#board a.cell[data-cell=%q]`, cell), "cell "+cell))
		a.must(a.click(`#confirm`, "Confirm move"))
		after := a.location()
		// Back may navigate before the evaluation answers, which closes it
		// ("Inspected target navigated"): that is Back done.
		_, err := eval[bool](a, `(() => { history.back(); return true; })()`)
		if err != nil && !strings.Contains(err.Error(), "Inspected target navigated") {
			a.must(err)
		}
		a.must(a.waitFor(fmt.Sprintf(`location.href !== %q && document.readyState === 'complete'`, after), 10*time.Second, "the page Back leads to"))
		st := a.mustState()
		if st.GameError != "" || st.PlayError != "" {
			b.fatalf("js=%v: Back after a move shows an error on %s: %q %q", js, a.location(), st.GameError, st.PlayError)
		}
		if js && !strings.Contains(a.location(), "/games/") {
			continue // left the game: nothing more to see
		}
		if js {
			b.fatalf("with JavaScript Back after a move stayed in the game: %s", a.location())
		}
	}
}

// TestBrowserWaitingPageWithoutJavaScript: without JavaScript a page that
// waits on another player says that it does not follow the game and that
// the news chosen in the settings tells the player's turn (with a link to
// them), and offers a link that reloads the game, a line of its own in
// view (it has no live updates); neither it nor the page of the player to
// move reloads itself.
func TestBrowserWaitingPageWithoutJavaScript(t *testing.T) {
	t.Parallel()
	_, b, a, bb, game := bobToPlay(t, false, 1280, 800)
	reload := `#play a[href$="/games/` + strconv.Itoa(int(game)) + `"]`
	if link := a.text(reload); link != "Reload the game" {
		b.fatalf("alice's waiting page offers no Reload link: %q", a.text("#play"))
	}
	if alone, _ := eval[bool](a, `(() => { const l = document.querySelector('`+reload+`'), r = l.getBoundingClientRect();
		return l.parentElement.tagName === 'P' && l.parentElement.textContent.trim() === l.textContent.trim() && r.top >= 0 && r.bottom <= innerHeight })()`); !alone {
		b.fatalf("the Reload link is not a line of its own in view: %q", a.text("#play"))
	}
	if text := a.text("#no-live"); !strings.Contains(text, "tells you when it is your turn") || a.text(`#no-live a[href="/settings"]`) != "Settings" {
		b.fatalf("the waiting page does not say how alice hears of her turn: %q", text)
	}
	for _, tb := range []*tab{a, bb} {
		if n, _ := eval[int](tb, `document.querySelectorAll('meta[http-equiv=refresh]').length`); n != 0 {
			b.fatalf("%s's page reloads itself", tb.name)
		}
	}
}

// TestBrowserRulesTablesOnAPhone: on a phone the rules' tables keep their
// words whole (no "Nor / th"; a line may end at a hyphen), and the page
// does not scroll sideways.
func TestBrowserRulesTablesOnAPhone(t *testing.T) {
	t.Parallel()
	base, logs := startSite(t)
	b := newBrowser(t, true, logs)
	a := b.newTab("reader", true)
	a.must(a.do(5*time.Second, chromedp.EmulateViewport(390, 844)))
	a.must(a.navigate(base + "/rules"))
	a.must(a.waitFor(`document.readyState === 'complete'`, 10*time.Second, "the rules"))
	broken, err := eval[[]string](a, `(() => {
		const out = [];
		for (const cell of document.querySelectorAll('.rules th, .rules td')) {
			const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
			for (let n = walker.nextNode(); n; n = walker.nextNode()) {
				for (const m of n.textContent.matchAll(/[^\s\-]+/g)) {
					const r = document.createRange();
					r.setStart(n, m.index);
					r.setEnd(n, m.index + m[0].length);
					const lines = new Set([...r.getClientRects()].map((q) => Math.round(q.top)));
					if (lines.size > 1) out.push(m[0]);
				}
			}
		}
		return out;
	})()`)
	a.must(err)
	if len(broken) > 0 {
		b.fatalf("on a phone the rules' tables break words over lines: %q", broken)
	}
	if w, _ := eval[int](a, `document.documentElement.scrollWidth`); w > 390 {
		b.fatalf("the rules page is %d px wide on a 390 px phone", w)
	}
}

// TestBrowserWorkerChoiceUpdatesThePreview: changing how a worker is used
// asks for the move's preview again (htmx, on change): the game area comes
// back with the choice kept, the worker choices open, and the address the
// step's.
func TestBrowserWorkerChoiceUpdatesThePreview(t *testing.T) {
	t.Parallel()
	b, a, _ := aliceAgainstABot(t)
	for tries := 0; ; tries++ {
		if tries == 8 {
			b.fatalf("no move of alice's in 8 tried activated a worker of hers: the test needs one")
		}
		a.chooseTileWithPlaces(1)
		cells := a.mustState().Cells
		cell := cells[tries%len(cells)]
		a.must(a.click(fmt.Sprintf(`#board a.cell[data-cell=%q]`, cell), "cell "+cell))
		if n, _ := eval[int](a, `document.querySelectorAll('select[name=use]').length`); n > 0 {
			break
		}
		a.must(a.click(`#play a.button.secondary`, "Start over"))
	}
	before := a.location()
	a.must(a.markMain())
	_, err := eval[bool](a, `(() => { document.getElementById('worker-use').open = true; const s = document.querySelector('select[name=use]'); s.value = '0'; s.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`)
	a.must(err)
	a.must(a.waitFor(changedJS, 10*time.Second, "the game area after changing a worker use"))
	got, err := eval[string](a, `document.querySelector('select[name=use]').value + ' ' + document.getElementById('worker-use').open + ' ' + !!document.getElementById('preview') + ' ' + !!document.getElementById('confirm')`)
	a.must(err)
	if got != "0 true true true" {
		b.fatalf("after a worker use set to 0 the page shows (use, open, preview, confirm) %q", got)
	}
	if a.location() != before {
		b.fatalf("the preview took the address %s (was %s)", a.location(), before)
	}
}

// TestBrowserWaitingChoiceShowsWhatEachGives: a choice waiting for alice
// (her workers activated on another's turn) tells for each number of
// workers what she would get; the players' table, marking her choosing,
// fits its card.
func TestBrowserWaitingChoiceShowsWhatEachGives(t *testing.T) {
	t.Parallel()
	_, b, a, _ := aliceWithAChoiceWaiting(t)
	options, err := eval[[][]string](a, `[...document.querySelectorAll('#pending select[name=use]')].map((s) => [...s.options].map((o) => o.textContent.trim()))`)
	a.must(err)
	if len(options) == 0 {
		b.fatalf("the waiting choice has no worker choice: %q", a.text("#pending"))
	}
	differ := false
	for _, opts := range options {
		gives := map[string]bool{}
		for _, o := range opts {
			m := regexp.MustCompile(`^use \d+ workers?: (.+)$`).FindStringSubmatch(o)
			if m == nil {
				b.fatalf("a worker choice does not say what it gives: %q", o)
			}
			gives[m[1]] = true
		}
		differ = differ || len(gives) > 1
	}
	if !differ {
		b.fatalf("every number of workers gives the same: %q", options)
	}
	// Marked "(choosing)" (longer in Persian), the players' table still
	// fits its card.
	a.villagesFit("en", "fa")
}

// aliceWithAChoiceWaiting opens, in a tab with JavaScript, a game of
// alice's against the greedy bot where a choice of her workers waits for
// her.
func aliceWithAChoiceWaiting(t *testing.T) (*site, *browser, *tab, uint) {
	t.Helper()
	s := seededSite(t)
	alice := s.user("alice")
	id, ok := s.gameAt(func() uint { return s.botGame(alice, "greedy") }, choicePending(alice), 20)
	if !ok {
		t.Fatal("no game came to a choice waiting for alice: the test needs one")
	}
	b := newBrowser(t, true, s.logs)
	a := b.newTab("alice", true)
	s.openGame(a, "alice", id)
	return s, b, a, id
}
