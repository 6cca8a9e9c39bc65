package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// markBot makes the viewer's account a bot account (models.MarkBot), once
// they ticked that they understand it stays one.
func (s *Server) markBot(c echo.Context) error {
	u := currentUser(c)
	if c.FormValue("sure") == "" {
		return s.renderSettings(c, http.StatusUnprocessableEntity, u, tr(c, "Tick the box first: a bot account stays one."))
	}
	if err := s.store.MarkBot(u.ID); err != nil {
		return s.settingsRefused(c, u, err)
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "This is a bot account now: its program plays through the API with an access token."))
	return redirect(c, "/settings#bot-h")
}

// setBotOpen lets others seat the viewer's bot account at their tables,
// or stops them, as the form says.
func (s *Server) setBotOpen(c echo.Context) error {
	u := currentUser(c)
	open := c.FormValue("open") != ""
	if err := s.store.SetBotOpen(u.ID, open); err != nil {
		return s.settingsRefused(c, u, err)
	}
	msg := tr(c, "Others may now seat your bot at their tables.")
	if !open {
		msg = tr(c, "Others may no longer seat your bot: it joins tables and accepts invitations itself.")
	}
	s.sessions.Put(c.Request().Context(), "flash", msg)
	return redirect(c, "/settings#bot-h")
}
