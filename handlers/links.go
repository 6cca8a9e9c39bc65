package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"cacao/handlers/mail"
	"cacao/views"
)

// claims checks the signed token of a mail link.
func (s *Server) claims(c echo.Context, purpose string) (mail.Claims, error) {
	cl, err := s.signer.Verify(c.FormValue("t"), purpose, s.store.Clock()) // in the address, or posted (SwitchPage)
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
// A link sent before the user's password changed or they signed out
// everywhere signs nobody in. In a browser signed in as someone else the
// link asks first (a form that posts back here): opened by a trick, it
// would sign the browser into another account unseen.
func (s *Server) mailGo(c echo.Context) error {
	cl, err := s.claims(c, mail.PurposeGo)
	if err != nil {
		return err
	}
	game := fmt.Sprintf("/games/%d", cl.Game)
	me := currentUser(c)
	if me != nil && me.ID == cl.User {
		return redirect(c, game)
	}
	u, err := s.store.UserByID(cl.User)
	if err != nil {
		return refusal(http.StatusForbidden, "this link is not valid")
	}
	if u.TokenVersion != cl.Version {
		return refusal(http.StatusForbidden, "this link no longer signs you in: your password was changed, or you signed out everywhere, after it was sent. Log in instead.")
	}
	if me != nil && c.Request().Method != http.MethodPost {
		return render(c, http.StatusOK, views.SwitchPage(s.page(c, tr(c, "Switch accounts?")), me.Username, u.Username, c.FormValue("t")))
	}
	// Each sign-in is a session kept: a link opened again and again (by
	// mail scanners too) signs in so many times, then leads to the log-in
	// form, on its own count, not the form's.
	if d := s.take(c, mailLinksKey(u.ID)); d > 0 {
		return redirect(c, "/login?next="+url.QueryEscape(game))
	}
	if err := s.startSession(c, u); err != nil {
		return err
	}
	return redirect(c, game)
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
	// The link stops working when the account's token version moves on
	// (a new password, signing out everywhere), as the sign-in links do.
	if u, err := s.store.UserByID(cl.User); err != nil || u.TokenVersion != cl.Version {
		return refusal(http.StatusForbidden, "this link is not valid")
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
