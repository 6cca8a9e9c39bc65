package handlers

import (
	"fmt"
	"net/http"
	"sync"

	"github.com/labstack/echo/v4"

	"cacao/handlers/live"
)

// MaxStreamsPerUser is how many event streams (open pages) one account
// may hold at once: a browser opens at most six connections to a site,
// so more are tabs nobody looks at, or an attack.
const MaxStreamsPerUser = 8

// defaultMaxStreams is how many event streams the site holds at once
// (Config.MaxStreams): each costs some 25 KB, and the load target's 900
// open pages fit several times.
const defaultMaxStreams = 2000

// streams counts the open event streams, per viewer (a user, or the
// address of someone not signed in), of viewers not signed in, and in all.
// Viewers not signed in hold at most half of the site's streams: anyone
// can come from many addresses, and players signed in keep the other
// half however many do.
type streams struct {
	mu      sync.Mutex
	max     int
	total   int
	anon    int
	byUser  map[string]int
	maxAnon int
}

func newStreams(max int) *streams {
	if max <= 0 {
		max = defaultMaxStreams
	}
	return &streams{max: max, maxAnon: max / 2, byUser: map[string]int{}}
}

// take holds a place for a stream of viewer (anonymous: not signed in),
// or refuses it (429); release gives the place back.
func (st *streams) take(viewer string, anonymous bool) (release func(), err error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.byUser[viewer] >= MaxStreamsPerUser {
		return nil, refusal(http.StatusTooManyRequests, "too many pages of yours follow games live: close some")
	}
	if st.total >= st.max || anonymous && st.anon >= st.maxAnon {
		return nil, refusal(http.StatusTooManyRequests, "too many pages follow games live right now: try again in a moment")
	}
	anon := 0
	if anonymous {
		anon = 1
	}
	st.total++
	st.anon += anon
	st.byUser[viewer]++
	return func() {
		st.mu.Lock()
		defer st.mu.Unlock()
		st.total--
		st.anon -= anon
		if st.byUser[viewer]--; st.byUser[viewer] == 0 {
			delete(st.byUser, viewer)
		}
	}, nil
}

// stream holds c's place among the streams while live streams it.
func (s *Server) stream(c echo.Context, topics []string, sides []live.Side, now live.Now) error {
	viewer := "address " + AddressOf(c.RealIP())
	u := currentUser(c)
	if u != nil {
		viewer = fmt.Sprint("user ", u.ID)
	}
	release, err := s.streams.take(viewer, u == nil)
	if err != nil {
		return err
	}
	defer release()
	return s.live.Stream(c.Response(), c.Request(), topics, sides, now)
}
