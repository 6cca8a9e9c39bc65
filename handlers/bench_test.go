package handlers_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
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

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}
