package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"cacao/engine"
	"cacao/models"
	"cacao/views/viewtest"
)

// TestResign: a seated player is asked to confirm, then resigns: the game
// page says so to them, the log and the players' table to everyone, bob
// is told, the greedy bot plays the seat to the end and the final table
// marks it resigned. Anyone else, or a second time, is refused with a
// sentence (in the reader's language) and nothing changes.
func TestResign(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	eve := s.signup("eve")
	page := fmt.Sprintf("/games/%d", id)
	if _, body := ana.get(page); !viewtest.Has(t, body, `a[href="`+page+`/resign"]`) {
		t.Fatal("the game page offers no way to resign")
	}
	code, body := ana.get(page + "/resign")
	if code != http.StatusOK || !viewtest.HasText(t, body, "h1", fmt.Sprintf("Resign game %d?", id)) || !viewtest.Has(t, body, `form[action="`+page+`/resign"]`) || !strings.Contains(body, "Keep playing") {
		t.Fatalf("the confirmation: %d\n%s", code, body)
	}
	eve.post("/language", url.Values{"lang": {"fa"}})
	if code, body := eve.post(page+"/resign", nil); code != http.StatusForbidden || !strings.Contains(body, "شما در این بازی صندلی ندارید") {
		t.Fatalf("eve resigning a game she does not play: %d\n%.400s", code, body)
	}
	before, _ := s.store.LoadGame(id)
	if code, _ := ana.post(page+"/resign", nil); code != http.StatusOK {
		t.Fatalf("resigning: %d", code)
	}
	_, body = ana.get(page)
	for _, want := range []string{"You resigned this game", "ana resigned: the stand-in bot plays their seat to the end.", "(resigned)"} {
		if !strings.Contains(body, want) {
			t.Fatalf("after resigning, ana's page lacks %q", want)
		}
	}
	if viewtest.Has(t, body, `[href="`+page+`/resign"]`) || viewtest.Has(t, body, "#hand") {
		t.Fatal("after resigning, ana is still offered to resign or shown a hand")
	}
	if code, _ := ana.post(page+"/resign", nil); code != http.StatusForbidden {
		t.Fatalf("resigning twice: %d", code)
	}
	_, body = bob.get("/notifications")
	if !strings.Contains(body, fmt.Sprintf("ana resigned in game %d: the stand-in bot plays their seat to the end.", id)) {
		t.Fatal("bob is not told that ana resigned")
	}
	l, _ := s.store.LoadGame(id)
	if l.Game.Version <= before.Game.Version {
		t.Fatal("the resignation changed nothing")
	}
	// ana's games list it, running, as resigned, not waiting on her.
	if _, home := ana.get("/"); !viewtest.HasText(t, home, fmt.Sprintf(`tr:has(a[href="%s"]) td`, page), "You resigned this game: the stand-in bot plays your seat to the end.") {
		t.Fatalf("ana's games do not list the game she resigned:\n%s", viewtest.Show(t, home, "#home-lists"))
	}
	// bob plays to the end against the bot in ana's seat.
	s.playToEnd(id, engine.NewRand(2), bob)
	_, body = bob.get(page)
	// ana's name in the final table is followed by the mark.
	if !viewtest.HasText(t, body, `#final .result-name:has(a[href="/users/ana"]) > a + span.status`, "(resigned)") {
		t.Fatalf("the final table does not mark ana resigned:\n%s", viewtest.Show(t, body, "#final .result-name"))
	}
	// The stand-in (the greedy bot) outscored bob, who played at random.
	// ana lost all the same: her seat is last, bob the winner, in the
	// places kept, the final table and bob's news; her profile counts the
	// game finished and resigned, neither won nor in any place, and her
	// lists of games won and lost say so.
	l, _ = s.store.LoadGame(id)
	var mine, his models.Seat
	for _, seat := range l.Seats {
		if seat.ResignedID != nil {
			mine = seat
		} else {
			his = seat
		}
	}
	if mine.Score <= his.Score {
		t.Fatalf("the stand-in made %d points of ana's seat, bob %d: the checks below need the stand-in ahead", mine.Score, his.Score)
	}
	if mine.Place != 2 || his.Place != 1 {
		t.Fatalf("ana's resigned seat is placed %d, bob %d; want 2 and 1", mine.Place, his.Place)
	}
	if got := viewtest.Text(t, body, "#final .standing.winner .result-name"); got != "bob" {
		t.Fatalf("the final table's winner is %q; want bob", got)
	}
	if _, news := bob.get("/notifications"); !strings.Contains(news, fmt.Sprintf("Game %d is over: you won.", id)) {
		t.Fatal("bob is not told he won")
	}
	if _, profile := bob.get("/users/bob"); described(t, profile, "Wins") != "1" {
		t.Fatalf("bob's profile after ana resigned:\n%s", viewtest.Show(t, profile, "dl.stats"))
	}
	_, body = ana.get("/users/ana")
	if described(t, body, "Finished") != "1" || described(t, body, "Wins") != "0" || described(t, body, "Resignations") != "1" || strings.Contains(viewtest.Text(t, body, "dl.stats"), "place") {
		t.Fatalf("ana's profile after resigning:\n%s", viewtest.Show(t, body, "dl.stats"))
	}
	if got, want := viewtest.Text(t, body, ".result"), fmt.Sprintf("Resigned (the stand-in bot made %d points)", mine.Score); got != want {
		t.Fatalf("ana's profile lists the game as %q; want %q", got, want)
	}
	game := fmt.Sprintf(`#home-lists a[href="%s"]`, page)
	for result, want := range map[string]bool{"won": false, "lost": true} {
		if _, body = ana.get("/?finished=all&result=" + result); viewtest.Has(t, body, game) != want {
			t.Errorf("ana's games %s list the game she resigned: %v; want %v", result, !want, want)
		}
	}
}

