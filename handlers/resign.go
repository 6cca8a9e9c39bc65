package handlers

import (
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"cacao/models"
	"cacao/views"
)

// resignForm asks a seated player of a running game to confirm that they
// resign (a page of its own: it works without JavaScript).
func (s *Server) resignForm(c echo.Context) error {
	l, err := s.loadGame(c)
	if err != nil {
		return err
	}
	if err := canResign(l, currentUser(c).ID); err != nil {
		return err
	}
	lg := lang(c)
	return render(c, http.StatusOK, views.ResignPage(s.page(c, lg.T("Resign game %d?", int(l.Game.ID))), l.Game.ID))
}

// resign gives the player's seat to the stand-in bot for the rest of the
// game (models.Store.Resign), lets the bots play, and shows the game.
func (s *Server) resign(c echo.Context) error {
	l, err := s.loadGame(c)
	if err != nil {
		return err
	}
	user := currentUser(c).ID
	if err := canResign(l, user); err != nil {
		return err
	}
	done, err := s.store.Resign(l.Game.ID, user)
	if err != nil {
		return err
	}
	if _, err := s.bots.Bots(l.Game.ID, done); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/games/%d", l.Game.ID))
}

// canResign refuses, in a sentence, a resignation user cannot make in l.
func canResign(l *models.Loaded, user uint) error {
	switch {
	case l.SeatOf(user) < 0:
		return refusal(http.StatusForbidden, "you hold no seat in this game")
	case l.Game.Status != models.StatusActive:
		return refusal(http.StatusConflict, "this game is not being played: there is nothing to resign")
	}
	return nil
}

// rematch proposes a rematch of the finished game (or goes to the one
// proposed already); the bots of a rematch that starts at once play. A
// rematch is a game opened: it takes one of the player's games in a row.
func (s *Server) rematch(c echo.Context) error {
	l, err := s.loadGame(c)
	if err != nil {
		return err
	}
	u := currentUser(c)
	if !models.PlayedBy(l.Seats, u.ID) {
		return models.ErrRematchNotMine
	}
	if l.Game.RematchID == nil {
		if err := s.takeNewGame(c, u); err != nil {
			return s.refuseHomeFor(c, u, err)
		}
	}
	g, err := s.store.Rematch(u, l.Game.ID)
	if err != nil {
		return err
	}
	if g.Status == models.StatusActive {
		if _, err := s.bots.Bots(g.ID, nil); err != nil {
			return err
		}
	}
	return redirect(c, fmt.Sprintf("/games/%d", g.ID))
}
