package main

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"cacao/models"
	"cacao/models/autoplay"
)

// TestBrowserFinalTableRanked: a finished 3-player game shows its table by
// place (1st, 2nd, 3rd; the totals never rise down the table) that fits a
// phone, no temple "nobody yet", and its log ends with the result.
func TestBrowserFinalTableRanked(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	alice := s.user("alice")
	g, err := s.store.CreateGame(alice, models.GameSpec{Seats: []string{"greedy", "random"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := autoplay.Bots(s.store, g.ID, nil); err != nil {
		t.Fatal(err)
	}
	s.playUntil(g.ID, finished)
	b := newBrowser(t, true, s.logs)
	a := b.newTab("alice", true)
	s.openGame(a, "alice", g.ID)
	a.checkFinal(3)
	type row struct {
		Place string
		Total int
	}
	rows, err := eval[[]row](a, `[...document.querySelectorAll('#final tbody tr')].map((r) => ({place: r.cells[0].textContent.trim(), total: Number(r.cells[6].textContent.trim())}))`)
	a.must(err)
	for i, r := range rows {
		if !strings.HasPrefix(r.Place, []string{"1st", "2nd", "3rd"}[i]) && !strings.Contains(r.Place, "shared") {
			b.fatalf("row %d of the final table is in place %q: %+v", i+1, r.Place, rows)
		}
		if i > 0 && r.Total > rows[i-1].Total {
			b.fatalf("the final table is not by total: %+v", rows)
		}
	}
	// On a phone, in English, Persian and Chinese, the table fits its card
	// and its headings take two lines at most (in Chinese they once broke
	// a character a line, in Persian took three).
	a.must(a.do(5*time.Second, chromedp.EmulateViewport(390, 844)))
	for _, l := range []string{"fa", "zh-Hans", "en"} {
		a.setLang(l)
		type fit struct {
			Over  float64
			Lines []float64 // each heading's height in lines
		}
		f, err := eval[fit](a, `(() => {
			document.querySelector('#final details').open = true;
			const r = document.querySelector('#final .table-scroll');
			const lines = [...document.querySelectorAll('#final thead th')].map((th) => {
				const cs = getComputedStyle(th), line = parseFloat(cs.lineHeight) || 1.45 * parseFloat(cs.fontSize);
				return (th.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom)) / line;
			});
			return {over: r.scrollWidth - r.clientWidth, lines};
		})()`)
		a.must(err)
		if f.Over > 0 {
			b.fatalf("%s: on a phone the final table is %.0f px wider than its card", l, f.Over)
		}
		for _, n := range f.Lines {
			if n > 2.2 {
				b.fatalf("%s: on a phone a heading of the final table takes %.1f lines (all: %v)", l, n, f.Lines)
			}
		}
	}
	if page := a.text("#game-main"); strings.Contains(page, "nobody yet") {
		b.fatalf("a finished game says a temple has nobody yet: %s", page)
	}
	result := a.text("#game-log .result")
	if !strings.HasPrefix(result, "Game over: 1st ") || !strings.Contains(result, strconv.Itoa(rows[0].Total)+" points") {
		b.fatalf("the log ends with %q, want the result (1st with %d points)", result, rows[0].Total)
	}
	a.must(a.navigate(s.gameURL(g.ID) + "/log"))
	if whole := a.text("#main .result"); whole != result {
		b.fatalf("the whole log ends with %q, want %q", whole, result)
	}
}

// TestBrowserLogOpensOnTheLatest: the game page's log, which scrolls in
// its box, opens on its latest entry, whole: the latest first (it opened
// on the first, the news hidden below; then on its end, its top line
// cut).
func TestBrowserLogOpensOnTheLatest(t *testing.T) {
	t.Parallel()
	_, b, a, game := aliceAgainstGreedyAt(t, true, afterTurns, 9, 1280, 800)
	type box struct {
		Scrolls, LatestInView bool
		Turns                 []int // the turn numbers, from the top
	}
	got, err := eval[box](a, `(() => {
		const w = document.querySelector('#game-log .log-scroll'), v = w.getBoundingClientRect(), top = document.querySelector('#log li').getBoundingClientRect();
		return {scrolls: w.scrollHeight > w.clientHeight, latestInView: top.top >= v.top - 1 && top.bottom <= v.bottom + 1,
			turns: [...document.querySelectorAll('#log .turn-no')].map((n) => Number(n.textContent.replace(/\D/g, '')))};
	})()`)
	a.must(err)
	if !got.Scrolls {
		b.fatalf("the log of game %d does not scroll in its box: the test needs one that does", game)
	}
	if !got.LatestInView || !slices.IsSortedFunc(got.Turns, func(x, y int) int { return y - x }) {
		b.fatalf("the log opens with its top entry whole %v, its turns from the top %v; want the latest first, whole", got.LatestInView, got.Turns)
	}
}

// TestBrowserSharedPlaceFitsAPhone: on a phone, the final table fits its
// card even with its widest cells: every place shared ("1st (shared)",
// which a tie shows) and three-digit totals. (TestBrowserResign met a tie
// by chance: 15 px too wide.)
func TestBrowserSharedPlaceFitsAPhone(t *testing.T) {
	t.Parallel()
	_, b, a, _ := aliceAgainstGreedyAt(t, true, afterTurns, 2, 390, 844)
	a.must(a.click(`.game-side .resign a`, "Resign…"))
	a.must(a.waitFor(`!!document.querySelector('form button#resign')`, 10*time.Second, "the confirmation"))
	a.must(a.click(`form button#resign`, "Resign"))
	a.must(a.waitFor(`!!document.getElementById('final')`, 10*time.Second, "the game, played to the end by the bots"))
	over, err := eval[float64](a, `(() => {
		document.querySelector('#final details').open = true;
		for (const td of document.querySelectorAll('#final td.place')) td.firstChild.textContent = '1st (shared) ';
		document.querySelectorAll('#final tbody tr td:nth-child(7) strong').forEach((s) => s.textContent = '169');
		const r = document.querySelector('#final .table-scroll');
		return r.scrollWidth - r.clientWidth;
	})()`)
	a.must(err)
	if over > 0 {
		b.fatalf("on a phone the final table of a tie is %.0f px wider than its card", over)
	}
}
