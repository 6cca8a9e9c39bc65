// Package live tells open pages that something changed, by Server-Sent
// Events. An event says only which topic moved to which version; each page
// then fetches its own viewer-scoped fragment, so no rendered HTML (and
// nothing hidden) is ever broadcast.
//
// Topics are a game ("game:7", whose versions are the game's own, kept in
// the database), its chat ("chat:7", versioned by its newest message's
// id), a user's list of games ("user:3") and the list of open games
// ("lobby"). The last two are versioned by the hub itself, with a
// clock-based counter that keeps growing across restarts, so a page that
// reconnects to a restarted server still catches up.
package live

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Game, User and Lobby name topics.
func Game(id uint) string { return fmt.Sprintf("game:%d", id) }

// Chat is the topic of a game's chat.
func Chat(id uint) string { return fmt.Sprintf("chat:%d", id) }

// User is the topic of a user's games list.
func User(id uint) string { return fmt.Sprintf("user:%d", id) }

// Lobby is the topic of the list of open games.
const Lobby = "lobby"

// Hub fans changes out to the streams watching each topic.
type Hub struct {
	mu       sync.Mutex
	subs     map[string]map[*sub]struct{}
	versions map[string]int // hub-versioned topics
	seq      int
	closed   chan struct{}
	once     sync.Once
	now      func() time.Time

	// minGap is the least time between two events of a stream that
	// follows lists (the lobby, a user's games; not a game): each event
	// makes its page fetch the lists again, and a flood of new tables must
	// not make every open home page refetch many times a second. The
	// newest version is sent once the gap has passed.
	minGap time.Duration
	// heartbeat is how often an idle stream sends a comment to keep
	// proxies from closing it.
	heartbeat time.Duration
}

// The hub's timing unless WithTiming says otherwise.
const (
	DefaultMinGap    = time.Second
	DefaultHeartbeat = 25 * time.Second
)

// Option sets up a Hub.
type Option func(*Hub)

// WithTiming sets a hub's gap between two events of a list's stream and
// its streams' heartbeat (each if > 0).
func WithTiming(minGap, heartbeat time.Duration) Option {
	return func(h *Hub) {
		if minGap > 0 {
			h.minGap = minGap
		}
		if heartbeat > 0 {
			h.heartbeat = heartbeat
		}
	}
}

// New returns an empty hub.
func New(opts ...Option) *Hub {
	h := &Hub{subs: map[string]map[*sub]struct{}{}, versions: map[string]int{}, closed: make(chan struct{}), now: time.Now,
		minGap: DefaultMinGap, heartbeat: DefaultHeartbeat}
	for _, o := range opts {
		o(h)
	}
	return h
}

// Publish tells the watchers of topic that it is now at version.
func (h *Hub) Publish(topic string, version int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.publish(topic, version)
}

func (h *Hub) publish(topic string, version int) {
	for sb := range h.subs[topic] {
		sb.put(topic, version)
	}
}

// sub is one stream's subscription: the newest version of each topic
// not sent yet (only the newest matters: a reader that has not taken the
// last one gets this one instead), and a wake-up for the reader.
type sub struct {
	mu      sync.Mutex
	pending map[string]int
	wake    chan struct{}
}

func (sb *sub) put(topic string, version int) {
	sb.mu.Lock()
	sb.pending[topic] = max(sb.pending[topic], version)
	sb.mu.Unlock()
	select {
	case sb.wake <- struct{}{}:
	default:
	}
}

// take returns the pending versions and forgets them.
func (sb *sub) take() map[string]int {
	sb.mu.Lock()
	defer sb.mu.Unlock()
	p := sb.pending
	sb.pending = map[string]int{}
	return p
}

// Touch moves hub-versioned topics to a new version and tells their
// watchers.
func (h *Hub) Touch(topics ...string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seq = max(h.seq+1, int(h.now().UnixMilli()))
	for _, t := range topics {
		h.versions[t] = h.seq
		h.publish(t, h.seq)
	}
}

// Version is the current version of hub-versioned topics taken together
// (the newest of them); a topic never touched since the hub started counts
// as changed at the start.
func (h *Hub) Version(topics ...string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.seq == 0 {
		h.seq = int(h.now().UnixMilli())
	}
	v := 0
	for _, t := range topics {
		tv, ok := h.versions[t]
		if !ok {
			tv = h.seq
			h.versions[t] = tv
		}
		v = max(v, tv)
	}
	return v
}

