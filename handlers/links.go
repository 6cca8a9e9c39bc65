package handlers

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"cacao/handlers/mail"
	"cacao/views"
)

// claims checks the signed token of a mail link.
func (s *Server) claims(c echo.Context, purpose string) (mail.Claims, error) {
	cl, err := s.signer.Verify(c.QueryParam("t"), purpose, s.store.Clock())
	if errors.Is(err, mail.ErrExpired) {
		return cl, refusal(http.StatusGone, "this link has expired")
	}
	if err != nil {
		return cl, refusal(http.StatusForbidden, "this link is not valid")
	}
	return cl, nil
}

// mailGo is the one-click link to a game in a mail: it signs its user in
// (on a fresh session token) unless they are already, then opens the game.
func (s *Server) mailGo(c echo.Context) error {
	cl, err := s.claims(c, mail.PurposeGo)
	if err != nil {
		return err
	}
	if u := currentUser(c); u == nil || u.ID != cl.User {
		u, err := s.store.UserByID(cl.User)
		if err != nil {
			return refusal(http.StatusForbidden, "this link is not valid")
		}
		if err := s.startSession(c, u); err != nil {
			return err
		}
	}
	return redirect(c, fmt.Sprintf("/games/%d", cl.Game))
}

// mailVerify confirms the address a verification mail was sent to.
func (s *Server) mailVerify(c echo.Context) error {
	cl, err := s.claims(c, mail.PurposeVerify)
	if err != nil {
		return err
	}
	if err := s.store.VerifyEmail(cl.User, cl.Email); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.MessagePage(s.page(c, tr(c, "Address confirmed")),
		tr(c, "Your address %s is confirmed. Cacao will email you as you chose in your settings.", cl.Email)))
}

// mailUnsubscribe turns all of a user's mail off in one click: by the link
// in a mail (GET) or by the mail client's one-click POST (RFC 8058).
func (s *Server) mailUnsubscribe(c echo.Context) error {
	cl, err := s.claims(c, mail.PurposeUnsub)
	if err != nil {
		return err
	}
	if err := s.store.Unsubscribe(cl.User); err != nil {
		return err
	}
	if c.Request().Method == http.MethodPost {
		return c.String(http.StatusOK, "unsubscribed")
	}
	return render(c, http.StatusOK, views.MessagePage(s.page(c, tr(c, "Unsubscribed")),
		tr(c, "You will get no more mail from Cacao. You can turn mail on again in your settings.")))
}
