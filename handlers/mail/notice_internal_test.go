package mail

import (
	"strings"
	"testing"

	"cacao/models"
	"cacao/models/modeltest"
)

// A notice leads to its game; one without a game to the page its kind
// names (a tournament's news: the tournaments), or else the home page.
func TestNoticeLinks(t *testing.T) {
	o := &Outbox{BaseURL: "https://cacao.example/"}
	for _, tc := range []struct {
		m    models.Mail
		want string
	}{
		{models.Mail{GameID: 5, Kind: models.KindTurn, Text: "It is your turn in game 5."}, "https://cacao.example/games/5"},
		{models.Mail{GameID: 7, Kind: models.KindTourRound, Text: "Round 1 of the tournament Cup has started: your game is game 7."}, "https://cacao.example/games/7"},
		{models.Mail{Kind: models.KindTourEnded, Text: "The tournament Cup is over: ana won it."}, "https://cacao.example/tournaments"},
		{models.Mail{Kind: models.KindTest, Text: "A test."}, "https://cacao.example/"},
	} {
		if _, _, link := o.notice(&tc.m, models.Recipient{}); link != tc.want {
			t.Errorf("%s: %s; want %s", tc.m.Kind, link, tc.want)
		}
	}
}

// A mail of news of no game (a tournament's) leads to its page, never to
// a game 0 that is not.
func TestComposeWithoutAGame(t *testing.T) {
	store, err := models.Open(modeltest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	o := &Outbox{BaseURL: "https://cacao.example", Store: store, Signer: NewSigner([]byte("0123456789abcdef0123456789abcdef"))}
	m := models.Mail{ID: 1, UserID: 2, Kind: models.KindTourEnded, Text: "The tournament Cup is over: ana won it."}
	body := o.Compose(&m, models.Recipient{User: models.User{Username: "bob"}, To: "bob@example.org"}).Body
	if !strings.Contains(body, "The tournament Cup is over: ana won it.\n\nSee it on the site:\nhttps://cacao.example/tournaments\n") || strings.Contains(body, "/m/go") {
		t.Fatalf("the mail:\n%s", body)
	}
}
