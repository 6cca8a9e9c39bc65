package handlers_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"cacao/handlers"
	"cacao/models"
)

// TestClientGoneIsNotAnError: a client that went away before its page was
// rendered (a closed tab, a step replaced by the next) is no server error:
// nothing is logged at ERROR level.
func TestClientGoneIsNotAnError(t *testing.T) {
	store, err := models.Open(":memory:", models.WithPasswordCost(bcrypt.MinCost))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var logs bytes.Buffer
	h, err := handlers.New(store, handlers.Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, path := range []string{"/", "/rules", "/login"} {
		req := httptest.NewRequest(http.MethodGet, path, nil).WithContext(ctx)
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	if strings.Contains(logs.String(), "level=ERROR") {
		t.Fatalf("a client gone is logged as an error:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), "client gone") {
		t.Fatalf("a client gone is not logged:\n%s", logs.String())
	}
}

// TestFavicon: every page names the site's icon, /favicon.ico leads to it
// (a browser's first visit asked for it and got a 404), and it is an SVG.
func TestFavicon(t *testing.T) {
	s := newSite(t)
	c := s.client("visitor")
	_, body := c.get("/")
	m := regexp.MustCompile(`<link rel="icon" href="(/static/favicon\.[0-9a-f]+\.svg)" type="image/svg\+xml">`).FindStringSubmatch(body)
	if m == nil {
		t.Fatal("the page names no icon")
	}
	res, err := http.Get(s.srv.URL + "/favicon.ico")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Request.URL.Path != m[1] || !strings.HasPrefix(res.Header.Get("Content-Type"), "image/svg+xml") {
		t.Fatalf("/favicon.ico: %d %s at %s, want the icon %s", res.StatusCode, res.Header.Get("Content-Type"), res.Request.URL.Path, m[1])
	}
}
