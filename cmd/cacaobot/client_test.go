package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A 429 is waited out as Retry-After says and the request sent again,
// with the token; a refusal keeps the site's sentence; a 409 is told
// apart, to read the game again.
func TestClientWaitsAndTellsRefusals(t *testing.T) {
	tries := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok" {
			http.Error(w, `{"error": "no token"}`, http.StatusUnauthorized)
			return
		}
		switch r.URL.Path {
		case "/api/v1/games":
			if tries++; tries == 1 {
				w.Header().Set("Retry-After", "1")
				http.Error(w, `{"error": "too many requests"}`, http.StatusTooManyRequests)
				return
			}
			w.Write([]byte(`[{"id": 7, "yourMove": true}]`))
		case "/api/v1/games/7/turn":
			http.Error(w, `{"error": "the game moved on"}`, http.StatusConflict)
		default:
			http.Error(w, `{"error": "tile 4000 is not in your hand"}`, http.StatusUnprocessableEntity)
		}
	}))
	defer srv.Close()
	c := &client{site: srv.URL, token: "tok", http: srv.Client()}
	ctx := context.Background()

	start := time.Now()
	var games []struct{ ID uint }
	if err := c.do(ctx, http.MethodGet, "/games", nil, &games); err != nil || len(games) != 1 || games[0].ID != 7 {
		t.Fatalf("games %v, %v", games, err)
	}
	if tries != 2 || time.Since(start) < time.Second {
		t.Fatalf("%d tries in %v: the 429 was not waited out", tries, time.Since(start))
	}
	if err := c.do(ctx, http.MethodPost, "/games/7/turn", struct{}{}, &games); !movedOn(err) {
		t.Fatalf("a 409 gives %v", err)
	}
	err := c.do(ctx, http.MethodPost, "/games/7/choice", struct{}{}, &games)
	if err == nil || movedOn(err) || !strings.Contains(err.Error(), "tile 4000 is not in your hand") {
		t.Fatalf("a 422 gives %v, want the site's sentence", err)
	}
}
