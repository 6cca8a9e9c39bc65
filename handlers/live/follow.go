package live

import "time"

// Follower follows topics for a client that reads the changes itself (the
// API's stream) rather than a page's Server-Sent Events.
type Follower struct {
	sb   *sub
	stop func()
	// Wake receives when a topic moved; Take then tells which, and to
	// what version.
	Wake <-chan struct{}
}

// Follow starts following topics; Stop ends it.
func (h *Hub) Follow(topics []string) *Follower {
	sb, stop := h.subscribe(topics)
	return &Follower{sb: sb, stop: stop, Wake: sb.wake}
}

// Take returns the newest version of each topic that moved since the last
// Take, and forgets them.
func (f *Follower) Take() map[string]int { return f.sb.take() }

// Stop ends the following.
func (f *Follower) Stop() { f.stop() }

// Done is closed when the hub closes (at shutdown): every stream ends.
func (h *Hub) Done() <-chan struct{} { return h.closed }

// Timing is the hub's least gap between two events of a list's stream and
// its heartbeat (WithTiming).
func (h *Hub) Timing() (minGap, heartbeat time.Duration) { return h.minGap, h.heartbeat }
