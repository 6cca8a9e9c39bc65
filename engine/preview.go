package engine

import "slices"

// hiddenJungle stands for a jungle tile drawn from the pile in a preview: the
// player cannot know it before the turn is committed.
const hiddenJungle = numJungle

// Gain is what one seat would gain from a move: gold, fruit and sun (after
// caps, so a lost harvest shows as less), water steps and the change of the
// water field's value.
type Gain struct {
	Seat       int
	Gold       int
	Fruit      int
	Sun        int
	WaterSteps int
	Water      int
}

// GainOf is what seat gained from before to after (its player then and
// now).
func GainOf(seat int, before, after *Player) Gain {
	return Gain{Seat: seat, Gold: after.Gold - before.Gold, Fruit: after.Fruit - before.Fruit, Sun: after.Sun - before.Sun,
		WaterSteps: after.Water - before.Water, Water: after.WaterValue() - before.WaterValue()}
}

// Preview is what a proposed move would do, computed before it is committed:
// the fills (a pile fill has FromPile set and Tile NoJungle: unknown until
// placed), the edges that fire (Jungle NoJungle where they face the unknown
// tile; they resolve later with that tile), each seat's gain with the given
// acts and default choices for others, and the standing after the move.
type Preview struct {
	Fills []Fill
	Fired []Edge
	Gains []Gain
	Tiles []TileGain
	After Result
}

// TileGain is what the jungle tile on cell At would give one seat in a
// move (Gain.Seat): a seat's gains split by the tiles that give them.
type TileGain struct {
	At   Cell
	Gain Gain
}

// Preview computes what seat's move m would do without committing it. It
// never reveals the pile: a tile drawn from it is treated as unknown.
func (s *State) Preview(seat int, m Move) (Preview, error) {
	if err := s.checkPlacement(seat, m.Placement); err != nil {
		return Preview{}, err
	}
	c := s.Clone()
	defer c.drop() // nothing returned refers to c
	return s.previewOn(c, seat, m)
}

// Previewer previews many moves on one position (a preview for every
// legal cell, a bot weighing its moves) on one scratch copy of it, set
// back after each: no copy of the position, of its board and its buffers
// per move. Not for use by two goroutines at once; the position must not
// change while it is in use.
type Previewer struct {
	s     *State
	c     State
	board *board // the scratch's board: s's grid, but for the move being previewed
}

// Previewer returns a Previewer of s.
func (s *State) Previewer() *Previewer {
	b := boards.Get().(*board)
	b.cells, b.shared = s.board.cells, 0
	return &Previewer{s: s, board: b, c: State{scratch: newScratch()}}
}

// Preview is State.Preview of the Previewer's position.
func (p *Previewer) Preview(seat int, m Move) (Preview, error) {
	s := p.s
	if err := s.checkPlacement(seat, m.Placement); err != nil {
		return Preview{}, err
	}
	c := &p.c
	c.board = p.board
	s.copyTo(c) // keeping p's board
	defer func() {
		// A move changes the board only where it lays tiles: those cells
		// are set back to the position's.
		for i := len(s.pieces); i < len(c.pieces); i++ {
			k := index(c.pieces[i].at)
			p.board.cells[k] = s.board.cells[k]
		}
	}()
	return s.previewOn(c, seat, m)
}

// Close gives the Previewer's board back for reuse; p must not be used
// again.
func (p *Previewer) Close() {
	boards.Put(p.board)
	p.board, p.s = nil, nil
}

// previewOn is Preview's work on c, a copy of s the move may change.
func (s *State) previewOn(c *State, seat int, m Move) (Preview, error) {
	var fills []Fill
	if !m.Overbuild {
		var err error
		if fills, err = c.checkFills(m.At, m.Fills, nil); err != nil {
			return Preview{}, err
		}
		piles := 0
		for _, f := range fills {
			if f.FromPile {
				piles++
			}
		}
		if piles > 0 {
			c.jungle = append([]Jungle(nil), c.jungle...)
			for i := 0; i < piles; i++ {
				c.jungle[c.jpos+i] = hiddenJungle
			}
		}
	}
	for k := range c.players {
		if k != seat {
			c.players[k].queue = nil
			c.players[k].AutoDecide = false
		}
	}
	mv := m
	if mv.Reactions == nil {
		mv.Reactions = map[int][]Act{}
	}
	out, err := c.Play(seat, mv)
	if err != nil {
		return Preview{}, err
	}
	pv := Preview{After: c.Score()}
	for _, f := range out.Fills {
		if f.FromPile {
			f.Tile = NoJungle
		}
		pv.Fills = append(pv.Fills, f)
	}
	pv.Fired = s.firedHidden(seat, m.Placement, out.Fills)
	pv.Tiles = s.tileGains(c, out)
	for i := range c.players {
		a, b := &s.players[i], &c.players[i]
		pv.Gains = append(pv.Gains, Gain{Seat: i, Gold: b.Gold - a.Gold, Fruit: b.Fruit - a.Fruit,
			Sun: b.Sun - a.Sun, WaterSteps: b.Water - a.Water, Water: b.WaterValue() - a.WaterValue()})
	}
	return pv, nil
}

// firedHidden lists the edges fired by pl with fills on s, with pile tiles
// shown as unknown.
func (s *State) firedHidden(seat int, pl Placement, fills []Fill) []Edge {
	es := s.fired(seat, pl, fills, nil)
	sortEdges(es)
	for i := range es {
		for _, f := range fills {
			if f.FromPile && es[i].Tile.Step(es[i].Side) == f.At {
				es[i].Jungle = NoJungle
			}
		}
	}
	return es
}

// tileGains splits the gains of move out, played from s to c, by jungle
// tile: each seat's acts (the mover's, then the resolutions the move
// caused) replayed in order on the villages before the move. A tile drawn
// from the pile gives nothing yet (it is unknown).
func (s *State) tileGains(c *State, out Outcome) []TileGain {
	var tg []TileGain
	ps := slices.Clone(s.players)
	if out.Placement.Overbuild {
		ps[out.Seat].Sun-- // paid before the workers act
	}
	replay := func(seat int, acts []Act) {
		p := &ps[seat]
		for _, a := range acts {
			at := a.Tile.Step(a.Side)
			before := *p
			p.gain(c.at(at).jungle, a.Use)
			g := GainOf(seat, &before, p)
			if g == (Gain{Seat: seat}) {
				continue
			}
			i := slices.IndexFunc(tg, func(t TileGain) bool { return t.At == at && t.Gain.Seat == seat })
			if i < 0 {
				tg = append(tg, TileGain{At: at, Gain: g})
				continue
			}
			t := &tg[i].Gain
			t.Gold, t.Fruit, t.Sun, t.WaterSteps, t.Water = t.Gold+g.Gold, t.Fruit+g.Fruit, t.Sun+g.Sun, t.WaterSteps+g.WaterSteps, t.Water+g.Water
		}
	}
	replay(out.Seat, out.Acts)
	for _, r := range out.Resolutions {
		replay(r.Seat, r.Acts)
	}
	return tg
}
