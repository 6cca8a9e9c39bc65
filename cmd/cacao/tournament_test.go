package main

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"cacao/models"
	"cacao/models/autoplay"
)

// seedTournament opens a public tournament called name by the admin
// umpire (made if missing), Swiss at tables of two in rounds rounds, with
// players signed up.
func seedTournament(t *testing.T, s *site, name string, rounds int, players ...*models.User) *models.Tournament {
	t.Helper()
	if _, err := s.store.UserNamed("umpire"); err != nil {
		s.user("umpire")
	}
	umpire, err := s.store.SetAdmin("umpire", true)
	if err != nil {
		t.Fatal(err)
	}
	tour, err := s.store.CreateTournament(umpire, models.TourSpec{Name: name, Format: models.Swiss, TurnHours: 24, RoundDays: 7,
		SignupDays: 1, Rounds: rounds, MaxPlayers: 8})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range players {
		if err := s.store.JoinTournament(tour.ID, u); err != nil {
			t.Fatal(err)
		}
	}
	return tour
}

// closeSignup starts tournament id as the worker does once its sign-up has
// closed.
func closeSignup(t *testing.T, s *site, id uint) {
	t.Helper()
	sqlite(t, s.db, "UPDATE tournaments SET signup_until = ? WHERE id = ?", time.Now().Add(-time.Minute).UTC(), id)
	if _, err := s.store.RunTournaments(10); err != nil {
		t.Fatal(err)
	}
}

// endRound ends the round of tournament id at its deadline: the stand-in
// bot finishes its games, and the next round is paired.
func endRound(t *testing.T, s *site, id uint) {
	t.Helper()
	sqlite(t, s.db, "UPDATE tournaments SET round_ends = ? WHERE id = ?", time.Now().Add(-time.Minute).UTC(), id)
	w, err := s.store.RunTournaments(10)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range w.Handed {
		if _, err := autoplay.Bots(s.store, g, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.store.RunTournaments(10); err != nil {
		t.Fatal(err)
	}
}

// TestBrowserTournament: on a phone, a player finds a tournament from the
// header, joins it by its button (which takes the tap), and once a round
// is played sees the standings in order of points, her own line marked,
// with how the points and ties are counted, and the round's games linked.
func TestBrowserTournament(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	alice, bruno, chen := s.user("alice"), s.user("bruno"), s.user("chen")
	tour := seedTournament(t, s, "Winter cup", 2, bruno, chen)
	b := newBrowser(t, true, s.logs)
	a := b.newTab("alice", true)
	a.must(a.do(5*time.Second, chromedp.EmulateViewport(390, 844)))
	a.logIn(s.base, "alice", "")
	link := `header.top a[href="/tournaments"]`
	if !a.reachable(link) {
		b.fatalf("the header's Tournaments link does not take the tap")
	}
	a.must(a.click(link, "Tournaments"))
	item := fmt.Sprintf(`ul.tournaments a[href="/tournaments/%d"]`, tour.ID)
	a.must(a.waitFor(fmt.Sprintf(`!!document.querySelector(%q)`, item), 10*time.Second, "the tournament in the list"))
	if !a.reachable(item) {
		b.fatalf("the tournament's link does not take the tap")
	}
	a.must(a.click(item, "Winter cup"))
	join := `form[action$="/join"] button`
	a.must(a.waitFor(fmt.Sprintf(`!!document.querySelector(%q)`, join), 10*time.Second, "the Join button"))
	if !a.reachable(join) {
		b.fatalf("the Join button does not take the tap")
	}
	a.must(a.click(join, "Join the tournament"))
	a.must(a.waitFor(`!!document.querySelector('form[action$="/leave"]')`, 10*time.Second, "the page after joining"))
	if got := a.text(`form[action$="/leave"] span`); got != "You are signed up." {
		b.fatalf("after joining the page says %q", got)
	}
	if players := a.text("ul.tour-players"); !strings.Contains(players, "alice") {
		b.fatalf("the players signed up: %q", players)
	}
	if _, err := s.store.TournamentPage(tour.ID, alice); err != nil {
		t.Fatal(err)
	}
	closeSignup(t, s, tour.ID)
	endRound(t, s, tour.ID)
	a.must(a.navigate(fmt.Sprintf("%s/tournaments/%d", s.base, tour.ID)))
	a.must(a.waitFor(`!!document.querySelector('table.tour-standings')`, 10*time.Second, "the standings"))
	rows, err := eval[[][]string](a, `Array.from(document.querySelectorAll('table.tour-standings tbody tr')).map(tr => Array.from(tr.querySelectorAll('td')).map(td => td.textContent.trim()))`)
	a.must(err)
	if len(rows) != 3 {
		b.fatalf("the standings have %d lines; want alice, bruno and chen", len(rows))
	}
	last := 99.0
	for _, r := range rows {
		p, err := strconv.ParseFloat(strings.ReplaceAll(r[2], "½", ".5"), 64)
		if err != nil || p > last {
			b.fatalf("the standings are not in order of points: %v", rows)
		}
		last = p
	}
	if mine, err := eval[string](a, `document.querySelector('table.tour-standings tr.me td:nth-child(2) a').textContent.trim()`); err != nil || mine != "alice" {
		b.fatalf("alice's line is not marked: %q (%v)", mine, err)
	}
	if rules := a.text(".tour-rules"); !strings.Contains(rules, "Points: 1 for a win") || !strings.Contains(rules, "Ties are broken by") {
		b.fatalf("the page does not say how points and ties count: %q", rules)
	}
	game := `#round-1 ~ ul.tour-games a[href^="/games/"]`
	if !a.reachable(game) {
		b.fatalf("round 1's game does not take the tap")
	}
}
