package handlers_test

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"cacao/engine"
	"cacao/handlers"
	"cacao/views/viewtest"
)

// BenchmarkGamePage renders a mid-game page for a player, through the
// real router and an in-memory database, as an htmx refetch does.
func BenchmarkGamePage(b *testing.B) {
	s := newSite(b)
	id, ana, _ := s.midGame()
	h := s.srv.Config.Handler
	cookies := ana.http.Jar.Cookies(mustURL(s.srv.URL))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req := httptest.NewRequest("GET", fmt.Sprintf("/games/%d", id), nil)
		req.Header.Set("HX-Request", "true")
		for _, c := range cookies {
			req.AddCookie(c)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("status %d", w.Code)
		}
	}
}

// BenchmarkTurn is the server's work for one move of a two-person game,
// asked as the pages ask (cmd/loadtest's turn, without the network and
// the generator): for a turn, the tile and then the cell chosen (htmx
// steps), the move confirmed, and the
// other player's page fetched again; for a pending choice, the choice
// confirmed and the other's page. Answers are gzipped as for a browser.
// Choosing the move and reading the answers is not timed, nor is starting
// a new game when one ends. In-memory database.
func BenchmarkTurn(b *testing.B) {
	s := newSiteWith(b, func(c *handlers.Config) { c.GamesPerHour = -1 }) // a game is opened whenever one ends
	ana, bob := s.signup("ana"), s.signup("bob")
	h := s.srv.Config.Handler
	base := mustURL(s.srv.URL)
	requests := 0
	// ask serves one htmx request from c's page and returns the answer's
	// page key (untimed).
	ask := func(c *client, method, path string, form url.Values) {
		var body io.Reader
		if form != nil {
			body = strings.NewReader(form.Encode())
		}
		req := httptest.NewRequest(method, path, body)
		req.Header.Set("HX-Request", "true")
		req.Header.Set("X-CSRF-Token", c.csrf)
		req.Header.Set("Accept-Encoding", "gzip")
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		for _, ck := range c.http.Jar.Cookies(base) {
			req.AddCookie(ck)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		b.StopTimer()
		defer b.StartTimer()
		if w.Code != http.StatusOK {
			b.Fatalf("%s %s: status %d", method, path, w.Code)
		}
		zr, err := gzip.NewReader(w.Body)
		if err != nil {
			b.Fatalf("%s %s: %v", method, path, err)
		}
		page, _ := io.ReadAll(zr)
		if viewtest.Has(b, string(page), ".error") {
			b.Fatalf("%s %s refused:\n%s", method, path, page)
		}
	}
	var id uint
	newGame := func() {
		id = ana.createGame("open", "none", "none")
		bob.post(fmt.Sprintf("/games/%d/join", id), nil)
		for _, c := range []*client{ana, bob} {
			ask(c, "GET", fmt.Sprintf("/games/%d", id), nil)
		}
	}
	newGame()
	r := engine.NewRand(1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		mover, other := ana, bob
		m, ok := ana.plan(id, r, nil)
		if !ok {
			mover, other = bob, ana
			m, ok = bob.plan(id, r, nil)
		}
		if !ok {
			newGame()
			i--
			b.StartTimer()
			continue
		}
		b.StartTimer()
		requests += 2
		if m.pl != nil {
			requests += 2
			q := url.Values{"tile": {m.pl.Tile.String()}, "rot": {fmt.Sprint(m.pl.Rot)}}
			ask(mover, "GET", fmt.Sprintf("/games/%d?%s", id, q.Encode()), nil)
			q.Set("at", fmt.Sprintf("%d,%d", m.pl.At.X, m.pl.At.Y))
			if m.pl.Overbuild {
				q.Set("overbuild", "1")
			}
			ask(mover, "GET", fmt.Sprintf("/games/%d?%s", id, q.Encode()), nil)
		}
		ask(mover, "POST", m.path, m.form)
		ask(other, "GET", fmt.Sprintf("/games/%d", id), nil)
	}
	b.ReportMetric(float64(requests)/float64(b.N), "req/op")
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}
