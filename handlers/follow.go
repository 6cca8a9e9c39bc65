package handlers

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"cacao/models"
	"cacao/views"
)

// follow has the viewer follow the player of the profile.
func (s *Server) follow(c echo.Context) error {
	name := c.Param("name")
	if err := s.store.FollowUser(currentUser(c), name); err != nil {
		return err
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "You follow %s: you are told when they open a public table.", name))
	return redirect(c, views.ProfileURL(name))
}

// unfollow has the viewer follow the player of the profile no more, and
// goes back where the form was (their profile, or the list).
func (s *Server) unfollow(c echo.Context) error {
	name := c.Param("name")
	if err := s.store.Unfollow(currentUser(c).ID, name); err != nil {
		return err
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "You no longer follow %s.", name))
	back := views.ProfileURL(name)
	if r, err := url.Parse(c.Request().Referer()); err == nil && r.Path == "/following" {
		back = "/following"
	}
	return redirect(c, back)
}

// following lists the players the viewer follows.
func (s *Server) following(c echo.Context) error {
	people, err := s.store.Following(currentUser(c).ID)
	if err != nil {
		return err
	}
	vm := views.FollowingVM{Page: s.page(c, tr(c, "Players I follow"))}
	for _, p := range people {
		vm.People = append(vm.People, views.FollowedLine{Name: p.Name, Bot: p.Bot, LastSeen: views.LastSeenText(c.Request().Context(), p.LastSeen), FormKey: newFormKey()})
	}
	return render(c, http.StatusOK, views.FollowingPage(vm))
}

// inviteToTable opens, in one click, a table of two with the player of the
// profile invited, as the home page's form would with its first choices;
// it takes one of the viewer's games in a row.
func (s *Server) inviteToTable(c echo.Context) error {
	u := currentUser(c)
	key := c.FormValue("form_key")
	if id, err := s.store.FormGame(u.ID, key); err != nil || id != 0 {
		return s.toFormGame(c, id, err)
	}
	if err := s.takeNewGame(c, u); err != nil {
		return s.refuseHomeFor(c, u, err)
	}
	g, err := s.store.CreateGame(u, models.GameSpec{Seats: []string{"@" + c.Param("name")}, TurnHours: models.TurnLimits()[0], FormKey: key})
	if err != nil {
		return err
	}
	return redirect(c, fmt.Sprintf("/games/%d", g.ID))
}

// savePrivacy keeps whether the viewer hides when they were last on the
// site from those who follow them.
func (s *Server) savePrivacy(c echo.Context) error {
	if err := s.store.SetHideLastSeen(currentUser(c).ID, c.FormValue("hide_last_seen") != ""); err != nil {
		return err
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "Saved."))
	return redirect(c, "/settings#privacy-h")
}
