package handlers

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
)

// takeBack gives the player their abandoned seat back
// (models.Store.TakeBack) and shows the game.
func (s *Server) takeBack(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	if _, err := s.store.TakeBack(id, currentUser(c).ID); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/games/%d", id))
}

// handOver hands the seat of a player who has kept a game without a time
// limit waiting for a week to the stand-in bot (models.Store.HandOver), lets
// the bots play, and shows the game.
func (s *Server) handOver(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	seat, err := strconv.Atoi(c.FormValue("seat"))
	if err != nil {
		return refusal(http.StatusBadRequest, "choose whose seat to hand over")
	}
	done, err := s.store.HandOver(id, currentUser(c).ID, seat)
	if err != nil {
		return err
	}
	if _, err := s.bots.Bots(id, done); err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/games/%d", id))
}
