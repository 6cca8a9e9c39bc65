package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"cacao/views/viewtest"
)

// TestLeaderboardPage: /ratings lists the rated players of games of two
// in order, the provisional ones apart, and the viewer's place; the board
// of games of three or four is another; a board that does not exist is
// refused with a sentence. The header links to it.
func TestLeaderboardPage(t *testing.T) {
	s, exec := newSiteDirect(t)
	ana, bob := s.signup("ana"), s.signup("bob")
	s.signup("cyd")
	s.signup("dee")
	now := s.store.Clock()
	for _, r := range []struct {
		name   string
		rating float64
		games  int
	}{{"ana", 1620, 12}, {"bob", 1710, 30}, {"cyd", 1580, 4}, {"dee", 1620, 25}} {
		exec("UPDATE users SET rating = ?, rated_games = ?, rated_at = ? WHERE username = ?", r.rating, r.games, now, r.name)
	}
	code, page := ana.get("/ratings")
	if code != http.StatusOK || !viewtest.Has(t, page, `header nav a[href="/ratings"]`) {
		t.Fatalf("the leaderboard: %d, or the header does not link to it", code)
	}
	tables := viewtest.Find(t, page, "table.leaders")
	if tables.Length() != 2 {
		t.Fatalf("%d tables; want the ranked and the provisional", tables.Length())
	}
	var ranked, places, prov []string
	tables.Eq(0).Find("tbody tr td:nth-child(2)").Each(func(_ int, td *goquery.Selection) { ranked = append(ranked, td.Text()) })
	tables.Eq(0).Find("tbody tr td:nth-child(1)").Each(func(_ int, td *goquery.Selection) { places = append(places, td.Text()) })
	tables.Eq(1).Find("tbody tr td:nth-child(2)").Each(func(_ int, td *goquery.Selection) { prov = append(prov, td.Text()) })
	if strings.Join(ranked, " ") != "bob ana dee" || strings.Join(places, " ") != "1 2 2" || len(prov) != 1 || prov[0] != "cyd" {
		t.Fatalf("ranked %v at %v (ana and dee share a rating), provisional %v", ranked, places, prov)
	}
	if got := viewtest.Text(t, page, ".board-place"); got != "Your place: 2nd of 3." {
		t.Fatalf("ana's place: %q", got)
	}
	if _, page := bob.get("/ratings?format=3-4"); viewtest.Has(t, page, "table.leaders") || viewtest.Text(t, page, ".board-place") != "You are not on this leaderboard yet." {
		t.Fatalf("the board of three or four lists someone, or bob is on it:\n%s", viewtest.Show(t, page, "main"))
	}
	if code, page := bob.get("/ratings?format=9"); code != http.StatusBadRequest || !viewtest.HasText(t, page, "main p", "choose the leaderboard of games of two, or of three or four") {
		t.Fatalf("a board that does not exist: %d", code)
	}
}
