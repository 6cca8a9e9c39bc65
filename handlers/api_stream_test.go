package handlers_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"cacao/handlers"
)

type apiEvent struct {
	Type    string
	Game    uint
	Version int
	Message *struct {
		Name, Text string
	}
}

// apiStream opens c's API stream at path: its lines arrive on the
// channel until the test ends; the status is the answer's.
func (c *client) apiStream(path string) (<-chan apiEvent, int) {
	c.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	c.t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", c.s.srv.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+c.token)
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	ch := make(chan apiEvent, 100)
	if res.StatusCode != http.StatusOK {
		res.Body.Close()
		return ch, res.StatusCode
	}
	go func() {
		defer close(ch)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			var e apiEvent
			if len(sc.Bytes()) > 0 && json.Unmarshal(sc.Bytes(), &e) == nil {
				ch <- e
			}
		}
	}()
	return ch, res.StatusCode
}

// await waits a few seconds for an event of kind in game on ch.
func await(t *testing.T, ch <-chan apiEvent, kind string, game uint) apiEvent {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case e, ok := <-ch:
			if !ok {
				t.Fatalf("the stream ended before a %q event of game %d", kind, game)
			}
			if e.Type == kind && e.Game == game {
				return e
			}
		case <-deadline:
			t.Fatalf("no %q event of game %d", kind, game)
		}
	}
}

// The stream tells each player of their turn, at once and when it comes,
// of a chat message, of an invitation, and a watcher of a move; it holds
// one of the account's places among its event streams.
func TestAPIStream(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	ana.withToken()
	bob.withToken()
	eve := s.signup("eve").withToken()
	anaEvents, code := ana.apiStream("/api/v1/stream")
	bobEvents, _ := bob.apiStream("/api/v1/stream")
	watch, _ := eve.apiStream(fmt.Sprintf("/api/v1/stream?watch=%d", id))
	if code != http.StatusOK {
		t.Fatalf("ana's stream: %d", code)
	}
	first, second, firstEvents, secondEvents := ana, bob, anaEvents, bobEvents
	if seat, l := s.seatOf(id, "bob"); l.Play.State().Current() == seat {
		first, second, firstEvents, secondEvents = bob, ana, bobEvents, anaEvents
	}
	await(t, firstEvents, "turn", id) // what waits, at once
	first.apiStep(id)
	if e := await(t, secondEvents, "turn", id); e.Version == 0 {
		t.Errorf("the turn event has no version: %+v", e)
	}
	await(t, watch, "move", id)

	if code, body := second.api("POST", fmt.Sprintf("/api/v1/games/%d/chat", id), map[string]string{"text": "well played"}, nil); code != http.StatusOK {
		t.Fatalf("chat: %d %s", code, body)
	}
	if e := await(t, firstEvents, "chat", id); e.Message == nil || e.Message.Text != "well played" || e.Message.Name != second.name {
		t.Errorf("the chat event: %+v", e)
	}

	// The chat reads as the page shows it, to the players and a watcher.
	for _, c := range []*client{first, eve} {
		var msgs []struct{ Name, Text string }
		if code, body := c.api("GET", fmt.Sprintf("/api/v1/games/%d/chat", id), nil, &msgs); code != http.StatusOK || len(msgs) != 1 || msgs[0].Text != "well played" {
			t.Errorf("the chat as %s reads it: %d %s", c.name, code, body)
		}
	}

	var g apiGame
	eve.api("POST", "/api/v1/games", map[string]any{"seats": []string{"@ana"}}, &g)
	await(t, anaEvents, "invitation", g.ID)

	// A private game eve may not watch is not found.
	cyd := s.signup("cyd").withToken()
	var p apiGame
	cyd.api("POST", "/api/v1/games", map[string]any{"seats": []string{"hard"}, "private": true}, &p)
	if _, code := eve.apiStream(fmt.Sprintf("/api/v1/stream?watch=%d", p.ID)); code != http.StatusNotFound {
		t.Errorf("watching another's private game: %d", code)
	}
	// Revoking the token ends its stream: the next message is not sent.
	cydEvents, _ := cyd.apiStream("/api/v1/stream")
	if err := s.store.SignOutEverywhere(userID(t, s, "cyd")); err != nil {
		t.Fatal(err)
	}
	cyd2 := s.signup("cye").withToken()
	cyd2.api("POST", "/api/v1/games", map[string]any{"seats": []string{"@cyd"}}, nil) // news for cyd's stream
	ends(t, cydEvents, "invitation")
	// The account's places: ana holds one; the rest, then a refusal.
	for i := 1; i < handlers.MaxStreamsPerUser; i++ {
		if _, code := ana.apiStream("/api/v1/stream"); code != http.StatusOK {
			t.Fatalf("ana's stream %d: %d", i+1, code)
		}
	}
	if _, code := ana.apiStream("/api/v1/stream"); code != http.StatusTooManyRequests {
		t.Fatalf("a stream past the account's %d: %d", handlers.MaxStreamsPerUser, code)
	}
}

// ends waits a few seconds for the stream ch to end, and fails on an
// event of kind meanwhile.
func ends(t *testing.T, ch <-chan apiEvent, kind string) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case e, ok := <-ch:
			if !ok {
				return
			}
			if e.Type == kind {
				t.Fatalf("a revoked token's stream went on: %+v", e)
			}
		case <-deadline:
			t.Fatal("a revoked token's stream is still open")
		}
	}
}
