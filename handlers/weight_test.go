package handlers_test

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"cacao/engine"
	"cacao/static"
)

// assetRE finds the static files a page links to (but the home-screen
// icon, which a browser fetches only when the site is added to one).
var assetRE = regexp.MustCompile(`<(?:link|script|use|img)[^>]*?(?:href|src)="(/static/[^"]+)"`)

// homeScreenRE is the home-screen icon's link.
var homeScreenRE = regexp.MustCompile(`<link rel="apple-touch-icon" href="/static/[^"]+">`)

// compressed fetches path as a browser that accepts gzip, with c's
// cookies, and returns the bytes on the wire and the response.
func (c *client) compressed(t *testing.T, path string) (int, *http.Response) {
	t.Helper()
	req, _ := http.NewRequest("GET", c.s.srv.URL+path, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	for _, ck := range c.http.Jar.Cookies(req.URL) {
		req.AddCookie(ck)
	}
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return len(b), res
}

// TestPageWeight: a game page with everything it loads (htmx and its
// SSE extension, the CSS, the tiles' sprite, the icon, the app manifest) is at most 60 KB on
// the wire, in the middle of a two-player game and late in a four-player
// one with a tile chosen (the board full, every place offered); pages and
// files are gzipped, and static files have content-hashed names cached
// for a year.
func TestPageWeight(t *testing.T) {
	s := newSite(t)
	id, ana, _ := s.midGame()
	weigh(t, ana, fmt.Sprintf("/games/%d", id), "mid-game page, 2 players")

	cy := s.signup("cyd")
	four := cy.createGame("greedy", "greedy", "greedy")
	// cyd's moves (and choices), until six tiles are placed and cyd may
	// choose a tile again.
	r := engine.NewRand(9)
	seat, l := s.seatOf(four, "cyd")
	st := l.Play.State()
	for i := 0; ; i++ {
		ready := st.Current() == seat && len(st.Player(seat).Queue()) == 0 && len(st.View(seat).Legal) > 0
		if ready && s.turnsBy(four, seat) >= 6 {
			break
		}
		if i == 40 || !cy.act(four, r) {
			t.Fatal("cyd cannot choose a tile late in the four-player game")
		}
		seat, l = s.seatOf(four, "cyd")
		st = l.Play.State()
	}
	weigh(t, cy, fmt.Sprintf("/games/%d?tile=%s", four, st.View(seat).Legal[0].Tile), fmt.Sprintf("late four-player page (%d tiles on the board), a tile chosen", len(st.View(seat).Tiles)))

	// The plain name still works, but is revalidated.
	if _, res := ana.compressed(t, "/static/app.css"); res.StatusCode != 200 || strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
		t.Fatalf("plain name: %d %q", res.StatusCode, res.Header.Get("Cache-Control"))
	}
	if _, res := ana.compressed(t, "/static/nope.js"); res.StatusCode != http.StatusNotFound {
		t.Fatalf("a missing file: %d", res.StatusCode)
	}
}

// weigh checks the weight on the wire of page with everything it loads
// (see TestPageWeight) and logs it.
func weigh(t *testing.T, c *client, page, what string) {
	t.Helper()
	_, body := c.get(page)
	n, res := c.compressed(t, page)
	if res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("%s: not gzipped", what)
	}
	total := n
	parts := []string{fmt.Sprintf("page %d B (%d B plain)", n, len(body))}
	var assets []string
	for _, m := range assetRE.FindAllStringSubmatch(homeScreenRE.ReplaceAllString(body, ""), -1) {
		if a, _, _ := strings.Cut(m[1], "#"); !slices.Contains(assets, a) {
			assets = append(assets, a) // the drawings name symbols of one file
		}
	}
	if len(assets) != 7 {
		t.Fatalf("%s links %d static files (%v); want the icon, the app manifest, the CSS, htmx, its SSE extension, app.js and the tiles' sprite", what, len(assets), assets)
	}
	for _, a := range assets {
		n, res := c.compressed(t, a)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: %d, encoding %q", a, res.StatusCode, res.Header.Get("Content-Encoding"))
		}
		if !regexp.MustCompile(`\.[0-9a-f]{10}\.(css|js|svg|webmanifest)$`).MatchString(a) || !strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
			t.Fatalf("%s: want a content-hashed name cached for a year, got Cache-Control %q", a, res.Header.Get("Cache-Control"))
		}
		total += n
		parts = append(parts, fmt.Sprintf("%s %d B", a, n))
	}
	t.Logf("%s: %d B compressed: %s", what, total, strings.Join(parts, ", "))
	if total > 60*1024 {
		t.Fatalf("%s weighs %d B compressed; the budget is 60 KB", what, total)
	}
}

// TestVaryOnce: a page's Vary header names each request header the answer
// depends on once, in one header line (the session and the CSRF guard
// both vary on Cookie).
func TestVaryOnce(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	id := ana.createGame("greedy", "none", "none")
	for _, path := range []string{"/login", "/", fmt.Sprintf("/games/%d", id)} {
		_, res := ana.compressed(t, path)
		vary := res.Header.Values("Vary")
		if len(vary) != 1 {
			t.Fatalf("%s: %d Vary headers %q, want one", path, len(vary), vary)
		}
		for _, want := range []string{"Cookie", "Accept-Language", "Accept-Encoding"} {
			if n := strings.Count(vary[0], want); n != 1 {
				t.Fatalf("%s: Vary %q names %s %d times, want once", path, vary[0], want, n)
			}
		}
	}
}

// TestHeadAnswersAsGet: a HEAD request (a health check, a link checker)
// gets the status and headers its GET would, and no body.
func TestHeadAnswersAsGet(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	id := ana.createGame("greedy", "none", "none")
	for _, path := range []string{"/healthz", "/", "/login", "/rules", static.Path("app.css"), "/static/app.css", fmt.Sprintf("/games/%d", id), "/no-such-page"} {
		get, gbody, gh := ana.ask(t, "GET", path, "", nil)
		head, hbody, hh := ana.ask(t, "HEAD", path, "", nil)
		if head != get || hbody != "" || hh.Get("Content-Type") != gh.Get("Content-Type") || hh.Get("Cache-Control") != gh.Get("Cache-Control") {
			t.Errorf("HEAD %s: %d, %d bytes, %q, %q; GET: %d, %d bytes, %q, %q", path, head, len(hbody), hh.Get("Content-Type"), hh.Get("Cache-Control"),
				get, len(gbody), gh.Get("Content-Type"), gh.Get("Cache-Control"))
		}
		if get == http.StatusOK && gbody == "" {
			t.Errorf("GET %s: an empty body", path)
		}
	}
	// Nothing but GET's routes: a POST route stays refused.
	if code, _, _ := ana.ask(t, "HEAD", fmt.Sprintf("/games/%d/turn", id), "", nil); code != http.StatusMethodNotAllowed {
		t.Errorf("HEAD of a POST route: %d, want 405", code)
	}
}
