package live

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestStreamAndClose: a stream receives the versions published for its game
// only, the hub counts it, and closing the hub ends it.
func TestStreamAndClose(t *testing.T) {
	h := New()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.Stream(w, r, 7, 3)
	}))
	defer srv.Close()
	res, err := http.Get(srv.URL + "?since=3")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	next := func() string {
		for sc.Scan() {
			if l := sc.Text(); l != "" {
				return l
			}
		}
		return "<end>"
	}
	if l := next(); l != ": connected" {
		t.Fatalf("first line %q", l)
	}
	for h.Watchers(7) == 0 {
		time.Sleep(time.Millisecond)
	}
	h.Publish(8, 1) // another game: not sent
	h.Publish(7, 4)
	if l := next(); l != "id: 4" {
		t.Fatalf("got %q; want the event for version 4", l)
	}
	if l := next(); l != "event: game" {
		t.Fatalf("got %q", l)
	}
	if l := next(); !strings.Contains(l, `"version":4`) || !strings.Contains(l, `"game":7`) {
		t.Fatalf("got %q", l)
	}
	h.Close()
	if l := next(); l != "<end>" {
		t.Fatalf("stream went on after Close: %q", l)
	}
	for h.Watchers(7) != 0 {
		time.Sleep(time.Millisecond)
	}
}
