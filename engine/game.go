package engine

import (
	"maps"
	"sync/atomic"
)

// Game is a State together with its record: every turn is written down with
// its choices made explicit, and every resolution of another player's batch
// is attached to the turn that caused it, so that Record replays to the same
// position however long the live game took to resolve its choices.
type Game struct {
	rec   Record
	state *State
	// shared says rec.Turns's array may also be another Game's (Clone
	// shares it): it is copied before one of its turns is changed. A turn's
	// reactions map is never changed in place, only replaced, so clones
	// and records may share it.
	shared atomic.Bool
}

// NewGame starts a game for the named players from a setup.
func NewGame(players []string, first int, su Setup) (*Game, error) {
	if len(players) != len(su.Workers) {
		return nil, ErrSetup
	}
	s, err := New(su, first)
	if err != nil {
		return nil, err
	}
	return &Game{rec: Record{Players: append([]string(nil), players...), First: first, Setup: su}, state: s}, nil
}

// State returns the current position. It must not be changed directly.
func (g *Game) State() *State { return g.state }

// Play commits a turn (see State.Play) and records it.
func (g *Game) Play(seat int, m Move) (Outcome, error) {
	out, err := g.state.Play(seat, m)
	if err != nil {
		return out, err
	}
	g.rec.Turns = append(g.rec.Turns, RecordTurn{Seat: seat, Move: Move{
		Placement: out.Placement,
		Fills:     append([]Fill{}, out.Fills...),
		Acts:      append([]Act(nil), out.Acts...),
		Reactions: map[int][]Act{},
	}})
	g.note(out.Resolutions)
	return out, nil
}

// Resolve resolves the head of seat's queue (see State.Resolve) and records it.
func (g *Game) Resolve(seat int, acts []Act) ([]Resolution, error) {
	rs, err := g.state.Resolve(seat, acts)
	g.note(rs)
	return rs, err
}

// ResolveBest applies the best-value choice to the head of seat's queue.
func (g *Game) ResolveBest(seat int) ([]Resolution, error) {
	rs, err := g.state.ResolveBest(seat)
	g.note(rs)
	return rs, err
}

// ResolveAll applies the best-value choice to every pending batch (see
// State.ResolveAll) and records it.
func (g *Game) ResolveAll() []Resolution {
	rs := g.state.ResolveAll()
	g.note(rs)
	return rs
}

// SetAutoDecide sets seat's standing policy (see State.SetAutoDecide).
func (g *Game) SetAutoDecide(seat int, on bool) []Resolution {
	rs := g.state.SetAutoDecide(seat, on)
	g.note(rs)
	return rs
}

func (g *Game) note(rs []Resolution) {
	if len(rs) == 0 {
		return
	}
	if g.shared.Load() {
		g.rec.Turns = append([]RecordTurn(nil), g.rec.Turns...)
		g.shared.Store(false)
	}
	for _, r := range rs {
		t := &g.rec.Turns[r.Turn].Move
		m := make(map[int][]Act, len(t.Reactions)+1)
		maps.Copy(m, t.Reactions)
		m[r.Seat] = append([]Act{}, r.Acts...)
		t.Reactions = m
	}
}

// Record returns the game so far as a record with every choice explicit.
// Batches still pending are absent from it (replay would use the default).
func (g *Game) Record() *Record {
	r := g.rec
	r.Turns = append([]RecordTurn(nil), g.rec.Turns...)
	return &r
}

// Clone returns an independent copy of the game: playing on one does not
// change the other. The record's turns are shared until one of the two
// changes an earlier turn (see note); a new turn goes past the clone's
// end, which is its capacity, so appending never writes where the other
// reads. Many goroutines may clone one game at once.
func (g *Game) Clone() *Game {
	c := &Game{rec: g.rec, state: g.state.Clone()}
	n := len(g.rec.Turns)
	c.rec.Turns = g.rec.Turns[:n:n]
	g.shared.Store(true)
	c.shared.Store(true)
	return c
}
