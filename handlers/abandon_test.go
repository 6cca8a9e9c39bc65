package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"cacao/views/viewtest"
)

// TestHandOverAndTakeBack: in a game without a time limit, the player not
// waited on is offered to hand the waiting player's seat to the bot only
// once they kept the table waiting 7 days (earlier, a post is refused in a
// sentence); the bot then plays the seat, the player is told and offered
// to take it back, and everyone sees it in the players' table and the log.
func TestHandOverAndTakeBack(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	eve := s.signup("eve")
	page := fmt.Sprintf("/games/%d", id)
	_, l := s.seatOf(id, "ana")
	idle, waiter, other := "ana", ana, bob
	if l.Seats[l.Play.State().Current()].Name == "bob" {
		idle, waiter, other = "bob", bob, ana
	}
	seat, _ := s.seatOf(id, idle)
	form := url.Values{"seat": {fmt.Sprint(seat)}}
	if _, body := other.get(page); strings.Contains(body, page+"/handover") {
		t.Fatal("a hand-over is offered at once")
	}
	if code, body := other.post(page+"/handover", form); code != http.StatusUnprocessableEntity || !strings.Contains(body, "has not kept the table waiting for 7 days") {
		t.Fatalf("handing over at once: %d\n%.300s", code, body)
	}
	s.clock.Advance(7*24*time.Hour + time.Minute)
	if _, body := waiter.get(page); strings.Contains(body, page+"/handover") {
		t.Fatal("the waiting player is offered to hand over their own seat")
	}
	if code, _ := eve.post(page+"/handover", form); code != http.StatusForbidden {
		t.Fatalf("a stranger handing a seat over: %d", code)
	}
	_, body := other.get(page)
	if !viewtest.Has(t, body, `form[action="`+page+`/handover"]`) || !strings.Contains(body, idle+" has not moved for 7 days.") {
		t.Fatalf("after 7 days the other player is not offered to hand the seat over:\n%s", body)
	}
	if code, _ := other.post(page+"/handover", form); code != http.StatusOK {
		t.Fatalf("handing over: %d", code)
	}
	if s.turnsBy(id, seat) != 1 {
		t.Fatal("the bot did not play the handed-over seat")
	}
	_, body = waiter.get(page)
	if back := `form[action="` + page + `/back"] button`; !viewtest.HasText(t, body, back, "Take my seat back") {
		t.Fatalf("the handed-over player's page has no button to take the seat back:\n%s", viewtest.Show(t, body, back))
	}
	for _, want := range []string{"(away: the bot plays)",
		fmt.Sprintf("%s handed %s&#39;s seat to the stand-in bot", other.name, idle), idle + " (away: the stand-in bot played)"} {
		if !strings.Contains(body, want) {
			t.Fatalf("the handed-over player's page lacks %q", want)
		}
	}
	if _, body := waiter.get("/notifications"); !strings.Contains(body, "Open the game to take it back.") {
		t.Fatal("the handed-over player is not told")
	}
	if code, _ := eve.post(page+"/back", nil); code != http.StatusForbidden {
		t.Fatalf("a stranger taking a seat back: %d", code)
	}
	if code, body := other.post(page+"/back", nil); code != http.StatusUnprocessableEntity || !strings.Contains(body, "there is nothing to take back") {
		t.Fatalf("taking back a seat one kept: %d\n%.300s", code, body)
	}
	if code, _ := waiter.post(page+"/back", nil); code != http.StatusOK {
		t.Fatalf("taking the seat back: %d", code)
	}
	_, body = other.get(page)
	if strings.Contains(body, "(away: the bot plays)") || !strings.Contains(body, idle+" took their seat back.") {
		t.Fatal("the seat taken back is still shown away, or the log does not say so")
	}
}

// TestHandOverWaitsOutAVacation: the days of a vacation do not count
// towards the week after which the page offers a hand-over, though the
// vacation is over by then.
func TestHandOverWaitsOutAVacation(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	page := fmt.Sprintf("/games/%d", id)
	_, l := s.seatOf(id, "ana")
	idle, other := "ana", bob
	if l.Seats[l.Play.State().Current()].Name == "bob" {
		idle, other = "bob", ana
	}
	if _, err := s.store.StartVacation(s.userID(idle), 2); err != nil {
		t.Fatal(err)
	}
	s.clock.Advance(7*24*time.Hour + time.Minute)
	if _, body := other.get(page); strings.Contains(body, page+"/handover") {
		t.Fatalf("a week after %s went on a vacation of two days, a hand-over is offered", idle)
	}
	s.clock.Advance(2 * 24 * time.Hour)
	if _, body := other.get(page); !viewtest.Has(t, body, `form[action="`+page+`/handover"]`) {
		t.Fatalf("a week after %s's vacation ended, no hand-over is offered", idle)
	}
}
