package handlers_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"cacao/engine"
	"cacao/models"
	"cacao/views/viewtest"
)

// TestDownloadMyData: the download holds the viewer's account, their
// notifications and their games, with the record of a finished game and
// none of a running one (it would show the piles), and nothing of anyone
// else's account.
func TestDownloadMyData(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	ana.post(fmt.Sprintf("/games/%d/chat", id), url.Values{"text": {"ana's word"}})
	bob.post(fmt.Sprintf("/games/%d/chat", id), url.Values{"text": {"bob's word"}})
	s.playToEnd(id, engine.NewRand(1), ana, bob)
	running := ana.createGame("greedy", "none", "none")
	// Her review of the finished game, and a private tournament of hers
	// to which bob is invited.
	anaUser, _ := s.store.UserNamed("ana")
	l, _ := s.store.LoadGame(id)
	seat, err := s.store.AskReview(l, anaUser.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.store.SaveReview(id, seat, []models.ReviewedTurn{{Seq: 0, Turn: 0, Best: "{}", PlayedWon: 0.25, BestWon: 0.5}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.store.CreateTournament(anaUser, models.TourSpec{Name: "Ana's cup", Format: models.Swiss, TurnHours: 24, RoundDays: 7, SignupDays: 1, Rounds: 2, MaxPlayers: 4, Private: true, Invite: []string{"bob"}}); err != nil {
		t.Fatal(err)
	}
	code, body := ana.get("/settings/data")
	if code != http.StatusOK {
		t.Fatalf("download: %d", code)
	}
	var d struct {
		Account struct {
			Username string `json:"username"`
		} `json:"account"`
		Notifications []struct{ Text string } `json:"notifications"`
		Games         []struct {
			ID     uint            `json:"id"`
			Status string          `json:"status"`
			Record json.RawMessage `json:"record"`
			Review []struct {
				Turn      int     `json:"turn"`
				PlayedWon float64 `json:"won_after_my_move"`
			} `json:"review"`
		} `json:"games"`
		Tournaments []struct {
			Name    string `json:"name"`
			Joined  bool   `json:"signed_up"`
			Created bool   `json:"created_by_me"`
		} `json:"tournaments"`
		Messages []struct {
			Game uint   `json:"game"`
			Text string `json:"text"`
		} `json:"chat_messages"`
	}
	if err := json.Unmarshal([]byte(body), &d); err != nil {
		t.Fatalf("not JSON: %v\n%.300s", err, body)
	}
	if d.Account.Username != "ana" || len(d.Notifications) == 0 || len(d.Games) != 2 || len(d.Messages) != 1 || d.Messages[0].Text != "ana's word" || d.Messages[0].Game != id {
		t.Fatalf("the download: %+v", d)
	}
	for _, g := range d.Games {
		switch g.ID {
		case id:
			if g.Status != models.StatusFinished || !strings.Contains(string(g.Record), `"setup"`) {
				t.Fatalf("the finished game has no record: %s", g.Record)
			}
			if len(g.Review) != 1 || g.Review[0].Turn != 1 || g.Review[0].PlayedWon != 0.25 {
				t.Fatalf("the finished game's review: %+v", g.Review)
			}
		case running:
			if len(g.Record) != 0 {
				t.Fatal("the running game's record (its piles) is in the download")
			}
		default:
			t.Fatalf("a game ana does not play: %d", g.ID)
		}
	}
	if len(d.Tournaments) != 1 || d.Tournaments[0].Name != "Ana's cup" || !d.Tournaments[0].Joined || !d.Tournaments[0].Created {
		t.Fatalf("ana's tournaments: %+v", d.Tournaments)
	}
	l, _ = s.store.LoadGame(running)
	if strings.Contains(body, l.Game.Setup) || strings.Contains(body, "secret-") || strings.Contains(body, "password") {
		t.Fatal("the download shows a running game's setup or a secret")
	}
	_, other := bob.get("/settings/data")
	if strings.Contains(other, fmt.Sprintf(`"id": %d,`, running)) || strings.Contains(other, "won_after_my_move") {
		t.Fatal("bob's download lists ana's game against the bot, or her review")
	}
	if !strings.Contains(other, `"signed_up": false`) {
		t.Fatal("bob's download does not list the tournament he is invited to")
	}
	// Each replays every finished game: three in a row, then one in 20
	// minutes.
	for i := 2; i <= 4; i++ {
		code, body := ana.get("/settings/data")
		if i <= 3 && code != http.StatusOK || i == 4 && (code != http.StatusTooManyRequests || !strings.Contains(body, "Too many requests. Try again in 20 minutes.")) {
			t.Fatalf("ana's download %d in a row: %d", i, code)
		}
	}
	s.clock.Advance(20 * time.Minute)
	if code, _ := ana.get("/settings/data"); code != http.StatusOK {
		t.Fatalf("ana's download 20 minutes later: %d", code)
	}
}

// TestDownloadResignedGames: a game the viewer resigned is in their
// download while the bot plays on, and with its record once it is over;
// their profile lists it too.
func TestDownloadResignedGames(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	if code, _ := ana.post(fmt.Sprintf("/games/%d/resign", id), nil); code != http.StatusOK {
		t.Fatalf("resigning: %d", code)
	}
	status := func() (string, bool) {
		t.Helper()
		_, body := ana.get("/settings/data")
		var d struct {
			Games []struct {
				ID     uint            `json:"id"`
				Status string          `json:"status"`
				Record json.RawMessage `json:"record"`
			} `json:"games"`
		}
		if err := json.Unmarshal([]byte(body), &d); err != nil {
			t.Fatal(err)
		}
		for _, g := range d.Games {
			if g.ID == id {
				return g.Status, strings.Contains(string(g.Record), `"setup"`)
			}
		}
		return "", false
	}
	if st, _ := status(); st != models.StatusActive {
		t.Fatalf("the game ana resigned, still played, is in her download as %q", st)
	}
	s.playToEnd(id, engine.NewRand(1), bob)
	if st, record := status(); st != models.StatusFinished || !record {
		t.Fatalf("the game ana resigned, over, is in her download as %q (record: %v)", st, record)
	}
	if _, page := s.client("anon").get("/users/ana"); !viewtest.Has(t, page, fmt.Sprintf(`a[href="/games/%d"]`, id)) {
		t.Fatal("ana's profile does not list the game she resigned")
	}
}
