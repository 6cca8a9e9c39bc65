package handlers

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"cacao/models"
)

// myData is everything the site keeps about one account, for "Download
// my data": the account and its settings, its notifications, its games
// (with the record of each finished one; a running game's record would
// show the piles, so it has none, and the review of its turns it asked
// for), the tournaments it entered, the chat messages it wrote and its
// access tokens (never their text or hash).
type myData struct {
	Account struct {
		Username      string              `json:"username"`
		Created       time.Time           `json:"created"`
		Lang          string              `json:"language,omitempty"`
		Email         string              `json:"email,omitempty"`
		EmailVerified bool                `json:"email_verified"`
		News          map[string][]string `json:"news_by_channel"`
		Webhook       string              `json:"webhook,omitempty"`
		Devices       []myDevice          `json:"push_devices"`
		VacationUntil *time.Time          `json:"vacation_until,omitempty"`
		VacationDays  int                 `json:"vacation_days_used"`
		AutoDecide    bool                `json:"always_decide_for_me"`
		BoardSize     string              `json:"board_size,omitempty"`
		BotAccount    bool                `json:"bot_account,omitempty"`
		BotOpen       bool                `json:"others_may_seat_my_bot,omitempty"`
		Tokens        []myToken           `json:"access_tokens"`
	} `json:"account"`
	Notifications []myNotice `json:"notifications"`
	Games         []myGame   `json:"games"`
	Tournaments   []myTour   `json:"tournaments"`
	Messages      []myChat   `json:"chat_messages"`
}

type myTour struct {
	ID      uint   `json:"id"`
	Name    string `json:"name"`
	State   string `json:"state"`
	Joined  bool   `json:"signed_up"` // false: invited to it, not signed up
	Place   int    `json:"place,omitempty"`
	Created bool   `json:"created_by_me,omitempty"`
}

type myReviewedTurn struct {
	Turn      int     `json:"turn"`
	PlayedWon float64 `json:"won_after_my_move"`
	BestWon   float64 `json:"won_after_the_bots"`
	BotMove   string  `json:"the_bots_move"`
}

type myToken struct {
	Name     string     `json:"name"`
	Scopes   []string   `json:"scopes"`
	Created  time.Time  `json:"created"`
	LastUsed *time.Time `json:"last_used"` // null: never used
}

type myDevice struct {
	Device  string    `json:"device"`
	Created time.Time `json:"registered"`
}

type myChat struct {
	Game    uint      `json:"game"`
	Text    string    `json:"text"`
	Hidden  bool      `json:"hidden_by_an_admin,omitempty"`
	Created time.Time `json:"created"`
}

type myNotice struct {
	Game    uint      `json:"game,omitempty"`
	Kind    string    `json:"kind"`
	Text    string    `json:"text"`
	Read    bool      `json:"read"`
	Created time.Time `json:"created"`
}

type myGame struct {
	ID      uint             `json:"id"`
	Status  string           `json:"status"`
	Players []string         `json:"players"`
	Note    string           `json:"note,omitempty"` // the player's private note
	Record  json.RawMessage  `json:"record,omitempty"`
	Review  []myReviewedTurn `json:"review,omitempty"`
}

// exportMyData downloads the viewer's data as one JSON file.
func (s *Server) exportMyData(c echo.Context) error {
	u := currentUser(c)
	if d := s.take(c, exportKey(u.ID)); d > 0 {
		return &errSpent{wait: d, of: spentRequests}
	}
	var d myData
	a := &d.Account
	a.Username, a.Created, a.Lang, a.Email, a.EmailVerified = u.Username, u.CreatedAt, u.Lang, u.Email, u.EmailVerified
	a.News, a.Webhook = u.Choices().Names(), u.HookURL
	subs, err := s.store.PushSubs(u.ID)
	if err != nil {
		return err
	}
	a.Devices = make([]myDevice, 0, len(subs))
	for _, sub := range subs {
		a.Devices = append(a.Devices, myDevice{Device: sub.Device, Created: sub.CreatedAt})
	}
	tokens, err := s.store.Tokens(u.ID)
	if err != nil {
		return err
	}
	a.Tokens = make([]myToken, 0, len(tokens))
	for _, t := range tokens {
		a.Tokens = append(a.Tokens, myToken{Name: t.Name, Scopes: t.ScopeList(), Created: t.CreatedAt, LastUsed: t.UsedAt})
	}
	a.VacationUntil, a.VacationDays, a.AutoDecide, a.BoardSize = u.VacationUntil, u.VacationDays, u.AutoDecide, u.BoardSize
	a.BotAccount, a.BotOpen = u.BotAccount, u.BotOpen
	ns, _, err := s.store.Notifications(u.ID, 0, -1)
	if err != nil {
		return err
	}
	d.Notifications = make([]myNotice, 0, len(ns))
	for _, n := range ns {
		d.Notifications = append(d.Notifications, myNotice{Game: n.GameID, Kind: string(n.Kind), Text: n.Text, Read: n.Read, Created: n.CreatedAt})
	}
	games, err := s.store.AccountGames(u.ID) // resigned ones too
	if err != nil {
		return err
	}
	notes, err := s.store.Notes(u.ID)
	if err != nil {
		return err
	}
	reviews, err := s.store.ReviewsBy(u.ID)
	if err != nil {
		return err
	}
	d.Games = make([]myGame, 0, len(games))
	for _, g := range games {
		mg := myGame{ID: g.Game.ID, Status: g.Game.Status, Note: notes[g.Game.ID]}
		for _, t := range reviews[g.Game.ID] {
			mg.Review = append(mg.Review, myReviewedTurn{Turn: t.Turn + 1, PlayedWon: t.PlayedWon, BestWon: t.BestWon, BotMove: t.Best})
		}
		for _, seat := range g.Seats {
			mg.Players = append(mg.Players, seat.Name)
		}
		if g.Game.Status == models.StatusFinished || g.Game.Status == models.StatusEnded {
			l, err := s.store.LoadGame(g.Game.ID)
			if err != nil {
				return err
			}
			if mg.Record, err = l.Play.Record().Encode(); err != nil {
				return err
			}
		}
		d.Games = append(d.Games, mg)
	}
	tours, entries, err := s.store.Entered(u.ID)
	if err != nil {
		return err
	}
	d.Tournaments = make([]myTour, len(tours))
	for i, t := range tours {
		d.Tournaments[i] = myTour{ID: t.ID, Name: t.Name, State: string(t.State), Joined: entries[i].Joined, Place: entries[i].Place, Created: t.CreatorID == u.ID}
	}
	msgs, err := s.store.MyMessages(u.ID)
	if err != nil {
		return err
	}
	d.Messages = make([]myChat, 0, len(msgs))
	for _, m := range msgs {
		d.Messages = append(d.Messages, myChat{Game: m.GameID, Text: m.Text, Hidden: m.Hidden, Created: m.CreatedAt})
	}
	data, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", `attachment; filename="cacao-my-data.json"`)
	return send(c, http.StatusOK, "application/json", data)
}
