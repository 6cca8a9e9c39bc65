package handlers

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"cacao/handlers/api"
	"cacao/handlers/live"
	"cacao/models"
)

// maxWatched is how many games one stream may watch.
const maxWatched = 20

// apiStream streams the caller's events as newline-delimited JSON
// (api.Event) until they leave: at once what waits on them now (turns,
// choices, invitations), then each change. ?watch=ID,ID,… adds the moves
// of games they may watch. It holds one of the caller's places among the
// event streams, as an open page does.
func (s *Server) apiStream(c echo.Context) error {
	u := currentUser(c)
	watched, err := s.apiWatched(c)
	if err != nil {
		return err
	}
	release, err := s.streams.take(fmt.Sprint("user ", u.ID), false)
	if err != nil {
		return err
	}
	defer release()
	topics := []string{live.User(u.ID)}
	for _, id := range watched {
		topics = append(topics, live.Game(id))
	}
	// Followed before the state is read: a change meanwhile is in the
	// state read or among the changes, never lost.
	follow := s.live.Follow(topics)
	defer follow.Stop()
	st := &apiStreamState{s: s, user: u, waiting: map[uint]int{}, invited: map[uint]bool{}, chats: map[uint]uint{}}
	lines, err := st.scan()
	if err != nil {
		return err
	}
	chats := s.live.Follow(st.chatTopics())
	defer func() { chats.Stop() }()
	more, err := st.chat(nil) // a message between the scan and following its chat
	if err != nil {
		return err
	}
	lines = append(lines, more...)

	w := c.Response()
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	w.Header().Set(echo.HeaderContentType, "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	enc := json.NewEncoder(w)
	write := func(evs []api.Event) {
		for _, e := range evs {
			_ = enc.Encode(e)
		}
		w.Flush()
	}
	write(lines)
	if len(lines) == 0 {
		_, _ = w.Write([]byte("\n"))
		w.Flush()
	}
	_, heartbeat := s.live.Timing()
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	tok := c.Get(tokenKey).(*models.Token)
	for {
		select {
		case <-follow.Wake:
			if !s.tokenLive(tok) {
				return nil
			}
			moved := follow.Take()
			var out []api.Event
			for _, id := range watched {
				if v, ok := moved[live.Game(id)]; ok {
					out = append(out, api.Event{Type: "move", Game: id, Version: v})
				}
			}
			if _, ok := moved[live.User(u.ID)]; ok {
				before := st.chatTopics()
				more, err := st.scan()
				if err != nil {
					s.log.Warn("the API's stream", "err", err)
				}
				out = append(out, more...)
				if after := st.chatTopics(); strings.Join(after, " ") != strings.Join(before, " ") {
					next := s.live.Follow(after)
					chats.Stop()
					chats = next
					// What the old one held, or a new game's chat had
					// before it was followed.
					more, err := st.chat(nil)
					if err != nil {
						s.log.Warn("the API's stream", "err", err)
					}
					out = append(out, more...)
				}
			}
			write(out)
		case <-chats.Wake:
			if !s.tokenLive(tok) {
				return nil
			}
			out, err := st.chat(chats.Take())
			if err != nil {
				s.log.Warn("the API's stream", "err", err)
			}
			write(out)
		case <-tick.C:
			if !s.tokenLive(tok) {
				return nil
			}
			_, _ = w.Write([]byte("\n"))
			w.Flush()
		case <-c.Request().Context().Done():
			return nil
		case <-s.live.Done():
			return nil
		}
	}
}

// apiWatched reads ?watch=: the games, each one the caller may watch.
func (s *Server) apiWatched(c echo.Context) ([]uint, error) {
	var out []uint
	q := c.QueryParam("watch")
	if q == "" {
		return nil, nil
	}
	for _, f := range strings.Split(q, ",") {
		id, err := strconv.ParseUint(strings.TrimSpace(f), 10, 32)
		if err != nil || id == 0 {
			return nil, models.ErrNotFound
		}
		if len(out) == maxWatched {
			return nil, refusal(http.StatusUnprocessableEntity, "a stream watches at most %d games", maxWatched)
		}
		ok, err := s.store.CanWatch(uint(id), currentUser(c))
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, models.ErrNotFound
		}
		out = append(out, uint(id))
	}
	return out, nil
}

