package live

import (
	"bufio"
	"fmt"
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
		h.Stream(w, r, []string{Game(7)}, nil, at(3))
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
	for h.Watchers(Game(7)) == 0 {
		time.Sleep(time.Millisecond)
	}
	h.Publish(Game(8), 1) // another game: not sent
	h.Publish(Game(7), 4)
	if l := next(); l != "id: 4" {
		t.Fatalf("got %q; want the event for version 4", l)
	}
	if l := next(); l != "event: game" {
		t.Fatalf("got %q", l)
	}
	if l := next(); !strings.Contains(l, `"version":4`) || !strings.Contains(l, `"topic":"game:7"`) {
		t.Fatalf("got %q", l)
	}
	h.Close()
	if l := next(); l != "<end>" {
		t.Fatalf("stream went on after Close: %q", l)
	}
	for h.Watchers(Game(7)) != 0 {
		time.Sleep(time.Millisecond)
	}
}

// TestTouchTopics: a stream over a user's topic and the lobby hears a touch
// of either, not of another user; versions keep growing, and a client that
// saw an older version catches up on connect.
func TestTouchTopics(t *testing.T) {
	h := New()
	clock := time.UnixMilli(1_000_000)
	h.now = func() time.Time { return clock }
	start := h.Version(User(1), Lobby)
	if start != 1_000_000 {
		t.Fatalf("start version %d; want the clock's milliseconds", start)
	}
	h.Touch(Lobby)
	if v := h.Version(User(1), Lobby); v <= start {
		t.Fatalf("version did not grow: %d after %d", v, start)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.Stream(w, r, []string{User(1), Lobby}, nil, func() (int, []int, error) { return h.Version(User(1), Lobby), nil, nil })
	}))
	defer srv.Close()
	res, err := http.Get(srv.URL + "?since=" + fmt.Sprint(start))
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
	if l := next(); l != fmt.Sprintf("id: %d", start+1) {
		t.Fatalf("a client behind the lobby's version got %q; want it at once", l)
	}
	if l := next(); l != "event: user" {
		t.Fatalf("got %q", l)
	}
	next()
	for h.Watchers(Lobby) == 0 || h.Watchers(User(1)) == 0 {
		time.Sleep(time.Millisecond)
	}
	h.Touch(User(2)) // someone else's list: not sent
	h.Touch(User(1))
	if l := next(); l != fmt.Sprintf("id: %d", start+3) {
		t.Fatalf("got %q; want the touch of user 1", l)
	}
	h.Close()
}

// TestSlowReaderGetsNewest: versions published while a stream has not read
// the last one replace it, so the stream is told the newest version (a
// player's move and a bot's answer land in one request).
func TestSlowReaderGetsNewest(t *testing.T) {
	h := New()
	sb, done := h.subscribe([]string{Game(1)})
	defer done()
	h.Publish(Game(1), 2)
	h.Publish(Game(1), 3)
	<-sb.wake
	if v := sb.take()[Game(1)]; v != 3 {
		t.Fatalf("the reader got version %d; want the newest, 3", v)
	}
}

// TestListsCoalesced: a page following the lists (the lobby, a user's
// games) is told at most once per gap (WithTiming) however often they
// change, and always of the newest version; a game's page is told of every
// change at once.
func TestListsCoalesced(t *testing.T) {
	const gap = 300 * time.Millisecond
	h := New(WithTiming(gap, 0))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/game" {
			h.Stream(w, r, []string{Game(7)}, nil, at(0))
			return
		}
		h.Stream(w, r, []string{Lobby}, nil, func() (int, []int, error) { return h.Version(Lobby), nil, nil })
	}))
	defer srv.Close()
	defer h.Close() // ends the streams, which the server waits for
	ids := func(path string) <-chan string {
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		out := make(chan string, 100)
		go func() {
			sc := bufio.NewScanner(res.Body)
			for sc.Scan() {
				if id, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
					out <- id
				}
			}
		}()
		return out
	}
	lobby, game := ids("/lobby"), ids("/game")
	for h.Watchers(Lobby) == 0 || h.Watchers(Game(7)) == 0 {
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	for i := 1; i <= 20; i++ {
		h.Touch(Lobby)
		h.Publish(Game(7), i)
		time.Sleep(5 * time.Millisecond)
	}
	last := fmt.Sprint(h.Version(Lobby))
	var got []string
	for deadline := time.After(gap + 500*time.Millisecond); ; {
		select {
		case id := <-lobby:
			got = append(got, id)
			continue
		case <-deadline:
		}
		break
	}
	if len(got) > 1+int(time.Since(start)/gap)+1 || len(got) == 0 || got[len(got)-1] != last {
		t.Fatalf("the lobby page was told %v in %v; want at most one each %v, the last %s", got, time.Since(start), gap, last)
	}
	n := 0
	for len(game) > 0 {
		<-game
		n++
	}
	if n < 15 {
		t.Fatalf("the game page was told of %d of 20 changes", n)
	}
}

