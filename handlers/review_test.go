package handlers_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"cacao/engine"
	"cacao/views/viewtest"
)

// TestReview: a player's review of their turns is theirs alone and comes
// once the game is over: asked for from the final table, made in the
// background, it lists each of their turns with how often they won after
// their move and after the hard bot's, each linked to the position before
// it, where the bot's move is drawn on the board. Nobody else sees it.
func TestReview(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	eve := s.signup("eve")
	review := fmt.Sprintf("/games/%d/review", id)
	if code, body := ana.get(review); code != http.StatusUnprocessableEntity || !strings.Contains(body, "A review is made of a game played to its end") {
		t.Fatalf("a review of a game under way: %d", code)
	}
	s.playToEnd(id, engine.NewRand(3), ana, bob)
	if _, page := ana.get(fmt.Sprintf("/games/%d", id)); !viewtest.Has(t, page, `#final a#review-link[href="`+review+`"]`) {
		t.Fatal("the final table does not lead ana to her review")
	}
	if code, _ := eve.get(review); code != http.StatusNotFound {
		t.Fatalf("a stranger's look at a review: %d", code)
	}
	if code, _ := eve.post(review, nil); code != http.StatusNotFound {
		t.Fatalf("a stranger asks for a review: %d", code)
	}
	if _, page := ana.get(review); !viewtest.Has(t, page, `form[action="`+review+`"] button`) {
		t.Fatal("ana is not offered to ask for her review")
	}
	if code, _ := ana.post(review, nil); code != http.StatusOK {
		t.Fatalf("asking for the review: %d", code)
	}
	var page string
	for i := 0; ; i++ {
		_, page = ana.get(review)
		if viewtest.Has(t, page, "table.review") {
			break
		}
		if i == 300 || !viewtest.Has(t, page, `#review-wait`) {
			t.Fatalf("the review is neither being made nor made:\n%s", viewtest.Show(t, page, "main"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	seat, l := s.seatOf(id, "ana")
	turns, err := l.OwnTurns(seat)
	if err != nil {
		t.Fatal(err)
	}
	rows := viewtest.Find(t, page, "table.review tbody tr")
	if rows.Length() != len(turns) {
		t.Fatalf("%d turns in the review; ana made %d", rows.Length(), len(turns))
	}
	other := -1
	for i, turn := range turns {
		link := fmt.Sprintf("/games/%d/turns/%d", id, turn.Seq)
		row := rows.Eq(i)
		if _, ok := row.Find(`th a[href="` + link + `"]`).Attr("href"); !ok {
			t.Fatalf("row %d does not link to %s:\n%s", i, link, viewtest.Show(t, page, "table.review"))
		}
		if other < 0 && !strings.Contains(row.Text(), "the same as yours") {
			other = turn.Seq
		}
	}
	if other < 0 {
		t.Fatal("the bot chose ana's move every turn: no turn to see its move drawn")
	}
	turn := fmt.Sprintf("/games/%d/turns/%d", id, other)
	_, mine := ana.get(turn)
	if !viewtest.Has(t, mine, "section.turn-review") || !viewtest.Has(t, mine, "#board-wrap rect.chosen") {
		t.Fatalf("ana's turn does not show its review with the bot's move drawn:\n%s", viewtest.Show(t, mine, "main"))
	}
	_, his := bob.get(turn)
	_, theirs := bob.get(review)
	if viewtest.Has(t, his, "section.turn-review") || viewtest.Has(t, his, "#board-wrap rect.chosen") || viewtest.Has(t, theirs, "table.review") {
		t.Fatal("bob sees ana's review")
	}
}
