package handlers_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"cacao/handlers"
	"cacao/models"
	"cacao/models/autoplay"
	"cacao/models/modeltest"
	"cacao/views/viewtest"
)

// TestClientGoneIsNotAnError: a client that went away before its page was
// rendered (a closed tab, a step replaced by the next) is no server error:
// nothing is logged at ERROR level.
func TestClientGoneIsNotAnError(t *testing.T) {
	store, err := models.Open(modeltest.DB(t), models.WithPasswordCost(bcrypt.MinCost))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var logs bytes.Buffer
	bots := autoplay.NewRunner(store, nil)
	defer bots.Close()
	h, err := handlers.New(store, handlers.Config{Logger: slog.New(slog.NewTextHandler(&logs, nil)), Bots: bots})
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
	href, _ := viewtest.Attr(t, body, `head link[rel="icon"][type="image/svg+xml"]`, "href")
	m := regexp.MustCompile(`^(/static/favicon\.[0-9a-f]+\.svg)$`).FindStringSubmatch(href)
	if m == nil {
		t.Fatalf("the page names no icon:\n%s", viewtest.Show(t, body, "head link"))
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

// TestBoardSizeRemembered: the board size chosen is kept for the account
// (another browser of the same player opens the board at that size) and
// for the browser (signed out); a size that does not exist is refused and
// changes nothing.
func TestBoardSizeRemembered(t *testing.T) {
	s := newSite(t)
	id, ana, _ := s.midGame()
	page := fmt.Sprintf("/games/%d", id)
	checked := func(body string) string {
		m := regexp.MustCompile(`<input type="radio" name="size" value="(\w+)" id="zoom-\w+" checked>`).FindStringSubmatch(body)
		if m == nil {
			return ""
		}
		return m[1]
	}
	if _, body := ana.get(page); checked(body) != "normal" {
		t.Fatalf("a new player's board is %q, want normal", checked(body))
	}
	if code, _ := ana.post("/board-size", url.Values{"size": {"huge"}, "next": {page}}); code != http.StatusUnprocessableEntity {
		t.Fatalf("an unknown size: %d", code)
	}
	if code, _ := ana.post("/board-size", url.Values{"size": {"large"}, "next": {page}}); code != http.StatusOK {
		t.Fatalf("choosing large (and following the redirect back): %d", code)
	}
	if _, body := ana.get(page); checked(body) != "large" {
		t.Fatalf("after choosing large the board is %q", checked(body))
	}
	other := s.client("ana")
	other.get("/login")
	if code, body := other.post("/login", url.Values{"username": {"ana"}, "password": {"secret-ana"}}); code != http.StatusOK || !strings.Contains(body, "My games") {
		t.Fatalf("ana logging in from another browser: %d", code)
	}
	if _, body := other.get(page); checked(body) != "large" {
		t.Fatalf("ana in another browser sees the board %q, want her choice (large)", checked(body))
	}
	if code, _ := other.htmx("POST", "/board-size", url.Values{"size": {"fit"}}); code != http.StatusNoContent {
		t.Fatalf("htmx choosing fit: %d, want 204", code)
	}
	if _, body := ana.get(page); checked(body) != "fit" {
		t.Fatalf("after choosing fit elsewhere the board is %q", checked(body))
	}
	guest := s.client("guest")
	guest.post("/board-size", url.Values{"size": {"large"}, "next": {"/rules"}})
	u, _ := url.Parse(s.srv.URL)
	if ck := guest.http.Jar.Cookies(u); !strings.Contains(fmt.Sprint(ck), "cacao_board=large") {
		t.Fatalf("a signed-out browser keeps no size: %v", ck)
	}
}
