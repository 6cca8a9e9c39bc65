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

// settings shows the viewer's email and vacation settings.
func (s *Server) settings(c echo.Context) error {
	return s.renderSettings(c, http.StatusOK, currentUser(c), "")
}

func (s *Server) renderSettings(c echo.Context, code int, u *models.User, problem string) error {
	vm, err := s.settingsVM(c, u, problem)
	if err != nil {
		return err
	}
	return render(c, code, views.SettingsPage(vm))
}

// settingsVM is the settings page of u, with problem (or "") said on top.
func (s *Server) settingsVM(c echo.Context, u *models.User, problem string) (views.SettingsVM, error) {
	now := s.store.Clock()
	vm := views.SettingsVM{Page: s.page(c, tr(c, "Settings")), Email: u.Email, Verified: u.EmailVerified, Channels: models.ChannelNames,
		DigestHour: u.DigestHour, QuietFrom: u.QuietFrom, QuietTo: u.QuietTo, TimeZone: u.TimeZone, Now: lang(c).Date(now, false, true),
		VacationLeft: u.VacationLeft(now), VacationMax: models.VacationAllowance, AutoDecide: u.AutoDecide, HideLastSeen: u.HideLastSeen, Bot: u.BotAccount, BotOpen: u.BotOpen, Error: problem}
	if u.OnVacation(now) {
		vm.VacationUntil = lang(c).Date(*u.VacationUntil, true, true)
	}
	if err := s.newsVM(c, u, &vm); err != nil {
		return vm, err
	}
	if err := s.tokensVM(c, u, &vm); err != nil {
		return vm, err
	}
	logins, err := s.store.Logins(u)
	if err != nil {
		return vm, err
	}
	mine := s.sessions.Token(c.Request().Context())
	for _, l := range logins {
		vm.Logins = append(vm.Logins, views.LoginLine{ID: models.LoginID(l.Token), Device: l.Device, LastSeen: lang(c).Date(l.LastSeen, true, true), Current: l.Token == mine})
	}
	vm.Blocked, err = s.store.Blocked(u.ID)
	return vm, err
}

// unblock lets the player named in the form invite the viewer again.
func (s *Server) unblock(c echo.Context) error {
	u := currentUser(c)
	if err := s.store.Unblock(u, c.FormValue("name")); err != nil {
		return s.settingsRefused(c, u, err)
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "%s can invite you again.", c.FormValue("name")))
	return redirect(c, "/settings")
}

// saveTimeZone sets the viewer's time zone, which every date the site
// shows them, and their digest hour, are in.
func (s *Server) saveTimeZone(c echo.Context) error {
	u := currentUser(c)
	if err := s.store.SetTimeZone(u.ID, strings.TrimSpace(c.FormValue("tz"))); err != nil {
		return s.settingsRefused(c, u, err)
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "Saved."))
	return redirect(c, "/settings")
}

// saveAutoDecide sets or clears the viewer's standing policy "always
// decide for me"; turned on, the choices waiting for them are made at once.
func (s *Server) saveAutoDecide(c echo.Context) error {
	u := currentUser(c)
	if err := s.store.SetAutoDecide(u.ID, c.FormValue("auto") != ""); err != nil {
		return s.settingsRefused(c, u, err)
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "Saved."))
	return redirect(c, "/settings")
}

func (s *Server) startVacation(c echo.Context) error {
	u := currentUser(c)
	days, err := strconv.Atoi(c.FormValue("days"))
	if err != nil {
		days = 0
	}
	nu, err := s.store.StartVacation(u.ID, days)
	if err != nil {
		return s.settingsRefused(c, u, err)
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "Your clocks are paused until %s.", lang(c).Date(*nu.VacationUntil, false, true)))
	return redirect(c, "/settings")
}

func (s *Server) endVacation(c echo.Context) error {
	u := currentUser(c)
	if _, err := s.store.EndVacation(u.ID); err != nil {
		return s.settingsRefused(c, u, err)
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "Welcome back: your clocks run again."))
	return redirect(c, "/settings")
}

// settingsRefused shows the settings again with what was wrong; nothing
// changed.
func (s *Server) settingsRefused(c echo.Context, u *models.User, err error) error {
	if !errors.Is(err, models.ErrInvalid) {
		return err
	}
	fresh, ferr := s.store.UserByID(u.ID)
	if ferr != nil {
		return ferr
	}
	_, msg := status(lang(c), err)
	return s.renderSettings(c, http.StatusUnprocessableEntity, fresh, msg)
}

// changePassword sets a new password for the viewer, who gives their
// current one: every other session and mail sign-in link of theirs stops
// working; this one stays signed in (on a fresh token).
func (s *Server) changePassword(c echo.Context) error {
	u := currentUser(c)
	var nu *models.User
	err := s.hash(c, func() error {
		var err error
		nu, err = s.store.ChangePassword(u.ID, c.FormValue("current"), c.FormValue("password"))
		return err
	})
	if err != nil {
		return s.settingsRefused(c, u, err)
	}
	if err := s.startSession(c, nu); err != nil {
		return err
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "Your password is changed. You are signed out everywhere else."))
	return redirect(c, "/settings")
}

// signOutEverywhere ends every session of the viewer, this one too, and
// every mail sign-in link sent to them.
func (s *Server) signOutEverywhere(c echo.Context) error {
	if err := s.store.SignOutEverywhere(currentUser(c).ID); err != nil {
		return err
	}
	if err := s.sessions.Destroy(c.Request().Context()); err != nil {
		return err
	}
	return redirect(c, "/login")
}

// endSession signs out one of the viewer's sessions, named in the form
// (models.LoginID).
func (s *Server) endSession(c echo.Context) error {
	u := currentUser(c)
	ctx := c.Request().Context()
	if c.FormValue("login") == models.LoginID(s.sessions.Token(ctx)) {
		// This browser's own: signed out as by Log out (ending its row alone
		// would leave the session signed in, written back at the answer).
		return s.logout(c)
	}
	err := s.store.EndLogin(u.ID, c.FormValue("login"))
	if errors.Is(err, models.ErrNotFound) {
		return s.renderSettings(c, http.StatusNotFound, u, tr(c, "That session is not signed in any more."))
	}
	if err != nil {
		return err
	}
	s.sessions.Put(c.Request().Context(), "flash", tr(c, "That session is signed out."))
	return redirect(c, "/settings")
}

// deleteAccount deletes the viewer's account, who gives their password
// (models.Store.DeleteAccount); the bots then play on in the games where
// the stand-in bot took their seat.
func (s *Server) deleteAccount(c echo.Context) error {
	u := currentUser(c)
	var running []uint
	err := s.hash(c, func() error {
		var err error
		running, err = s.store.DeleteAccount(u.ID, c.FormValue("password"))
		return err
	})
	if err != nil {
		return s.settingsRefused(c, u, err)
	}
	for _, id := range running {
		if _, err := s.bots.Bots(id, nil); err != nil {
			s.log.Warn("bots after an account was deleted", "game", id, "err", err)
		}
	}
	if err := s.sessions.Destroy(c.Request().Context()); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.MessagePage(s.page(c, tr(c, "Account deleted")), tr(c, "Your account is deleted. Thank you for playing.")))
}
