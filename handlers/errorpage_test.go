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

// TestErrorPageSaysWhatHappened: an error page is headed in words, not by
// its status number, in the reader's language.
func TestErrorPageSaysWhatHappened(t *testing.T) {
	s := newSite(t)
	e := s.srv.Config.Handler.(*echo.Echo)
	for _, tc := range []struct {
		err  error
		code int
		want string
	}{
		{echo.NewHTTPError(http.StatusUnprocessableEntity), http.StatusUnprocessableEntity, "<h1>That cannot be done</h1>"},
		{echo.NewHTTPError(http.StatusConflict), http.StatusConflict, "<h1>Someone was quicker</h1>"},
		{echo.NewHTTPError(http.StatusNotFound), http.StatusNotFound, "<h1>Not found</h1>"},
		{errors.New("broken"), http.StatusInternalServerError, "<h1>Something went wrong on our side</h1>"},
	} {
		rec := httptest.NewRecorder()
		c := e.NewContext(httptest.NewRequest("GET", "/games/1", nil), rec)
		e.HTTPErrorHandler(tc.err, c)
		if body := rec.Body.String(); rec.Code != tc.code || !strings.Contains(body, tc.want) {
			t.Errorf("%d: want %s in\n%.600s", tc.code, tc.want, body)
		}
	}
}