func (h *Hub) subscribe(topics []string) (*sub, func()) {
	sb := &sub{pending: map[string]int{}, wake: make(chan struct{}, 1)}
	h.mu.Lock()
	for _, t := range topics {
		if h.subs[t] == nil {
			h.subs[t] = map[*sub]struct{}{}
		}
		h.subs[t][sb] = struct{}{}
	}
	h.mu.Unlock()
	return sb, func() {
		h.mu.Lock()
		for _, t := range topics {
			delete(h.subs[t], sb)
			if len(h.subs[t]) == 0 {
				delete(h.subs, t)
			}
		}
		h.mu.Unlock()
	}
}

// Watchers is the number of open streams on topic.
func (h *Hub) Watchers(topic string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs[topic])
}

// Close ends every stream (at server shutdown).
func (h *Hub) Close() { h.once.Do(func() { close(h.closed) }) }

// Side is a topic a stream follows beside its own: its events are named
// after its kind ("chat") and carry no id, as the stream's ids are its own
// topics' versions. A page that shows it at Seen, older than its current
// version, is sent that version at once.
type Side struct {
	Topic string
	Seen  int
}

// Now reads the current version of a stream's topics and of each of its
// sides (in their order). Stream calls it once it listens: a change made
// meanwhile is then in Now's answer or among the events, never lost.
type Now func() (current int, sides []int, err error)

// Stream serves the events of topics, and of sides, to one page until the
// client leaves or the hub closes. The topics' event is named after the
// first topic's kind ("game", "user", "lobby"). A client that reconnects
// sends the last version it saw (Last-Event-ID, or ?since= on the first
// connection); if the topics have moved on since (now's current is newer),
// current is sent at once so the page catches up. An error of now is
// returned before anything is written.
func (h *Hub) Stream(w http.ResponseWriter, r *http.Request, topics []string, sides []Side, now Now) error {
	fl, ok := w.(http.Flusher)
	if !ok || len(topics) == 0 {
		http.Error(w, "streaming is not supported", http.StatusInternalServerError)
		return nil
	}
	all := append([]string(nil), topics...)
	for _, sd := range sides {
		all = append(all, sd.Topic)
	}
	sb, done := h.subscribe(all)
	defer done()
	current, sideNow, err := now()
	if err != nil {
		return err
	}
	// The server's write timeout is for pages; a stream lives longer.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	event, _, _ := strings.Cut(topics[0], ":")
	last := r.Header.Get("Last-Event-ID")
	if last == "" {
		last = r.URL.Query().Get("since")
	}
	if seen, err := strconv.Atoi(last); err == nil && seen < current {
		send(w, event, topics[0], current, true)
	} else {
		fmt.Fprint(w, ": connected\n\n")
	}
	for i, sd := range sides {
		if i < len(sideNow) && sd.Seen < sideNow[i] {
			kind, _, _ := strings.Cut(sd.Topic, ":")
			send(w, kind, sd.Topic, sideNow[i], false)
		}
	}
	fl.Flush()
	tick := time.NewTicker(h.heartbeat)
	defer tick.Stop()
	in := sb.wake // nil while a list's stream holds its events (minGap)
	var hold <-chan time.Time
	for {
		select {
		case <-in:
			p := sb.take()
			v := 0
			for _, t := range topics {
				v = max(v, p[t])
			}
			if v > 0 {
				send(w, event, topics[0], v, true)
				if event != "game" {
					in, hold = nil, time.After(h.minGap)
				}
			}
			for _, sd := range sides {
				if v, ok := p[sd.Topic]; ok {
					kind, _, _ := strings.Cut(sd.Topic, ":")
					send(w, kind, sd.Topic, v, false)
				}
			}
		case <-hold:
			in, hold = sb.wake, nil
			continue
		case <-tick.C:
			fmt.Fprint(w, ": keep-alive\n\n")
		case <-r.Context().Done():
			return nil
		case <-h.closed:
			return nil
		}
		fl.Flush()
	}
}

// send writes one event; with id, the version is its id too.
func send(w http.ResponseWriter, event, topic string, version int, id bool) {
	if id {
		fmt.Fprintf(w, "id: %d\n", version)
	}
	fmt.Fprintf(w, "event: %s\ndata: {\"topic\":%q,\"version\":%d}\n\n", event, topic, version)
}