// TestSideTopic: a game's stream also tells of its chat, as events of
// their own without an id (the stream's ids stay the game's versions); a
// page that shows an older chat is told at once, and a game move and a
// message published together both arrive.
func TestSideTopic(t *testing.T) {
	h := New()
	sc := openStream(t, h, func(w http.ResponseWriter, r *http.Request) {
		h.Stream(w, r, []string{Game(7)}, []Side{{Topic: Chat(7), Seen: 1}}, func() (int, []int, error) { return 3, []int{2}, nil })
	})
	var lines []string
	read := func(n int) string {
		lines = lines[:0]
		for len(lines) < n && sc.Scan() {
			if l := sc.Text(); l != "" {
				lines = append(lines, l)
			}
		}
		return strings.Join(lines, " | ")
	}
	if got := read(3); got != `: connected | event: chat | data: {"topic":"chat:7","version":2}` {
		t.Fatalf("on connect: %s", got)
	}
	for h.Watchers(Chat(7)) == 0 {
		time.Sleep(time.Millisecond)
	}
	h.mu.Lock() // both land before the stream wakes
	h.publish(Game(7), 4)
	h.publish(Chat(7), 3)
	h.mu.Unlock()
	if got := read(5); got != `id: 4 | event: game | data: {"topic":"game:7","version":4} | event: chat | data: {"topic":"chat:7","version":3}` {
		t.Fatalf("a move and a message: %s", got)
	}
}

// TestMoveWhileConnecting: a move committed while a stream connects (after
// the handler read the game's version, before the stream listened) reaches
// the page: the stream listens first, then reads what it tells.
func TestMoveWhileConnecting(t *testing.T) {
	h := New()
	sc := openStream(t, h, func(w http.ResponseWriter, r *http.Request) {
		h.Stream(w, r, []string{Game(7)}, nil, func() (int, []int, error) {
			h.Publish(Game(7), 4) // the move, committed just after the read
			return 3, nil, nil
		})
	})
	got := make(chan string, 1)
	go func() {
		for sc.Scan() {
			if l := sc.Text(); strings.HasPrefix(l, "id: ") {
				got <- l
				return
			}
		}
	}()
	select {
	case l := <-got:
		if l != "id: 4" {
			t.Fatalf("got %q; want the move's version 4", l)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the move made while the stream connected never reached it")
	}
}

// openStream serves stream and connects to it as a page at version 3
// does; the hub, the server and the connection close when the test ends.
func openStream(t *testing.T, h *Hub, stream http.HandlerFunc) *bufio.Scanner {
	t.Helper()
	srv := httptest.NewServer(stream)
	t.Cleanup(srv.Close)
	t.Cleanup(h.Close)
	res, err := http.Get(srv.URL + "?since=3")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return bufio.NewScanner(res.Body)
}

// at is a Now of a stream without sides at version v.
func at(v int) Now { return func() (int, []int, error) { return v, nil, nil } }

// TestHeartbeat: an idle stream sends a comment each heartbeat
// (WithTiming), so that proxies keep it open.
func TestHeartbeat(t *testing.T) {
	h := New(WithTiming(0, 50*time.Millisecond))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.Stream(w, r, []string{Game(1)}, nil, at(0))
	}))
	defer srv.Close()
	defer h.Close()
	res, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	lines := make(chan string, 16)
	go func() {
		for sc := bufio.NewScanner(res.Body); sc.Scan(); {
			lines <- sc.Text()
		}
	}()
	beats := 0
	for deadline := time.After(5 * time.Second); beats < 2; {
		select {
		case l := <-lines:
			if l == ": keep-alive" {
				beats++
			}
			continue
		case <-deadline:
		}
		break
	}
	if beats < 2 {
		t.Fatalf("%d keep-alive comments; want one each 50ms", beats)
	}
}
