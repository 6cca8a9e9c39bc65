package handlers

import (
	"context"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"cacao/engine"
	"cacao/handlers/api"
	"cacao/models"
	"cacao/views"
	"cacao/views/i18n"
)

// status maps an error kind to an HTTP status and a message a person can
// read, in their language. This is the only place that does so.
func status(l *i18n.Lang, err error) (int, string) {
	var he *echo.HTTPError
	var ie *engine.IllegalError
	var me *models.InvalidError
	var be *models.BannedError
	var ce *checksError
	var sp *errSpent
	switch {
	case errors.As(err, &sp):
		n := int(sp.wait.Minutes()) + 1
		switch sp.of {
		case spentGuests:
			return http.StatusTooManyRequests, l.N("Many guests played from your address lately. Try again in %d minute, or make an account.",
				"Many guests played from your address lately. Try again in %d minutes, or make an account.", n, n)
		case spentLogins:
			return http.StatusTooManyRequests, l.N("This account was logged in to many times in a row. Try again in %d minute.", "This account was logged in to many times in a row. Try again in %d minutes.", n, n)
		case spentGames:
			return http.StatusTooManyRequests, l.N("You opened many games in a row. You can open the next in %d minute.", "You opened many games in a row. You can open the next in %d minutes.", n, n)
		default:
			return http.StatusTooManyRequests, l.N("Too many requests. Try again in %d minute.", "Too many requests. Try again in %d minutes.", n, n)
		}
	case errors.Is(err, errBusy):
		return http.StatusTooManyRequests, l.Sentence("the site is busy checking passwords: try again in a moment")
	case errors.As(err, &ce):
		n := int(ce.wait.Seconds()) + 1
		return http.StatusTooManyRequests, l.N("Too many log-ins, sign-ups or password changes from your address. Try again in %d second.",
			"Too many log-ins, sign-ups or password changes from your address. Try again in %d seconds.", n, n)
	case errors.As(err, &be):
		return http.StatusForbidden, l.T("This account is banned: %s", be.Reason)
	case errors.As(err, &he):
		switch m := he.Message.(type) {
		case message:
			return he.Code, l.Sentence(m.format, m.args...)
		case string:
			if m != "" && l == i18n.En {
				return he.Code, m
			}
		}
		return he.Code, httpStatusText(l, he.Code)
	case errors.As(err, &ie):
		if ie.Format == "" {
			return http.StatusUnprocessableEntity, ie.Reason
		}
		return http.StatusUnprocessableEntity, l.Sentence(ie.Format, playerArgs(l, ie.Args)...)
	case models.Unavailable(err):
		return http.StatusServiceUnavailable, l.T("The site cannot reach its database for a moment. Nothing was changed: try again in a minute.")
	case errors.Is(err, models.ErrNotFound):
		return http.StatusNotFound, l.Sentence("not found")
	case errors.Is(err, models.ErrForbidden):
		return http.StatusForbidden, l.Sentence("that is not yours to do")
	case errors.Is(err, models.ErrConflict):
		return http.StatusConflict, l.Sentence("the game moved on before your move arrived; here is the board as it is now")
	case errors.As(err, &me):
		return http.StatusUnprocessableEntity, l.Sentence(me.Format, me.Args...)
	default:
		return http.StatusInternalServerError, l.Sentence("something went wrong on our side")
	}
}

// playerArgs writes the engine's cells, sides and jungle tiles in a
// refusal as the pages do.
func playerArgs(l *i18n.Lang, args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case engine.Cell:
			out[i] = views.CellLabel(l, v)
		case engine.Side:
			out[i] = views.SideName(l, v)
		case engine.Jungle:
			out[i] = views.JungleName(l, v)
		default:
			out[i] = a
		}
	}
	return out
}

// httpStatusText names the statuses the site answers with, in words: an
// error page's title and heading.
func httpStatusText(l *i18n.Lang, code int) string {
	switch code {
	case http.StatusNotFound:
		return l.T("Not found")
	case http.StatusMethodNotAllowed:
		return l.T("This address does not take that kind of request")
	case http.StatusForbidden:
		return l.T("Forbidden")
	case http.StatusBadRequest:
		return l.T("Bad request")
	case http.StatusRequestEntityTooLarge:
		return l.T("The request is too large")
	case http.StatusTooManyRequests:
		return l.T("Too many requests")
	case http.StatusUnauthorized:
		return l.T("Please log in")
	case http.StatusServiceUnavailable:
		return l.T("The site is busy; try again shortly")
	case http.StatusConflict:
		return l.T("Someone was quicker")
	case http.StatusUnprocessableEntity:
		return l.T("That cannot be done")
	}
	if code >= 500 {
		return l.T("Something went wrong on our side")
	}
	return l.T("That request could not be answered")
}

// errorHandler renders errors: the status from status(), a page (or a
// fragment for htmx), and a log line with the request id for server errors.
func (s *Server) errorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	// A client that went away (a closed tab, a step replaced by the next)
	// reads no answer, and is nobody's error.
	if errors.Is(err, context.Canceled) && c.Request().Context().Err() != nil {
		s.log.Info("client gone", "path", c.Request().URL.Path, "id", c.Response().Header().Get(echo.HeaderXRequestID))
		return
	}
	l := s.langFor(c)
	c.SetRequest(c.Request().WithContext(i18n.With(c.Request().Context(), l)))
	code, msg := status(l, err)
	if code == http.StatusServiceUnavailable {
		c.Response().Header().Set("Retry-After", "30")
	}
	if code >= 500 {
		s.log.Error("request failed", "err", err, "path", c.Request().URL.Path, "id", c.Response().Header().Get(echo.HeaderXRequestID))
	}
	if isAPI(c.Request().URL.Path) {
		// What is refused before the API's own handling (the body's size,
		// a fault): JSON too.
		_ = c.JSON(code, api.Error{Error: msg})
		return
	}
	if isHTMX(c) {
		c.Response().Header().Set("HX-Retarget", "#main")
		c.Response().Header().Set("HX-Reswap", "afterbegin")
		_ = render(c, code, views.ErrorFragment(msg))
		return
	}
	_ = render(c, code, views.ErrorPage(s.page(c, httpStatusText(l, code)), msg))
}
