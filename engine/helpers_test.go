package engine

import "testing"

// pos builds positions for rule tests directly, without playing up to them.
// Tiles laid with it are not taken from any pile, so positions built this way
// do not conserve tiles; use them only to test one rule at a time.
type pos struct {
	t *testing.T
	s *State
}

// newPos starts an n-player game (seed 1, seat 0 first) holding only the
// start tiles, then empties every hand and sets seat 0's hand to hand.
func newPos(t *testing.T, n int, hand ...Worker) *pos {
	t.Helper()
	su, err := NewSetup(n, 1)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(su, 0)
	if err != nil {
		t.Fatal(err)
	}
	p := &pos{t: t, s: s}
	for i := range s.players {
		s.players[i].Hand = [NumWorkerKinds]int{}
	}
	p.hand(0, hand...)
	return p
}

// hand sets seat's hand.
func (p *pos) hand(seat int, ws ...Worker) *pos {
	p.s.players[seat].Hand = [NumWorkerKinds]int{}
	for _, w := range ws {
		p.s.players[seat].Hand[w]++
	}
	return p
}

// jungle lays jungle tile j on c.
func (p *pos) jungle(c Cell, j Jungle) *pos {
	p.t.Helper()
	if !c.IsJungleCell() || p.s.board.get(c) != 0 {
		p.t.Fatalf("pos: cannot lay jungle tile on %v", c)
	}
	p.s.put(piece{at: c, jungle: j, owner: -1})
	return p
}

// worker lays seat's tile w with rotation rot on c, its edges facing jungle
// tiles marked fired (as if laid in play).
func (p *pos) worker(c Cell, seat int, w Worker, rot int) *pos {
	p.t.Helper()
	if c.IsJungleCell() || p.s.board.get(c) != 0 {
		p.t.Fatalf("pos: cannot lay worker tile on %v", c)
	}
	pc := piece{at: c, worker: w, owner: int8(seat), rot: uint8(rot), edges: w.Edges(rot)}
	for d := N; d <= W; d++ {
		if q := p.s.at(c.Step(d)); q != nil && !q.isWorker() {
			pc.fired |= 1 << d
		}
	}
	p.s.put(pc)
	return p
}

// display sets the display; pile sets the jungle pile (top first).
func (p *pos) display(js ...Jungle) *pos {
	p.s.display = [DisplaySize]Jungle{}
	p.s.ndisp = copy(p.s.display[:], js)
	return p
}

func (p *pos) pile(js ...Jungle) *pos {
	p.s.jungle = append([]Jungle(nil), js...)
	p.s.jpos = 0
	return p
}

// village sets a seat's resources.
func (p *pos) village(seat, gold, fruit, sun, water int) *pos {
	pl := &p.s.players[seat]
	pl.Gold, pl.Fruit, pl.Sun, pl.Water = gold, fruit, sun, water
	return p
}

// play commits seat's move in record style (reactions resolved at once) and
// fails the test on error.
func (p *pos) play(seat int, m Move) Outcome {
	p.t.Helper()
	if m.Reactions == nil {
		m.Reactions = map[int][]Act{}
	}
	out, err := p.s.Play(seat, m)
	if err != nil {
		p.t.Fatalf("play %+v: %v", m.Placement, err)
	}
	return out
}

// illegal asserts that seat's move is refused with reason and changes nothing.
func (p *pos) illegal(seat int, m Move, reason string) {
	p.t.Helper()
	before := p.s.Clone()
	_, err := p.s.Play(seat, m)
	if err == nil {
		p.t.Fatalf("move %+v accepted; want %q", m.Placement, reason)
	}
	if reason != "" && err.Error() != reason {
		p.t.Fatalf("move %+v refused with %q; want %q", m.Placement, err, reason)
	}
	if !sameState(before, p.s) {
		p.t.Fatalf("refused move %+v changed the state", m.Placement)
	}
}

// sameState compares everything a move can change.
func sameState(a, b *State) bool {
	if a.current != b.current || a.turns != b.turns || a.jpos != b.jpos || a.ndisp != b.ndisp || a.display != b.display {
		return false
	}
	if len(a.pieces) != len(b.pieces) {
		return false
	}
	for i := range a.pieces {
		if a.pieces[i] != b.pieces[i] {
			return false
		}
	}
	for i := range a.players {
		pa, pb := a.players[i], b.players[i]
		if pa.Gold != pb.Gold || pa.Fruit != pb.Fruit || pa.Sun != pb.Sun || pa.Water != pb.Water ||
			pa.Hand != pb.Hand || pa.ppos != pb.ppos || len(pa.queue) != len(pb.queue) {
			return false
		}
	}
	return true
}

func place(w Worker, rot int, x, y int) Move {
	return Move{Placement: Placement{Tile: w, Rot: rot, At: Cell{x, y}}}
}
