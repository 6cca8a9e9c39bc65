package main

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserLeaderboard: on a phone, the leaderboard lists the rated
// players in order, the reader's row marked and their place said, the
// provisional ones apart; the header's link and the tab of games of three
// or four take the tap.
func TestBrowserLeaderboard(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	now := s.store.Clock()
	for _, r := range []struct {
		name   string
		rating float64
		games  int
	}{{"alice", 1640, 14}, {"bruno", 1720, 40}, {"chen", 1590, 11}, {"dora", 1800, 2}} {
		s.user(r.name)
		sqlite(t, s.db, "UPDATE users SET rating = ?, rated_games = ?, rated_at = ? WHERE username = ?", r.rating, r.games, now, r.name)
	}
	b := newBrowser(t, true, s.logs)
	a := b.newTab("alice", true)
	a.must(a.do(5*time.Second, chromedp.EmulateViewport(390, 844)))
	a.logIn(s.base, "alice", "")
	if !a.reachable(`header.top a[href="/ratings"]`) {
		b.fatalf("the header's Leaderboard link does not take the tap")
	}
	a.must(a.click(`header.top a[href="/ratings"]`, "Leaderboard"))
	a.must(a.waitFor(`!!document.querySelector('table.leaders')`, 10*time.Second, "the leaderboard"))
	names, err := eval[[]string](a, `Array.from(document.querySelectorAll('table.leaders')[0].querySelectorAll('tbody td:nth-child(2)')).map(td => td.textContent.trim())`)
	a.must(err)
	if strings.Join(names, " ") != "bruno alice chen" {
		b.fatalf("the leaderboard lists %v; want bruno, alice, chen", names)
	}
	prov, err := eval[[]string](a, `Array.from(document.querySelectorAll('table.leaders')[1].querySelectorAll('tbody td:nth-child(2)')).map(td => td.textContent.trim())`)
	a.must(err)
	if strings.Join(prov, " ") != "dora" {
		b.fatalf("the provisional ratings list %v; want dora", prov)
	}
	if mine, err := eval[string](a, `document.querySelector('table.leaders tr.me td:nth-child(2)').textContent.trim()`); err != nil || mine != "alice" {
		b.fatalf("alice's row is not marked: %q (%v)", mine, err)
	}
	if got := a.text(".board-place"); got != "Your place: 2nd of 3." {
		b.fatalf("alice's place: %q", got)
	}
	tab := `nav.tabs a[href="/ratings?format=3-4"]`
	if !a.reachable(tab) {
		b.fatalf("the tab of games of three or four does not take the tap")
	}
	a.must(a.click(tab, "Three or four players"))
	a.must(a.waitFor(`location.search === '?format=3-4' && document.readyState === 'complete'`, 10*time.Second, "the other leaderboard"))
	if got := a.text(".board-place"); got != "You are not on this leaderboard yet." {
		b.fatalf("on the board of three or four, alice's place: %q", got)
	}
}
