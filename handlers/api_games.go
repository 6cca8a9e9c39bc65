package handlers

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"cacao/engine"
	"cacao/handlers/api"
	"cacao/models"
)

// apiPageSize is how many of the caller's games one answer lists.
const apiPageSize = 100

// apiAccount is the caller's account.
func (s *Server) apiAccount(c echo.Context) error {
	u := currentUser(c)
	tok := c.Get(tokenKey).(*models.Token)
	return c.JSON(http.StatusOK, api.Account{ID: u.ID, Name: u.Username, Scopes: tok.ScopeList(), Lang: lang(c).Code, Bot: u.BotAccount, BotOpen: u.BotOpen})
}

// apiGames lists the caller's games not over (those waiting on them
// first), ?from=N on.
func (s *Server) apiGames(c echo.Context) error {
	games, _, err := s.store.MyGames(currentUser(c).ID, from(c), apiPageSize)
	return s.apiList(c, games, err)
}

// apiList answers a list of games as the caller sees them in a list.
func (s *Server) apiList(c echo.Context, games []models.GameSummary, err error) error {
	if err != nil {
		return err
	}
	u := currentUser(c)
	out := make([]api.Summary, 0, len(games))
	for _, g := range games {
		sum := api.Summary{ID: g.Game.ID, Status: g.Game.Status, Version: g.Game.Version, Players: apiPlayers(g.Game, g.Seats),
			You: models.UserSeat(g.Seats, u.ID), YourMove: g.WaitingOnMe, Deadline: g.Deadline}
		if g.Resigned {
			sum.You = -1
		}
		out = append(out, sum)
	}
	return c.JSON(http.StatusOK, out)
}

// apiPlayers writes a game's seats, in play order once it has started.
func apiPlayers(g models.Game, seats []models.Seat) []api.Player {
	out := make([]api.Player, 0, len(seats))
	for i, seat := range seats {
		out = append(out, api.Player{Seat: i, Name: seat.Name, Bot: seat.Bot, Guest: seat.Guest, BotAccount: seat.Robot,
			Open: g.Status == models.StatusOpen && seat.UserID == nil && seat.Bot == ""})
	}
	return out
}

// apiLoad loads the game asked for and the caller's seat in it (-1: they
// watch it); a game they may not watch is not found.
func (s *Server) apiLoad(c echo.Context) (*models.Loaded, int, error) {
	l, err := s.loadGame(c)
	if err != nil {
		return nil, -1, err
	}
	u := currentUser(c)
	seat := l.SeatOf(u.ID)
	if seat < 0 && !models.Watchable(l.Game, l.Seats, u) {
		return nil, -1, models.ErrNotFound
	}
	return l, seat, nil
}

// apiGame is a game as the caller's seat sees it, or as a watcher does.
func (s *Server) apiGame(c echo.Context) error {
	l, seat, err := s.apiLoad(c)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, apiGameOf(l, seat))
}

// apiGameOf writes l as seat (-1: a watcher) sees it.
func apiGameOf(l *models.Loaded, seat int) api.Game {
	var g api.Game
	if l.Play != nil {
		viewer := seat
		if viewer < 0 {
			viewer = engine.Spectator
		}
		g = api.GameOf(l.Play.State().View(viewer))
	} else {
		g.Board, g.Display, g.Villages, g.Scores = []api.Tile{}, []string{}, []api.Village{}, []api.Score{}
		if seat >= 0 {
			g.You = &seat
		}
	}
	g.ID, g.Status, g.Version, g.Players = l.Game.ID, l.Game.Status, l.Game.Version, apiPlayers(l.Game, l.Seats)
	return g
}

// apiMoves lists the caller's legal moves on their turn, each with what
// it brings.
func (s *Server) apiMoves(c echo.Context) error {
	l, seat, err := s.apiLoad(c)
	if err != nil {
		return err
	}
	if err := canMove(l, seat); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, api.Options(l.Play.State(), seat))
}

