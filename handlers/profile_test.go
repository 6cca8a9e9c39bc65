package handlers_test

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"cacao/engine"
	"cacao/models"
	"cacao/views/viewtest"
)

// described is the text of the <dd> right after the <dt> saying term in
// page ("" if there is none).
func described(t testing.TB, page, term string) string {
	t.Helper()
	return viewtest.Collapse(viewtest.WithText(viewtest.Find(t, page, "dt"), term).First().NextFiltered("dd").Text())
}

// TestProfile: anyone may read a player's profile: their rating (still
// provisional) with its chart, their counts and their finished games,
// filtered by opponent, players and result; names link to profiles, the
// final table shows the rating change. (The first game is not rated: ana
// and bob had no finished game before it.)
func TestProfile(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	s.clock.Advance(models.RatedAge)
	s.playToEnd(id, engine.NewRand(1), ana, bob)
	second := ana.createGame("open", "none", "none")
	bob.post(fmt.Sprintf("/games/%d/join", second), nil)
	s.playToEnd(second, engine.NewRand(2), ana, bob)
	third := ana.createGame("open", "none", "none")
	bob.post(fmt.Sprintf("/games/%d/join", third), nil)
	s.playToEnd(third, engine.NewRand(3), ana, bob)

	anaU, _ := s.store.UserNamed("ana")
	_, wins, _ := s.store.MyFinished(anaU.ID, models.HistoryFilter{Result: "won", Players: 2}, 0, 10)
	anon := s.client("anon")
	code, page := anon.get("/users/ana")
	if code != http.StatusOK || !viewtest.HasText(t, page, "h1", "ana") || !strings.Contains(page, "(provisional: 2 of 10 rated games)") ||
		!viewtest.Has(t, page, `polyline[points^="48.0,"]`) || !viewtest.HasText(t, page, `a[href="/users/bob"]`, "bob") || described(t, page, "Finished") != "3" {
		t.Fatalf("ana's profile: %d\n%s", code, page)
	}
	if viewtest.Count(t, page, ".result") != 3 || !strings.Contains(page, " of 2, ") {
		t.Fatal("the profile does not list the three games with their results")
	}
	for _, tc := range []struct {
		query string
		games int
		says  string
	}{
		{"?opponent=BOB", 3, ""},
		{"?opponent=nobody", 0, "Nobody here is called “nobody”"},
		{"?players=3", 0, ""},
		{"?result=won&players=2", wins, ""},
	} {
		_, page := anon.get("/users/ana" + tc.query)
		if n := viewtest.Count(t, page, ".result"); n != tc.games || tc.says != "" && !strings.Contains(page, tc.says) {
			t.Errorf("%s: %d games listed; want %d", tc.query, n, tc.games)
		}
	}
	bobU, _ := s.store.UserNamed("bob")
	_, lost, _ := s.store.MyFinished(anaU.ID, models.HistoryFilter{Opponent: bobU.ID, Result: "lost"}, 0, 10)
	if _, page := ana.get("/?finished=all&opponent=bob&result=lost"); viewtest.Count(t, page, ".result") != lost || !viewtest.Has(t, page, `input[name="finished"][value="all"]`) {
		t.Fatalf("my finished games, filtered: want the %d lost", lost)
	}
	if code, _ := anon.get("/users/nobody"); code != http.StatusNotFound {
		t.Fatalf("the profile of nobody: %d", code)
	}
	// The final tables of the rated games show the changes; a game
	// drawn (a deal is random) changes equal ratings by 0, so either
	// game may show the gain and the loss.
	change := regexp.MustCompile(`^[+−]\d+ rating$`)
	shown := false
	for _, g := range []uint{second, third} {
		_, final := ana.get(fmt.Sprintf("/games/%d", g))
		if viewtest.Count(t, final, "#final span.rating") != 2 {
			t.Fatalf("the final table of game %d does not show both rating changes:\n%s", g, viewtest.Show(t, final, "#final"))
		}
		shown = shown || slices.ContainsFunc(viewtest.Texts(t, final, "#final span.rating"), change.MatchString)
	}
	if !shown {
		t.Fatal("neither final table shows a rating won or lost")
	}
	if code, page := anon.get("/ratings"); code != http.StatusOK || !strings.Contains(page, "Glicko-2") {
		t.Fatalf("the ratings help: %d", code)
	}
}

// TestProfilePrivateGames: a private game ana and bob finished is listed
// on ana's profile only to its players (and admins, who may open it);
// anyone else sees neither its row nor its opponent, while the totals
// still count it.
func TestProfilePrivateGames(t *testing.T) {
	s := newSite(t)
	ana, bob, cyd, root := s.signup("ana"), s.signup("bob"), s.signup("cyd"), s.signup("root")
	if _, err := s.store.SetAdmin("root", true); err != nil {
		t.Fatal(err)
	}
	anaU, _ := s.store.UserNamed("ana")
	bobU, _ := s.store.UserNamed("bob")
	g, err := s.store.CreateGame(anaU, models.GameSpec{Seats: []string{"@bob"}, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.store.Join(g.ID, "", bobU); err != nil {
		t.Fatal(err)
	}
	s.playToEnd(g.ID, engine.NewRand(1), ana, bob)
	row := fmt.Sprintf(`a[href="/games/%d"]`, g.ID)
	for _, tc := range []struct {
		who  *client
		sees bool
	}{{s.client("anon"), false}, {cyd, false}, {ana, true}, {bob, true}, {root, true}} {
		for _, q := range []string{"", "?opponent=bob"} {
			code, page := tc.who.get("/users/ana" + q)
			if code != http.StatusOK || viewtest.Has(t, page, row) != tc.sees || described(t, page, "Finished") != "1" {
				t.Errorf("%s reading ana's profile%s: %d, lists the private game: %v", tc.who.name, q, code, !tc.sees)
			}
			if !tc.sees && viewtest.Has(t, page, `a[href="/users/bob"]`) {
				t.Errorf("%s reading ana's profile%s sees her opponent", tc.who.name, q)
			}
		}
	}
}
