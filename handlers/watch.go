package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"cacao/models"
	"cacao/views"
)

// watchPage is how many games the list of games being played shows at
// once.
const watchPage = 30

// watchable lets through those who may see the game the address names
// (models.Store.CanWatch); for anyone else it does not exist.
func (s *Server) watchable(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id, err := gameID(c)
		if err != nil {
			return err
		}
		ok, err := s.store.CanWatch(id, currentUser(c))
		if err != nil {
			return err
		}
		if !ok {
			return models.ErrNotFound
		}
		return next(c)
	}
}

// watchList lists the public games being played, for anyone to watch.
func (s *Server) watchList(c echo.Context) error {
	games, total, more, err := s.store.PublicGames(from(c), watchPage)
	if err != nil {
		return err
	}
	vm := views.WatchVM{Page: s.page(c, tr(c, "Games being played")), Pager: views.Pager{Base: "/games", Offset: from(c), Size: watchPage, Total: total, More: more}}
	now := s.store.Clock()
	for _, g := range games {
		vm.Games = append(vm.Games, gameLine(lang(c), g, now, 0))
	}
	if err := s.rateLines(c, vm.Games, games); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.WatchPage(vm))
}
