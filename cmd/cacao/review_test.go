package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"cacao/engine"
	"cacao/models"
	"cacao/models/autoplay"
)

// TestBrowserReview: on a phone, a player opens the review of their turns
// from the final table (the link takes the tap), asks for it, and once it
// is made taps a turn where the hard bot chose otherwise: the turn's page
// shows the review, the bot's move drawn on the board in view. (The review
// is written here as the slots would make it: handlers' TestReview and
// autoplay's TestReviewMade make real ones.)
func TestBrowserReview(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	alice := s.user("alice")
	g, err := s.store.CreateGame(alice, models.GameSpec{Seats: []string{"greedy"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := autoplay.Bots(s.store, g.ID, nil); err != nil {
		t.Fatal(err)
	}
	s.playUntil(g.ID, finished)
	b := newBrowser(t, true, s.logs)
	a := b.newTab("alice", true)
	a.must(a.do(5*time.Second, chromedp.EmulateViewport(390, 844)))
	s.openGame(a, "alice", g.ID)
	a.tappable("#review-link", "Review my turns, on the final table", true)
	a.must(a.click("#review-link", "Review my turns"))
	a.must(a.waitFor(`!!document.querySelector('main form[action$="/review"] button')`, 10*time.Second, "the review's page, offering to make it"))

	// The review, made as the slots would make it, while its page is open
	// saying it is being made: the page shows it by itself.
	other := reviewed(t, s, g.ID, alice, func() {
		a.must(a.navigate(fmt.Sprintf("%s/games/%d/review", s.base, g.ID)))
		if text := a.text("#review"); !strings.Contains(text, "Your review is being made") {
			b.fatalf("the review asked for, its page says %q", text)
		}
		a.setMarker()
	})
	a.must(a.waitFor(`!!document.querySelector('table.review')`, 10*time.Second, "the review shown once made"))
	if !a.mustState().HasMarker {
		b.fatalf("the review's page was loaded again to show it")
	}
	link := fmt.Sprintf(`table.review a[href="/games/%d/turns/%d"]`, g.ID, other)
	a.tappable(link, "the turn the bot would have played otherwise", true)
	if row := a.text("table.review tr.most-lost"); !strings.Contains(row, "(most lost)") {
		b.fatalf("the turn where most was lost is not marked: %q", row)
	}
	a.must(a.click(link, "a reviewed turn"))
	a.must(a.waitFor(`!!document.querySelector('section.turn-review')`, 10*time.Second, "the turn's review"))
	if text := a.text("section.turn-review"); !strings.Contains(text, "You would have won 70% of the games after it.") {
		b.fatalf("the turn's review says %q", text)
	}
	// The bot's move is drawn where the board shows it, once scrolled to:
	// on the screen, inside the board's frame.
	shown, err := eval[bool](a, `(() => {
		const e = document.querySelector('#board-wrap rect.chosen');
		if (!e) return false;
		e.scrollIntoView({block: 'center', inline: 'center'});
		const r = e.getBoundingClientRect(), w = document.querySelector('#board-wrap').getBoundingClientRect();
		return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth &&
			r.top >= w.top && r.bottom <= w.bottom && r.left >= w.left && r.right <= w.right;
	})()`)
	a.must(err)
	if !shown {
		b.fatalf("the bot's move is not drawn on the board where it can be seen")
	}
}

// reviewed writes user's review of their turns in finished game id as the
// slots would make it: each turn judged, and the first where the tile had
// another place without fills the bot's choice, as the turn where most was
// lost (70 % of the games won after it, 30 % after the move played),
// calling asked once it is asked for and not yet made. It returns that
// turn's log entry.
func reviewed(t *testing.T, s *site, id uint, user *models.User, asked func()) int {
	t.Helper()
	l, err := s.store.LoadGame(id)
	if err != nil {
		t.Fatal(err)
	}
	seat, err := s.store.AskReview(l, user.ID)
	if err != nil {
		t.Fatal(err)
	}
	turns, err := l.OwnTurns(seat)
	if err != nil {
		t.Fatal(err)
	}
	var made []models.ReviewedTurn
	other := -1
	for _, tn := range turns {
		best, same := tn.Move, true
		for _, p := range tn.Before.LegalPlacements(nil) {
			if other < 0 && p.Tile == tn.Move.Tile && p.At != tn.Move.At && !p.Overbuild && len(tn.Before.FillOptions(p.At)) == 0 {
				best, same, other = engine.Move{Placement: p}, false, tn.Seq
				break
			}
		}
		data, err := engine.MarshalTurn(engine.RecordTurn{Seat: seat, Move: best})
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, models.ReviewedTurn{Seq: tn.Seq, Turn: tn.Turn, Best: string(data), PlayedWon: 0.3, BestWon: map[bool]float64{true: 0.3, false: 0.7}[same], Same: same})
	}
	if other < 0 {
		t.Fatalf("no turn of %s's had another place for its tile", user.Username)
	}
	asked()
	if err := s.store.SaveReview(id, seat, made); err != nil {
		t.Fatal(err)
	}
	return other
}
