package handlers

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"cacao/models"
	"cacao/views"
	"cacao/views/i18n"
)

const langCookie = "cacao_lang"

// langFor picks the request's language: the signed-in user's choice, then
// this browser's (a cookie set by the language form), then Accept-Language;
// in the signed-in user's time zone.
func (s *Server) langFor(c echo.Context) *i18n.Lang {
	u := currentUser(c)
	l := s.pickLang(c, u)
	if u != nil && u.TimeZone != "" {
		l = l.In(u.Zone())
	}
	return l
}

func (s *Server) pickLang(c echo.Context, u *models.User) *i18n.Lang {
	if u != nil && u.Lang != "" {
		if l, ok := i18n.Get(u.Lang); ok {
			return l
		}
	}
	if ck, err := c.Cookie(langCookie); err == nil {
		if l, ok := i18n.Get(ck.Value); ok {
			return l
		}
	}
	return i18n.Match(c.Request().Header.Get("Accept-Language"))
}

// setLang puts the request's language on its context, where the views
// and lang find it.
func (s *Server) setLang(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Add("Vary", "Accept-Language")
		req := c.Request()
		c.SetRequest(req.WithContext(i18n.With(req.Context(), s.langFor(c))))
		return next(c)
	}
}

// lang is the request's language.
func lang(c echo.Context) *i18n.Lang { return i18n.From(c.Request().Context()) }

// tr translates a message for the request.
func tr(c echo.Context, msg string, args ...any) string { return lang(c).T(msg, args...) }

// sentence translates a refusal that stands alone, capital first
// (i18n.Lang.Sentence).
func sentence(c echo.Context, msg string, args ...any) string { return lang(c).Sentence(msg, args...) }

// message is a refusal's text, translated when it is shown.
type message struct {
	format string
	args   []any
}

// refusal is an HTTP error whose message is translated for the reader.
func refusal(code int, format string, args ...any) error {
	return echo.NewHTTPError(code, message{format, args})
}

// setLanguage saves the language chosen in the language form: on the
// account when signed in, and for this browser either way.
func (s *Server) setLanguage(c echo.Context) error {
	l, ok := i18n.Get(c.FormValue("lang"))
	if !ok {
		return refusal(http.StatusUnprocessableEntity, "unknown language")
	}
	if u := currentUser(c); u != nil {
		if err := s.store.SetLang(u.ID, l.Code); err != nil {
			return err
		}
	}
	s.keepCookie(c, langCookie, l.Code)
	return redirect(c, safeNext(c.FormValue("next")))
}

// rules shows the rules help page in the reader's language.
func (s *Server) rules(c echo.Context) error {
	return render(c, http.StatusOK, views.RulesPage(s.page(c, tr(c, "Rules")), views.RulesHTML(lang(c).Code)))
}

// boardCookie keeps this browser's board size (the form above the board).
const boardCookie = "cacao_board"

// boardSize is how the board is drawn for the request: the signed-in
// user's choice, then this browser's; "" is normal.
func boardSize(c echo.Context) string {
	if u := currentUser(c); u != nil && u.BoardSize != "" {
		return u.BoardSize
	}
	if ck, err := c.Cookie(boardCookie); err == nil && validBoardSize(ck.Value) {
		return ck.Value
	}
	return ""
}

func validBoardSize(s string) bool { return s == "" || s == "fit" || s == "large" }

// setBoardSize keeps the board size chosen, for the account when signed in
// and for the browser. htmx asks it as the radios change (no answer to
// swap); without JavaScript the form's button leads back to the page.
func (s *Server) setBoardSize(c echo.Context) error {
	size := c.FormValue("size")
	if size == "normal" {
		size = ""
	}
	if !validBoardSize(size) {
		return refusal(http.StatusUnprocessableEntity, "unknown board size")
	}
	if u := currentUser(c); u != nil {
		if err := s.store.SetBoardSize(u.ID, size); err != nil {
			return err
		}
	}
	s.keepCookie(c, boardCookie, size)
	if isHTMX(c) {
		return c.NoContent(http.StatusNoContent)
	}
	return redirect(c, safeNext(c.FormValue("next")))
}

// keepCookie keeps a choice of this browser's for a year.
func (s *Server) keepCookie(c echo.Context, name, value string) {
	c.SetCookie(&http.Cookie{Name: name, Value: value, Path: "/", MaxAge: int((365 * 24 * time.Hour).Seconds()),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.cfg.SecureCookies})
}
