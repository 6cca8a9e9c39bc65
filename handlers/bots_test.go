package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"cacao/engine"
	"cacao/views/viewtest"
)

// A hard bot's move is not the request's: the answer to a move comes at
// once, saying the bot is to play, and the bot's move follows in the
// background.
func TestHardBotMovesInTheBackground(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	id := ana.createGame("hard")
	s.bots.Wait() // the bot's first move, if it plays first
	seat, l := s.seatOf(id, "ana")
	if l.Play.State().Current() != seat {
		t.Fatalf("after the bots' wait it is seat %d's turn, not ana's", l.Play.State().Current())
	}
	botSeat := 1 - seat
	before := s.turnsBy(id, botSeat)
	m, _ := ana.plan(id, engine.NewRand(1), nil)
	code, body := ana.htmx("POST", m.path, m.form)
	if code != http.StatusOK || !regexp.MustCompile(`hard bot \d is thinking…`).MatchString(body) {
		t.Fatalf("the move's answer did not show the hard bot to play: %d\n%.2000s", code, body)
	}
	s.bots.Wait()
	if got := s.turnsBy(id, botSeat); got != before+1 {
		t.Fatalf("the hard bot played %d turns in the background; want 1", got-before)
	}
	if _, l := s.seatOf(id, "ana"); l.Play.State().Current() != seat {
		t.Fatal("after the bot's move it is not ana's turn again")
	}
}

// The hint selects the hard bot's move, ready to confirm, and says how the
// bot fared with it; the move confirms like any other. Not in a game with
// another person, not out of turn, and not many in a row.
func TestHint(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	id := ana.createGame("hard")
	s.bots.Wait()
	hintPath := fmt.Sprintf("/games/%d/hint", id)
	_, page := ana.get(fmt.Sprintf("/games/%d", id))
	if !viewtest.Has(t, page, "#hint-button") {
		t.Fatal("the game against a bot offers no hint")
	}
	code, body := ana.post(hintPath, nil)
	if code != http.StatusOK || !strings.HasPrefix(viewtest.Text(t, body, "#hint"), "Hint: the hard bot would play this move. It tried it in ") || !viewtest.Has(t, body, "#confirm") {
		t.Fatalf("the hint: %d\n%.3000s", code, body)
	}
	form := url.Values{}
	viewtest.Find(t, body, `form[action$="/turn"] input`).Each(func(_ int, in *goquery.Selection) {
		if name := in.AttrOr("name", ""); slices.Contains([]string{"tile", "rot", "at", "fill", "version"}, name) {
			form.Set(name, in.AttrOr("value", ""))
		}
	})
	seat, _ := s.seatOf(id, "ana")
	if code, body := ana.post(fmt.Sprintf("/games/%d/turn", id), form); code != http.StatusOK || s.turnsBy(id, seat) != 1 {
		t.Fatalf("confirming the hint's move %v: %d\n%.2000s", form, code, body)
	}
	// Out of turn (the hard bot thinks in the background): none.
	if code, _ := ana.post(hintPath, nil); code != http.StatusUnprocessableEntity {
		t.Fatalf("a hint out of turn: %d", code)
	}
	s.bots.Wait()
	for r := engine.NewRand(1); ; {
		_, l := s.seatOf(id, "ana")
		if len(l.Play.State().Player(seat).Queue()) == 0 {
			break
		}
		ana.act(id, r) // her pending choice
	}
	// Five hints in a row (the first counted), then a wait.
	for i := 2; i <= 5; i++ {
		if code, _ := ana.post(hintPath, nil); code != http.StatusOK {
			t.Fatalf("hint %d: %d", i, code)
		}
	}
	if code, body := ana.post(hintPath, nil); code != http.StatusUnprocessableEntity || !strings.Contains(body, "You asked for many hints in a row.") || ana.last.Get("Retry-After") == "" {
		t.Fatalf("the sixth hint in a row: %d\n%.1000s", code, body)
	}

	// A game with another person: no hint.
	id2, ana2, bob := newSite(t).anaAndBob()
	for _, c := range []*client{ana2, bob} {
		_, page := c.get(fmt.Sprintf("/games/%d", id2))
		if viewtest.Has(t, page, "#hint-button") {
			t.Fatalf("%s is offered a hint in a game with another person", c.name)
		}
		if code, body := c.post(fmt.Sprintf("/games/%d/hint", id2), nil); code != http.StatusForbidden || viewtest.Has(t, body, "#hint") {
			t.Fatalf("%s's hint in a game with another person: %d", c.name, code)
		}
	}
}

// The lobby offers the three levels for a seat and for the stand-in
// (medium unless chosen); the choice is the game's, and a bot the site
// does not seat is refused with the reason.
func TestLevelsOffered(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	_, home := ana.get("/")
	for _, want := range [][2]string{{`option[value="easy"]:not([selected])`, "easy bot"}, {`option[value="hard"]:not([selected])`, "hard bot"},
		{`select#stand_in[name="stand_in"] option[value="medium"][selected]`, "medium bot"}} {
		if !viewtest.HasText(t, home, want[0], want[1]) {
			t.Fatalf("the new-game form lacks %s saying %q:\n%s", want[0], want[1], viewtest.Show(t, home, "select"))
		}
	}
	if viewtest.Has(t, home, `[value="greedy"], [value="random"]`) {
		t.Fatal("the form offers a bot that is not a level")
	}
	code, _ := ana.post("/games", url.Values{"seat": {"easy"}, "stand_in": {"hard"}})
	id := uint(1)
	if l, err := s.store.LoadGame(id); code != http.StatusOK || err != nil || l.Game.StandIn != "hard" || l.Seats[1].Bot != "easy" && l.Seats[0].Bot != "easy" {
		t.Fatalf("the game made: %d %v", code, err)
	}
	code, body := ana.post("/games", url.Values{"seat": {"easy"}, "stand_in": {"clever"}})
	if code != http.StatusUnprocessableEntity || !strings.Contains(body, "The bot that stands in for a player is the easy, medium or hard one") {
		t.Fatalf("an unknown stand-in: %d", code)
	}
}
