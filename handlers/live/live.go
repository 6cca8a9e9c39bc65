// Package live tells open pages that a game changed, by Server-Sent Events.
// An event says only which game moved to which version; each page then
// fetches its own viewer-scoped fragment, so no rendered HTML (and nothing
// hidden) is ever broadcast.
package live

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Hub fans game changes out to the streams watching each game.
type Hub struct {
	mu     sync.Mutex
	subs   map[uint]map[chan int]struct{}
	closed chan struct{}
	once   sync.Once
}

// New returns an empty hub.
func New() *Hub { return &Hub{subs: map[uint]map[chan int]struct{}{}, closed: make(chan struct{})} }

// Publish tells the watchers of game that it is now at version.
func (h *Hub) Publish(game uint, version int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs[game] {
		select {
		case ch <- version:
		default: // a slow reader catches up on the next event: only the newest version matters
		}
	}
}

func (h *Hub) subscribe(game uint) (chan int, func()) {
	ch := make(chan int, 1)
	h.mu.Lock()
	if h.subs[game] == nil {
		h.subs[game] = map[chan int]struct{}{}
	}
	h.subs[game][ch] = struct{}{}
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		delete(h.subs[game], ch)
		if len(h.subs[game]) == 0 {
			delete(h.subs, game)
		}
		h.mu.Unlock()
	}
}

// Watchers is the number of open streams on game.
func (h *Hub) Watchers(game uint) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs[game])
}

// Close ends every stream (at server shutdown).
func (h *Hub) Close() { h.once.Do(func() { close(h.closed) }) }

// Heartbeat is how often an idle stream sends a comment to keep proxies from
// closing it.
var Heartbeat = 25 * time.Second

// Stream serves one game's events to one page until the client leaves or the
// hub closes. A client that reconnects sends the last version it saw
// (Last-Event-ID, or ?since= on the first connection); if the game has moved
// on since, the current version is sent at once so the page catches up.
func (h *Hub) Stream(w http.ResponseWriter, r *http.Request, game uint, current int) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming is not supported", http.StatusInternalServerError)
		return
	}
	// The server's write timeout is for pages; a stream lives longer.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	ch, done := h.subscribe(game)
	defer done()
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	last := r.Header.Get("Last-Event-ID")
	if last == "" {
		last = r.URL.Query().Get("since")
	}
	if seen, err := strconv.Atoi(last); err == nil && seen < current {
		send(w, game, current)
	} else {
		fmt.Fprint(w, ": connected\n\n")
	}
	fl.Flush()
	tick := time.NewTicker(Heartbeat)
	defer tick.Stop()
	for {
		select {
		case v := <-ch:
			send(w, game, v)
		case <-tick.C:
			fmt.Fprint(w, ": keep-alive\n\n")
		case <-r.Context().Done():
			return
		case <-h.closed:
			return
		}
		fl.Flush()
	}
}

func send(w http.ResponseWriter, game uint, version int) {
	fmt.Fprintf(w, "id: %d\nevent: game\ndata: {\"game\":%d,\"version\":%d}\n\n", version, game, version)
}
