package handlers

import (
	"fmt"

	"github.com/labstack/echo/v4"

	"cacao/models"
)

// abort asks, or agrees, to end the game without a result
// (models.Store.AskAbort), and shows the game. A game the viewer may not
// watch is not found.
func (s *Server) abort(c echo.Context) error {
	l, err := s.loadGame(c)
	if err != nil {
		return err
	}
	u := currentUser(c)
	if !models.Watchable(l.Game, l.Seats, u) {
		return models.ErrNotFound
	}
	if _, err := s.store.AskAbort(l, u.ID); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/games/%d", l.Game.ID))
}
