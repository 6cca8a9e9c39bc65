package engine

import "maps"

// Game is a State together with its record: every turn is written down with
// its choices made explicit, and every resolution of another player's batch
// is attached to the turn that caused it, so that Record replays to the same
// position however long the live game took to resolve its choices.
type Game struct {
	rec   Record
	state *State
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
	for _, r := range rs {
		g.rec.Turns[r.Turn].Move.Reactions[r.Seat] = append([]Act{}, r.Acts...)
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
// change the other.
func (g *Game) Clone() *Game {
	c := &Game{rec: g.rec, state: g.state.Clone()}
	c.rec.Turns = append([]RecordTurn(nil), g.rec.Turns...)
	for i := range c.rec.Turns {
		// note() writes into the reactions map of earlier turns.
		c.rec.Turns[i].Move.Reactions = maps.Clone(c.rec.Turns[i].Move.Reactions)
	}
	return c
}
