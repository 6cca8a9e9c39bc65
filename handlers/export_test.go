package handlers_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

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
		} `json:"games"`
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
		case running:
			if len(g.Record) != 0 {
				t.Fatal("the running game's record (its piles) is in the download")
			}
		default:
			t.Fatalf("a game ana does not play: %d", g.ID)
		}
	}
	l, _ := s.store.LoadGame(running)
	if strings.Contains(body, l.Game.Setup) || strings.Contains(body, "secret-") || strings.Contains(body, "password") {
		t.Fatal("the download shows a running game's setup or a secret")
	}
	if _, other := bob.get("/settings/data"); strings.Contains(other, fmt.Sprintf(`"id": %d,`, running)) {
		t.Fatal("bob's download lists ana's game against the bot")
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
