package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"cacao/views/viewtest"
)

// tourForm is the form of a tournament called name, as the page's first
// choices fill it, with changes.
func tourForm(name string, changes url.Values) url.Values {
	form := url.Values{"name": {name}, "format": {"swiss"}, "tables": {"2"}, "rounds": {"3"}, "turn_hours": {"24"},
		"round_days": {"14"}, "signup_days": {"3"}, "max_players": {"8"}}
	for k, v := range changes {
		form[k] = v
	}
	return form
}

// TestTournamentJourney: an admin opens a tournament for everyone from
// the form; the header links to the list, which shows it; players sign up
// from its page (a visitor is asked to log in, a guest is offered
// nothing, a forged form changes nothing), one leaves and comes back; when sign-up closes the worker
// starts it, and its page shows the first round's games, linked (and
// linking back), and the standings with how points and ties are counted.
func TestTournamentJourney(t *testing.T) {
	s := newSite(t)
	root, ana, bob, cyd := s.signup("root"), s.signup("ana"), s.signup("bob"), s.signup("cyd")
	if _, err := s.store.SetAdmin("root", true); err != nil {
		t.Fatal(err)
	}
	if _, page := root.get("/tournaments/new"); !viewtest.Has(t, page, `input[name="public"]`) {
		t.Fatal("an admin is not offered a tournament for everyone")
	}
	code, page := root.post("/tournaments", tourForm("Winter cup", url.Values{"public": {"on"}}))
	if code != http.StatusOK || viewtest.Text(t, page, "h1") != "Winter cup" {
		t.Fatalf("opening the tournament: %d %q", code, viewtest.Text(t, page, "main"))
	}
	_, page = ana.get("/")
	if !viewtest.Has(t, page, `header nav a[href="/tournaments"]`) {
		t.Fatal("the header does not link to the tournaments")
	}
	_, page = ana.get("/tournaments")
	link := viewtest.Find(t, page, "ul.tournaments li a")
	href, _ := link.Attr("href")
	if link.Length() != 1 || link.Text() != "Winter cup" {
		t.Fatalf("the list of tournaments: %q", viewtest.Show(t, page, "main"))
	}
	anon := s.client("visitor")
	if _, page := anon.get(href); viewtest.Has(t, page, `form[action$="/join"]`) || !viewtest.Has(t, page, `a[href^="/login"]`) {
		t.Fatal("a visitor is offered to join, or not to log in")
	}
	if code, _ := anon.post(href+"/join", nil); code == http.StatusOK {
		t.Fatal("a visitor joined")
	}
	guest := s.client("gus")
	guest.get("/play")
	guest.post("/play", url.Values{"name": {"gus"}, "bot": {"easy"}})
	if _, page := guest.get(href); viewtest.Has(t, page, `form[action$="/join"]`) {
		t.Fatal("a guest is offered to join")
	}
	if code, page := guest.post(href+"/join", nil); code != http.StatusUnprocessableEntity || !strings.Contains(page, "Guests do not play tournaments") {
		t.Fatalf("a guest joins: %d", code)
	}
	if code, _ := ana.post(href+"/join", url.Values{"_csrf": {"forged-token"}}); code != http.StatusForbidden && code != http.StatusBadRequest {
		t.Fatalf("a join with a forged token: %d", code)
	}
	if _, page := ana.get(href); viewtest.Has(t, page, "ul.tour-players li") {
		t.Fatal("a forged join signed ana up")
	}
	for _, c := range []*client{ana, bob, cyd} {
		if _, page := c.get(href); viewtest.Text(t, page, `form[action$="/join"] button`) != "Join the tournament" {
			t.Fatalf("%s is not offered to join", c.name)
		}
		if code, page := c.post(href+"/join", nil); code != http.StatusOK || !viewtest.Has(t, page, `form[action$="/leave"]`) {
			t.Fatalf("%s joins: %d", c.name, code)
		}
	}
	if code, _ := cyd.post(href+"/leave", nil); code != http.StatusOK {
		t.Fatalf("cyd leaves: %d", code)
	}
	_, page = cyd.get(href)
	var players []string
	viewtest.Find(t, page, "ul.tour-players li").Each(func(_ int, li *goquery.Selection) { players = append(players, li.Text()) })
	if strings.Join(players, " ") != "ana bob" || !viewtest.Has(t, page, `form[action$="/join"]`) {
		t.Fatalf("after cyd left: %v", players)
	}
	cyd.post(href+"/join", nil)
	s.clock.Advance(3*24*time.Hour + time.Minute)
	if w, err := s.store.RunTournaments(10); err != nil || w.Started != 1 {
		t.Fatalf("the worker: %+v, %v", w, err)
	}
	_, page = ana.get(href)
	rows := viewtest.Find(t, page, "table.tour-standings tbody tr")
	if rows.Length() != 3 || !viewtest.Has(t, page, "table.tour-standings tr.me") {
		t.Fatalf("the standings: %q", viewtest.Show(t, page, "table.tour-standings"))
	}
	if !strings.HasPrefix(viewtest.Text(t, page, ".tour-state"), "Sign-up closed and play started ") {
		t.Fatalf("the page does not say when play started: %q", viewtest.Text(t, page, ".tour-state"))
	}
	if !strings.Contains(viewtest.Text(t, page, ".tour-rules"), "Ties are broken by the points of the opponents one met") {
		t.Fatal("the tie-breaks are not stated")
	}
	games := viewtest.Find(t, page, ".tour-round ul.tour-games li")
	if games.Length() != 2 || !strings.HasPrefix(viewtest.Text(t, page, ".tour-round h2"), "Round 1") {
		t.Fatalf("round 1: %q", viewtest.Show(t, page, ".tour-round"))
	}
	game, _ := games.First().Find("a").Attr("href")
	if code, page := ana.get(game); code != http.StatusOK || viewtest.Text(t, page, fmt.Sprintf(`.game-head a[href=%q]`, href)) != "A tournament's game, round 1" {
		t.Fatalf("the round's game %s: %d, or it does not link to its tournament", game, code)
	}
	if _, notes := ana.get("/notifications"); !strings.Contains(notes, "Round 1 of the tournament Winter cup has started") {
		t.Fatal("ana is not told of the round")
	}
}

