package handlers

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// ready answers 200 while the site reaches its database within 2 seconds,
// else 503 (with Retry-After), so that a load balancer or a supervisor
// knows; /healthz only says the process answers.
func (s *Server) ready(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		s.log.Warn("not ready: the database does not answer", "err", err.Error())
		c.Response().Header().Set("Retry-After", "30")
		return c.String(http.StatusServiceUnavailable, "the database does not answer")
	}
	return c.String(http.StatusOK, "ok")
}