// TestRematchFromTheFinalTable: the players of a finished game (not a
// watcher) are offered a rematch; the one who asks lands on the new table,
// the other finds it linked from the final table with Accept; accepted, it
// is under way.
func TestRematchFromTheFinalTable(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	eve := s.signup("eve")
	s.playToEnd(id, engine.NewRand(1), ana, bob)
	old := fmt.Sprintf("/games/%d", id)
	if _, page := eve.get(old); strings.Contains(page, old+"/rematch") {
		t.Fatal("a watcher is offered a rematch")
	}
	if code, body := eve.post(old+"/rematch", nil); code != http.StatusUnprocessableEntity || !strings.Contains(body, "Only the players of this game may ask for a rematch") {
		t.Fatalf("a watcher's rematch: %d", code)
	}
	if _, page := ana.get(old); !viewtest.Has(t, page, fmt.Sprintf(`form[action="%s/rematch"]`, old)) {
		t.Fatal("ana is not offered a rematch")
	}
	_, page := ana.post(old+"/rematch", nil)
	m := gameIDRE.FindStringSubmatch(page)
	if m == nil || m[1] == fmt.Sprint(id) || !strings.Contains(page, fmt.Sprintf("A rematch of game %d.", id)) {
		t.Fatalf("after asking for a rematch ana is on:\n%.300s", page)
	}
	rematch := "/games/" + m[1]
	_, page = bob.get(old)
	if !viewtest.HasText(t, page, fmt.Sprintf(`a[href="%s"]`, rematch), "Rematch: game "+m[1]) || !strings.Contains(page, "(waiting for bob)") ||
		!viewtest.Has(t, page, fmt.Sprintf(`form[action="%s/join"]`, rematch)) || strings.Contains(page, old+"/rematch") {
		t.Fatal("bob's final table does not offer the rematch")
	}
	bob.post(rematch+"/join", nil)
	if _, page := ana.get(old); !strings.Contains(page, "(under way)") {
		t.Fatal("the rematch is not under way once bob accepted")
	}
}
