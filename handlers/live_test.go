package handlers_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"cacao/engine"
	"cacao/views/viewtest"
)

// events opens a game's event stream as a browser would, with the
// client's cookies, and returns the lines it reads.
func (c *client) events(ctx context.Context, id uint, lastID string) (<-chan string, error) {
	return c.stream(ctx, fmt.Sprintf("/games/%d/events", id), lastID)
}

// stream opens the event stream at path.
func (c *client) stream(ctx context.Context, path, lastID string) (<-chan string, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", c.s.srv.URL+path, nil)
	req.Header.Set("Accept", "text/event-stream")
	if c.ip != "" {
		req.Header.Set("X-Forwarded-For", c.ip)
	}
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		res.Body.Close()
		return nil, fmt.Errorf("events: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	lines := make(chan string, 64)
	go func() {
		defer res.Body.Close()
		defer close(lines)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	return lines, nil
}

// waitFor reads lines until one has the prefix, or fails after a while.
func waitFor(t *testing.T, lines <-chan string, prefix string) string {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("stream ended before %q", prefix)
			}
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-deadline:
			t.Fatalf("no %q within 10 s", prefix)
		}
	}
}

// TestLiveUpdates: a subscribed page is told when the other player commits a
// turn (the event names the game and version, never HTML), and a page that
// reconnects after missing events catches up at once.
func TestLiveUpdates(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	seatAna, l := s.seatOf(id, "ana")
	watcher, mover := bob, ana
	if l.Play.State().Current() != seatAna {
		watcher, mover = ana, bob
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	lines, err := watcher.events(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, lines, ": connected")
	if !mover.act(id, engine.NewRand(1)) {
		t.Fatal("the mover could not move")
	}
	_, after := s.seatOf(id, "ana")
	ev := waitFor(t, lines, "data: ")
	want := fmt.Sprintf(`data: {"topic":"game:%d","version":%d}`, id, after.Game.Version)
	if ev != want {
		t.Fatalf("event %q; want %q", ev, want)
	}
	cancel()

	// Reconnecting with the version seen before the move: caught up at once.
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	lines2, err := watcher.events(ctx2, id, fmt.Sprint(l.Game.Version))
	if err != nil {
		t.Fatal(err)
	}
	if got := waitFor(t, lines2, "id: "); got != fmt.Sprintf("id: %d", after.Game.Version) {
		t.Fatalf("catch-up event %q; want version %d", got, after.Game.Version)
	}
	cancel2()

	// Up to date: no event until something changes.
	ctx3, cancel3 := context.WithCancel(context.Background())
	defer cancel3()
	lines3, err := watcher.events(ctx3, id, fmt.Sprint(after.Game.Version))
	if err != nil {
		t.Fatal(err)
	}
	if got := waitFor(t, lines3, ":"); got != ": connected" {
		t.Fatalf("an up-to-date page got %q", got)
	}
	cancel3()

	// The page subscribes, and knows how to refetch its own view.
	_, page := watcher.get(fmt.Sprintf("/games/%d", id))
	if !viewtest.Has(t, page, fmt.Sprintf(`[sse-connect="/games/%d/events?since=%d&chat=0"]`, id, after.Game.Version)) || !viewtest.Has(t, page, fmt.Sprintf(`[hx-trigger="sse:game"][data-live-version="%d"]`, after.Game.Version)) {
		t.Fatalf("the game page does not subscribe to its events:\n%s", viewtest.Show(t, page, "[sse-connect], [hx-trigger]"))
	}
	// Watchers not signed in follow a public game too (a private one is
	// not found: TestWatching).
	anon := s.client("anon")
	ctx4, cancel4 := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel4()
	lines4, err := anon.events(ctx4, id, fmt.Sprint(after.Game.Version))
	if err != nil {
		t.Fatalf("a watcher not signed in: %v", err)
	}
	if got := waitFor(t, lines4, ":"); got != ": connected" {
		t.Fatalf("a watcher not signed in got %q", got)
	}
	cancel4()
	if _, err := watcher.events(context.Background(), 999, ""); err == nil {
		t.Fatal("a stream for a game that does not exist")
	}
}
