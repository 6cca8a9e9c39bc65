package handlers_test

import (
	"fmt"
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
	if code, page := bob.get("/ratings?format=9"); code != http.StatusBadRequest || !viewtest.HasText(t, page, "main p", "Choose the leaderboard of games of two, or of three or four") {
		t.Fatalf("a board that does not exist: %d", code)
	}
}

// TestBotRatingsShown: a bot level's rating is shown beside the bot where
// it is seated (the game page's villages and the lists of games), in the
// game's format, marked while provisional, and on /ratings apart from the
// people; a format in which no bot is rated says so.
func TestBotRatingsShown(t *testing.T) {
	s, exec := newSiteDirect(t)
	ana := s.signup("ana")
	exec("INSERT INTO bot_ratings (kind, format, rating, rating_dev, rating_vol, games) VALUES ('easy', 0, 1234.4, 80, 0.06, 12), ('hard', 0, 1702.6, 200, 0.06, 3)")
	id := ana.createGame("easy")
	_, page := ana.get(fmt.Sprintf("/games/%d", id))
	names := viewtest.Find(t, page, ".village-name")
	for i := range names.Length() {
		name := names.Eq(i)
		got, bot := name.Find(".bot-rating").Text(), strings.Contains(name.Text(), "easy bot")
		if bot && got != "(1234)" || !bot && got != "" {
			t.Fatalf("the village of %q says %q beside its name; want (1234) beside the easy bot's alone", name.Text(), got)
		}
	}
	_, watch := s.signup("bob").get("/games")
	if !strings.Contains(viewtest.Text(t, watch, "td.players"), "easy bot 1 (1234)") {
		t.Fatalf("the games being played do not show the bot's rating:\n%s", viewtest.Show(t, watch, "main"))
	}
	_, board := ana.get("/ratings")
	var rows []string
	viewtest.Find(t, board, "table.leaders").Last().Find("tbody tr").Each(func(_ int, tr *goquery.Selection) {
		var cells []string
		tr.Find("td").Each(func(_ int, td *goquery.Selection) { cells = append(cells, td.Text()) })
		rows = append(rows, strings.Join(cells, " "))
	})
	if strings.Join(rows, "; ") != "easy bot 1234 12; hard bot 1703? 3" {
		t.Fatalf("the bots on /ratings: %q", rows)
	}
	if _, more := ana.get("/ratings?format=3-4"); !viewtest.HasText(t, more, "main p", "No bot has a rating of this kind yet.") {
		t.Fatalf("the board of three or four lists bots:\n%s", viewtest.Show(t, more, "main"))
	}
}
