package handlers_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

// TestErrorPageWithoutSession: an error met before the request's session
// is loaded (a request given up in a queue, a session store that fails)
// still gets its error page, and nothing panics.
func TestErrorPageWithoutSession(t *testing.T) {
	s := newSite(t)
	e := s.srv.Config.Handler.(*echo.Echo)
	rec := httptest.NewRecorder()
	c := e.NewContext(httptest.NewRequest("GET", "/games/1", nil), rec)
	e.HTTPErrorHandler(errors.New("given up"), c)
	if rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), "something went wrong") {
		t.Fatalf("the error page without a session: %d\n%.300s", rec.Code, rec.Body.String())
	}
}
