package handlers_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"cacao/views/viewtest"
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
	if rec.Code != http.StatusInternalServerError || !strings.Contains(rec.Body.String(), "Something went wrong") {
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

// TestDatabaseAway: while the database cannot be reached, a signed-in
// player (whose session cannot be loaded) and a visitor get the site's own
// page, in their language, 503 with Retry-After, not the session library's
// plain text nor a 500; /readyz says 503, /healthz stays 200. (The
// welcome page, which reads nothing, is still served.)
func TestDatabaseAway(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	if err := s.store.Close(); err != nil {
		t.Fatal(err)
	}
	get := func(c *http.Client, path, lang string) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", s.srv.URL+path, nil)
		if lang != "" {
			req.Header.Set("Accept-Language", lang)
		}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, string(b)
	}
	for _, tc := range []struct {
		who, path string
		c         *http.Client
		lang      string
		want      string
	}{
		{"ana, signed in", "/", ana.http, "", "The site cannot reach its database for a moment."},
		{"a visitor reading Persian", "/games", http.DefaultClient, "fa", "سایت لحظه‌ای به پایگاه داده‌اش دسترسی ندارد."},
	} {
		res, body := get(tc.c, tc.path, tc.lang)
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" || !viewtest.Has(t, body, "h1") || !strings.Contains(body, tc.want) {
			t.Errorf("%s, the database away: %d (Retry-After %q)\n%.800s", tc.who, res.StatusCode, res.Header.Get("Retry-After"), body)
		}
	}
	if res, body := get(http.DefaultClient, "/readyz", ""); res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("/readyz with the database away: %d %s", res.StatusCode, body)
	}
	if res, body := get(http.DefaultClient, "/healthz", ""); res.StatusCode != http.StatusOK {
		t.Errorf("/healthz with the database away: %d %s", res.StatusCode, body)
	}
}

// TestReady: /readyz answers 200 while the database answers.
func TestReady(t *testing.T) {
	s := newSite(t)
	if code, body := s.client("probe").get("/readyz"); code != http.StatusOK || body != "ok" {
		t.Fatalf("/readyz: %d %q", code, body)
	}
}
