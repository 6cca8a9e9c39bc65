package handlers

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"cacao/handlers/mail"
	"cacao/models"
	"cacao/views"
)

// resetKey counts password reset requests from one address: a stranger
// cannot make the site mail without bound (the store also sends one
// account at most a few an hour).
func resetKey(ip string) limitKey {
	return limitKey{Key: "reset:" + AddressOf(ip), Rule: resetRequests}
}

// resetForm asks for the account whose password is forgotten.
func (s *Server) resetForm(c echo.Context) error {
	return render(c, http.StatusOK, views.ResetRequestPage(s.page(c, tr(c, "Forgot your password?")), ""))
}

// requestReset mails a reset link to the account named, if it has a
// confirmed address; the answer is the same whether or not it does (or
// exists).
func (s *Server) requestReset(c echo.Context) error {
	if d := s.take(c, resetKey(c.RealIP())); d > 0 {
		return render(c, http.StatusTooManyRequests, views.ResetRequestPage(s.page(c, tr(c, "Forgot your password?")),
			lang(c).N("Too many requests. Try again in %d minute.", "Too many requests. Try again in %d minutes.", int(d.Minutes())+1, int(d.Minutes())+1)))
	}
	if err := s.store.RequestReset(c.FormValue("name")); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.MessagePage(s.page(c, tr(c, "Check your mail")),
		tr(c, "If that account has a confirmed email address, we sent it a link to set a new password. The link works for an hour, once.")))
}

// resetClaims checks a reset link: signed, unexpired, and made at the
// user's current token version (so used once at most).
func (s *Server) resetClaims(c echo.Context) (mail.Claims, error) {
	cl, err := s.claims(c, mail.PurposeReset)
	if err != nil {
		return cl, err
	}
	u, err := s.store.UserByID(cl.User)
	if err != nil || u.TokenVersion != cl.Version {
		return cl, models.ErrResetUsed
	}
	return cl, nil
}

// resetPasswordForm asks for the new password (a reset link from a mail).
func (s *Server) resetPasswordForm(c echo.Context) error {
	if _, err := s.resetClaims(c); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ResetPage(s.page(c, tr(c, "Set a new password")), c.FormValue("t"), ""))
}

// resetPassword sets the new password: every session of the account ends,
// this browser's too; the page says to log in with it.
func (s *Server) resetPassword(c echo.Context) error {
	cl, err := s.resetClaims(c)
	if err != nil {
		return err
	}
	err = s.hash(c, func() error {
		return s.store.ResetPassword(cl.User, cl.Version, c.FormValue("password"))
	})
	if errors.Is(err, models.ErrInvalid) && !errors.Is(err, models.ErrResetUsed) {
		_, msg := status(lang(c), err)
		return render(c, http.StatusUnprocessableEntity, views.ResetPage(s.page(c, tr(c, "Set a new password")), c.FormValue("t"), msg))
	}
	if err != nil {
		return err
	}
	if err := s.sessions.Destroy(c.Request().Context()); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.MessagePage(s.page(c, tr(c, "Password set")),
		tr(c, "Your new password is set, and you are signed out everywhere. Log in with it.")))
}