// apiStreamState is what a stream has told its caller: the version each
// game waited on them at, the invitations, each of their games' newest
// chat message.
type apiStreamState struct {
	s       *Server
	user    *models.User
	waiting map[uint]int
	invited map[uint]bool
	chats   map[uint]uint
}

// scan reads the caller's games and invitations and returns what is new
// since the last scan.
func (st *apiStreamState) scan() ([]api.Event, error) {
	games, _, err := st.s.store.MyGames(st.user.ID, 0, apiPageSize)
	if err != nil {
		return nil, err
	}
	var out []api.Event
	chats := map[uint]uint{}
	for _, g := range games {
		id := g.Game.ID
		seen, known := st.chats[id]
		if !known {
			seen = g.Game.LastChat // messages from before the stream (or the game) are not news
		}
		chats[id] = seen
		if !g.WaitingOnMe {
			delete(st.waiting, id)
			continue
		}
		if v, ok := st.waiting[id]; ok && v == g.Game.Version {
			continue
		}
		st.waiting[id] = g.Game.Version
		kind := "turn"
		if l, err := st.s.store.LoadGame(id); err == nil && l.Play != nil {
			if seat := l.SeatOf(st.user.ID); seat >= 0 && len(l.Play.State().Player(seat).Queue()) > 0 {
				kind = "choice"
			}
		}
		out = append(out, api.Event{Type: kind, Game: id, Version: g.Game.Version})
	}
	st.chats = chats
	invites, _, err := st.s.store.Invitations(st.user.ID, 0, apiPageSize)
	if err != nil {
		return out, err
	}
	now := map[uint]bool{}
	for _, g := range invites {
		now[g.Game.ID] = true
		if !st.invited[g.Game.ID] {
			out = append(out, api.Event{Type: "invitation", Game: g.Game.ID})
		}
	}
	st.invited = now
	return out, nil
}

// chatTopics are the chats of the caller's games, in one order.
func (st *apiStreamState) chatTopics() []string {
	out := make([]string, 0, len(st.chats))
	for id := range st.chats {
		out = append(out, live.Chat(id))
	}
	slices.Sort(out)
	return out
}

// chat returns the messages of others new in the chats that moved (nil:
// every chat), but hidden ones, and none of a chat the caller muted.
func (st *apiStreamState) chat(moved map[string]int) ([]api.Event, error) {
	var out []api.Event
	for id, seen := range st.chats {
		if moved != nil {
			if _, ok := moved[live.Chat(id)]; !ok {
				continue
			}
		} else if last, err := st.s.store.LastChat(id); err != nil || last <= seen {
			if err != nil {
				return out, err
			}
			continue // nothing new: not read
		}
		l, err := st.s.store.LoadGame(id)
		if err != nil {
			return out, err
		}
		i := models.UserSeat(l.Seats, st.user.ID)
		if i < 0 || l.Seats[i].ChatMuted {
			continue
		}
		msgs, _, err := st.s.store.Chat(id, 0)
		if err != nil {
			return out, err
		}
		for _, m := range msgs {
			if m.ID > seen && !m.Hidden && m.UserID != st.user.ID {
				out = append(out, api.Event{Type: "chat", Game: id, Message: &api.Chat{ID: m.ID, Name: m.Name, Text: m.Text, At: m.CreatedAt}})
			}
			st.chats[id] = max(st.chats[id], m.ID)
		}
	}
	return out, nil
}

// tokenLive reports whether a stream's token still stands for an account
// that is not banned: revoking it, or a ban, ends the stream.
func (s *Server) tokenLive(tok *models.Token) bool {
	u, err := s.store.TokenHolder(tok.ID)
	return err == nil && u.BannedAt == nil
}