// canMove refuses a caller who cannot place a tile now.
func canMove(l *models.Loaded, seat int) error {
	if seat < 0 {
		return models.ErrForbidden
	}
	if l.Play == nil || l.Game.Status != models.StatusActive {
		return refusal(http.StatusUnprocessableEntity, "the game is not being played")
	}
	st := l.Play.State()
	switch {
	case st.Over():
		return refusal(http.StatusUnprocessableEntity, "the game is over")
	case st.Current() != seat:
		return refusal(http.StatusUnprocessableEntity, "not this seat's turn")
	case len(st.Player(seat).Queue()) > 0:
		return refusal(http.StatusUnprocessableEntity, "resolve your pending choices before placing a tile")
	}
	return nil
}

// apiTurn commits the caller's turn: a record's turn object and the
// version of the game it was chosen on. The answer is the game after it,
// and after the bots' answers.
func (s *Server) apiTurn(c echo.Context) error {
	var t api.Turn
	return s.apiPlay(c, &t, &t.Version, func() (models.Play, error) {
		m, err := t.Parse()
		return models.Play{Move: &m}, err
	})
}

// apiChoice commits the caller's choice for their first waiting batch.
func (s *Server) apiChoice(c echo.Context) error {
	var ch api.Choice
	return s.apiPlay(c, &ch, &ch.Version, func() (models.Play, error) {
		acts, err := api.ParseActs(ch.Acts)
		return models.Play{Acts: acts}, err
	})
}

// apiPlay reads a turn's or a choice's body into body, whose version
// (the game's, the play was chosen on) it then finds in *version, and
// commits on the caller's seat the play that parse reads from it.
func (s *Server) apiPlay(c echo.Context, body any, version **int, parse func() (models.Play, error)) error {
	if err := readJSON(c, body); err != nil {
		return err
	}
	l, seat, err := s.apiLoad(c)
	if err != nil {
		return err
	}
	if seat < 0 {
		return models.ErrForbidden
	}
	if *version == nil {
		return refusal(http.StatusUnprocessableEntity, "send the version of the game the move was chosen on")
	}
	p, err := parse()
	if err != nil {
		return err
	}
	v := **version
	return s.apiCommit(c, l, func() (*models.Loaded, error) {
		return s.store.CommitOn(l, v, models.Actor{UserID: currentUser(c).ID}, p)
	})
}

// apiCommit runs a commit and lets the bots answer, as the pages do
// (afterCommit); the answer is the game as the caller's seat then sees it.
func (s *Server) apiCommit(c echo.Context, l *models.Loaded, commit func() (*models.Loaded, error)) error {
	done, err := commit()
	if err != nil {
		return err
	}
	fresh, err := s.bots.Bots(l.Game.ID, done)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, apiGameOf(fresh, fresh.SeatOf(currentUser(c).ID)))
}

// apiChat reads the game's chat as its page shows it: at most the newest
// models.ChatShown messages before ?before= (0: the newest), oldest first;
// none of a chat the caller muted. Reading it marks it read, as the page.
func (s *Server) apiChat(c echo.Context) error {
	l, _, err := s.apiLoad(c)
	if err != nil {
		return err
	}
	u := currentUser(c)
	out := []api.Chat{}
	i := models.UserSeat(l.Seats, u.ID)
	if i >= 0 && l.Seats[i].ChatMuted || l.Game.LastChat == 0 {
		return c.JSON(http.StatusOK, out)
	}
	before, _ := strconv.ParseUint(c.QueryParam("before"), 10, 32)
	msgs, _, err := s.store.Chat(l.Game.ID, uint(before))
	if err != nil {
		return err
	}
	for _, m := range msgs {
		line := api.Chat{ID: m.ID, Name: m.Name, Text: m.Text, At: m.CreatedAt, Hidden: m.Hidden}
		if m.Hidden {
			line.Text = ""
		}
		out = append(out, line)
	}
	if before == 0 && i >= 0 && l.Seats[i].ChatUnread > 0 {
		if err := s.store.ReadChat(u.ID, l.Game.ID); err != nil {
			return err
		}
	}
	return c.JSON(http.StatusOK, out)
}

// apiSay posts a message to the game's chat, as the chat's form does.
func (s *Server) apiSay(c echo.Context) error {
	var say api.Say
	if err := readJSON(c, &say); err != nil {
		return err
	}
	l, _, err := s.apiLoad(c)
	if err != nil {
		return err
	}
	msg, err := s.store.Say(currentUser(c), l.Game.ID, say.Text)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]uint{"id": msg.ID})
}