// TestPrivateTournamentRules: anyone with an account opens a private
// tournament (a tournament for everyone is an admin's), inviting players
// by name; the invited see it and join, others do not even see it; bad
// input is refused with the reason, keeping what was entered and making
// nothing; past the limit of private tournaments at once, a third is
// refused.
func TestPrivateTournamentRules(t *testing.T) {
	s := newSite(t)
	ana, bob, eve := s.signup("ana"), s.signup("bob"), s.signup("eve")
	if _, page := ana.get("/tournaments/new"); viewtest.Has(t, page, `input[name="public"]`) || viewtest.Find(t, page, "#tour-max").AttrOr("max", "") != "16" {
		t.Fatal("a player is offered a tournament for everyone, or more places than a private one has")
	}
	code, page := ana.post("/tournaments", tourForm("x", url.Values{"invite": {"bob"}}))
	if code != http.StatusUnprocessableEntity || viewtest.Text(t, page, "#tour-error") != "A tournament's name has 3 to 60 characters" ||
		viewtest.Text(t, page, "#tour-invite") != "bob" {
		t.Fatalf("a name too short: %d %q", code, viewtest.Text(t, page, "#tour-error"))
	}
	code, page = ana.post("/tournaments", tourForm("Friends", url.Values{"invite": {"bob, nobody"}}))
	if code != http.StatusUnprocessableEntity || !strings.Contains(viewtest.Text(t, page, "#tour-error"), "Nobody here is called") {
		t.Fatalf("an unknown player invited: %d %q", code, viewtest.Text(t, page, "#tour-error"))
	}
	if _, page := ana.get("/tournaments"); viewtest.Has(t, page, "ul.tournaments li") {
		t.Fatal("a refused form made a tournament")
	}
	// public=on from a player is not theirs to ask: the tournament is private.
	code, page = ana.post("/tournaments", tourForm("Friends", url.Values{"invite": {"bob"}, "public": {"on"}}))
	if code != http.StatusOK || !strings.Contains(viewtest.Text(t, page, ".tour-facts"), "A private tournament of ana") {
		t.Fatalf("ana's tournament: %d %q", code, viewtest.Text(t, page, "main"))
	}
	href := strings.TrimSuffix(viewtest.Find(t, page, `form[action$="/leave"]`).AttrOr("action", ""), "/leave")
	if href == "" {
		t.Fatal("ana is not signed up for her tournament")
	}
	if code, _ := eve.get(href); code != http.StatusNotFound {
		t.Fatalf("eve, not invited, opens it: %d", code)
	}
	if _, page := eve.get("/tournaments"); viewtest.Has(t, page, "ul.tournaments li") {
		t.Fatal("eve sees a private tournament in the list")
	}
	if code, _ := eve.post(href+"/join", nil); code == http.StatusOK {
		t.Fatal("eve joined")
	}
	// Told under Tournaments, which leads to them, not under his account.
	if _, notes := bob.get("/notifications"); !strings.Contains(viewtest.Text(t, notes, `section:has(h2 a[href="/tournaments"])`), "ana invited you to the tournament Friends") {
		t.Fatalf("bob is not told of his invitation under Tournaments:\n%s", viewtest.Show(t, notes, "main"))
	}
	if code, page := bob.post(href+"/join", nil); code != http.StatusOK || !viewtest.Has(t, page, `form[action$="/leave"]`) {
		t.Fatalf("bob joins: %d", code)
	}
	ana.post("/tournaments", tourForm("Second", nil))
	code, page = ana.post("/tournaments", tourForm("Third", nil))
	if code != http.StatusUnprocessableEntity || !strings.Contains(viewtest.Text(t, page, "#tour-error"), "You have 2 private tournaments not over yet") {
		t.Fatalf("a third private tournament: %d %q", code, viewtest.Text(t, page, "#tour-error"))
	}
	if _, page := ana.get("/tournaments"); viewtest.Find(t, page, "ul.tournaments li").Length() != 2 {
		t.Fatalf("ana's tournaments: %q", viewtest.Show(t, page, "main"))
	}
	if code, _ := ana.get(fmt.Sprintf("/tournaments/%d", 999)); code != http.StatusNotFound {
		t.Fatalf("a tournament that does not exist: %d", code)
	}
}
