package handlers

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"cacao/models"
	"cacao/views"
)

// tokensVM fills the settings' access tokens: each with its scopes, when
// it was made and last used, in the viewer's time zone.
func (s *Server) tokensVM(c echo.Context, u *models.User, vm *views.SettingsVM) error {
	tokens, err := s.store.Tokens(u.ID)
	if err != nil {
		return err
	}
	l := lang(c)
	for _, t := range tokens {
		line := views.TokenLine{ID: t.ID, Name: t.Name, Scopes: t.ScopeList(), Made: l.Date(t.CreatedAt, true, true)}
		if t.UsedAt != nil {
			line.Used = l.Date(*t.UsedAt, true, true)
		}
		vm.Tokens = append(vm.Tokens, line)
	}
	return nil
}

// makeToken makes the viewer an access token named and scoped as the
// form says, and shows the settings with its text: this once, which is
// why the page is the answer to the post and not a redirect (the text is
// kept nowhere, not in the session either).
func (s *Server) makeToken(c echo.Context) error {
	u := currentUser(c)
	form, err := c.FormParams()
	if err != nil {
		return err
	}
	name := strings.TrimSpace(c.FormValue("name"))
	text, err := s.store.CreateToken(u.ID, name, form["scope"])
	if err != nil {
		return s.settingsRefused(c, u, err)
	}
	vm, err := s.settingsVM(c, u, "")
	if err != nil {
		return err
	}
	vm.NewToken, vm.NewTokenName = text, name
	return render(c, http.StatusOK, views.SettingsPage(vm))
}

// revokeToken deletes the viewer's access token named in the form (its
// id): a program that uses it is refused from then on.
func (s *Server) revokeToken(c echo.Context) error {
	u := currentUser(c)
	id, _ := strconv.ParseUint(c.FormValue("token"), 10, 64)
	err := s.store.RevokeToken(u.ID, uint(id))
	if errors.Is(err, models.ErrNotFound) {
		return s.renderSettings(c, http.StatusNotFound, u, tr(c, "That token is revoked already."))
	}
	if err != nil {
		return err
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "The token is revoked: a program that uses it is refused from now on."))
	return redirect(c, "/settings#tokens-h")
}
