package handlers

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"cacao/engine"
	"cacao/models"
	"cacao/views"
)

// status maps an error kind to an HTTP status and a message a person can
// read. This is the only place that does so.
func status(err error) (int, string) {
	var he *echo.HTTPError
	switch {
	case errors.As(err, &he):
		msg, _ := he.Message.(string)
		if msg == "" {
			msg = http.StatusText(he.Code)
		}
		return he.Code, msg
	case errors.Is(err, engine.ErrIllegal):
		return http.StatusUnprocessableEntity, err.Error()
	case errors.Is(err, models.ErrNotFound):
		return http.StatusNotFound, "not found"
	case errors.Is(err, models.ErrForbidden):
		return http.StatusForbidden, "that is not yours to do"
	case errors.Is(err, models.ErrConflict):
		return http.StatusConflict, "the game moved on before your move arrived; here is the board as it is now"
	case errors.Is(err, models.ErrInvalid):
		return http.StatusUnprocessableEntity, cleanInvalid(err)
	default:
		return http.StatusInternalServerError, "something went wrong on our side"
	}
}

func cleanInvalid(err error) string {
	msg := err.Error()
	const prefix = "models: invalid input: "
	if len(msg) > len(prefix) && msg[:len(prefix)] == prefix {
		return msg[len(prefix):]
	}
	return msg
}

// errorHandler renders errors: the status from status(), a page (or a
// fragment for htmx), and a log line with the request id for server errors.
func (s *Server) errorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	code, msg := status(err)
	if code >= 500 {
		s.log.Error("request failed", "err", err, "path", c.Request().URL.Path, "id", c.Response().Header().Get(echo.HeaderXRequestID))
	}
	if isHTMX(c) {
		c.Response().Header().Set("HX-Retarget", "#main")
		c.Response().Header().Set("HX-Reswap", "afterbegin")
		_ = render(c, code, views.ErrorFragment(msg))
		return
	}
	_ = render(c, code, views.ErrorPage(s.page(c, http.StatusText(code)), code, msg))
}
