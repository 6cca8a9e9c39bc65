package handlers

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"cacao/handlers/api"
	"cacao/models"
	"cacao/models/autoplay"
)

// apiTables lists the lobby's tables the caller may join, newest first.
func (s *Server) apiTables(c echo.Context) error {
	games, _, err := s.store.OpenGames(currentUser(c).ID, from(c), apiPageSize)
	return s.apiList(c, games, err)
}

// apiInvitations lists the open tables that keep a seat for the caller.
func (s *Server) apiInvitations(c echo.Context) error {
	games, _, err := s.store.Invitations(currentUser(c).ID, from(c), apiPageSize)
	return s.apiList(c, games, err)
}

// apiCreate opens a table as the lobby's form does, within the same
// limit of games in a row; the answer (201) is the new game.
func (s *Server) apiCreate(c echo.Context) error {
	var t api.Table
	if err := readJSON(c, &t); err != nil {
		return err
	}
	if t.StandIn != "" && !slices.Contains(autoplay.Levels(), t.StandIn) {
		return models.ErrBadStandIn
	}
	u := currentUser(c)
	// A table the store refuses has taken its try all the same: the
	// limit is taken before the work.
	if err := s.takeNewGame(c, u); err != nil {
		return err
	}
	g, err := s.store.CreateGame(u, models.GameSpec{Seats: t.Seats, TurnHours: t.TurnHours, Private: t.Private, StandIn: t.StandIn})
	if err != nil {
		return err
	}
	return s.apiSeated(c, g.ID, http.StatusCreated)
}

// apiJoin takes an open seat of a table, or the one it keeps for the
// caller (accepting the invitation).
func (s *Server) apiJoin(c echo.Context) error {
	id, err := s.apiSeen(c)
	if err != nil {
		return err
	}
	if _, err := s.store.Join(id, "", currentUser(c)); err != nil {
		return err
	}
	return s.apiSeated(c, id, http.StatusOK)
}

// apiSeated lets the bots of game id play what they may and answers the
// game as the caller's seat sees it.
func (s *Server) apiSeated(c echo.Context, id uint, code int) error {
	l, err := s.bots.Bots(id, nil)
	if err != nil {
		return err
	}
	return c.JSON(code, apiGameOf(l, l.SeatOf(currentUser(c).ID)))
}

// apiDecline gives up the seat a table keeps for the caller (204).
func (s *Server) apiDecline(c echo.Context) error {
	id, err := s.apiSeen(c)
	if err != nil {
		return err
	}
	if err := s.store.Decline(id, currentUser(c)); err != nil {
		return err
	}
	c.Response().Header().Set("Content-Location", fmt.Sprintf("/api/v1/games/%d", id))
	return c.NoContent(http.StatusNoContent)
}

// apiSeen is the game asked for, one the caller may see: a private table
// that keeps no seat for them is not found, as it is not to its page.
func (s *Server) apiSeen(c echo.Context) (uint, error) {
	id, err := gameID(c)
	if err != nil {
		return 0, err
	}
	ok, err := s.store.CanWatch(id, currentUser(c))
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, models.ErrNotFound
	}
	return id, nil
}
