package handlers

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"cacao/models"
	"cacao/views"
)

// notesVM is the viewer's notes panel of game l, and whether they have
// one: a viewer who is not one of its players (seated, or resigned) keeps
// none.
func (s *Server) notesVM(c echo.Context, l *models.Loaded) (vm views.NotesVM, ok bool, err error) {
	u := currentUser(c)
	if u == nil || !models.PlayedBy(l.Seats, u.ID) {
		return views.NotesVM{}, false, nil
	}
	text, err := s.store.Note(u.ID, l.Game.ID)
	if err != nil {
		return views.NotesVM{}, false, err
	}
	vm = views.NotesVM{GameID: l.Game.ID, Text: text, Max: models.MaxNote}
	vm.CSRF, _ = c.Get("csrf").(string)
	return vm, true, nil
}

// saveNote keeps the viewer's private note on the game (models.SaveNote);
// a game the viewer may not watch is not found.
func (s *Server) saveNote(c echo.Context) error {
	l, err := s.loadGame(c)
	if err != nil {
		return err
	}
	if !models.Watchable(l.Game, l.Seats, currentUser(c)) {
		return models.ErrNotFound
	}
	text := c.FormValue("note")
	saveErr := s.store.SaveNote(currentUser(c).ID, l.Game.ID, text)
	if saveErr != nil && !errors.Is(saveErr, models.ErrInvalid) {
		return saveErr
	}
	if saveErr == nil && !isHTMX(c) {
		return redirect(c, fmt.Sprintf("/games/%d#notes", l.Game.ID))
	}
	vm, ok, err := s.notesVM(c, l)
	if err != nil {
		return err
	}
	if !ok { // not a player: refused above
		code, msg := status(lang(c), saveErr)
		return echo.NewHTTPError(code, msg)
	}
	code := http.StatusOK
	if saveErr != nil {
		code, vm.Error = status(lang(c), saveErr)
		vm.Text = text
	} else {
		vm.Saved = true
	}
	if isHTMX(c) {
		return render(c, code, views.NotesPanel(vm))
	}
	game := s.gameVM(c, l, views.Selection{})
	game.Notes = &vm
	return render(c, code, views.GamePage(game))
}
