package main

import (
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
	// On a phone, in English and Persian, the table fits its card.
	a.must(a.do(5*time.Second, chromedp.EmulateViewport(390, 844)))
	for _, l := range []string{"fa", "en"} {
		a.setLang(l)
		over, err := eval[float64](a, `(() => { const r = document.querySelector('#final .table-scroll'); return r.scrollWidth - r.clientWidth; })()`)
		a.must(err)
		if over > 0 {
			b.fatalf("%s: on a phone the final table is %.0f px wider than its card", l, over)
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
// its box, opens on its latest entry (it opened on the first, the news
// hidden below).
func TestBrowserLogOpensOnTheLatest(t *testing.T) {
	t.Parallel()
	_, b, a, game := aliceAgainstGreedyAt(t, true, afterTurns, 9, 1280, 800)
	type box struct{ Scrolls, LastInView, FirstInView bool }
	got, err := eval[box](a, `(() => {
		const w = document.querySelector('#game-log .log-scroll') || document.getElementById('log'), v = w.getBoundingClientRect();
		const items = document.querySelectorAll('#log li'), last = items[items.length - 1].getBoundingClientRect(), first = items[0].getBoundingClientRect();
		return {scrolls: w.scrollHeight > w.clientHeight, lastInView: last.top >= v.top - 1 && last.bottom <= v.bottom + 1, firstInView: first.top >= v.top - 1 && first.bottom <= v.bottom + 1};
	})()`)
	a.must(err)
	if !got.Scrolls {
		b.fatalf("the log of game %d does not scroll in its box: the test needs one that does", game)
	}
	if !got.LastInView || got.FirstInView {
		b.fatalf("the log opens with its latest entry in view %v and its first %v; want the latest", got.LastInView, got.FirstInView)
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
