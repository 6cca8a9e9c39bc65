package engine

import "sync/atomic"

// Sampler deals positions as one seat may imagine them, for a bot that
// searches a game of hidden tiles: each agrees with the position in
// everything the seat can see (the board, the display, the villages, the
// queues, its own hand, every hand's and pile's size), and deals everything
// else afresh: the order of the jungle pile and of the seat's own pile, and
// the other players' hands and piles, from the tiles each of them has not
// laid yet.
//
// What a sample holds depends only on what the seat can see and on the
// Rand: two positions that differ only in hidden parts give the same
// samples from the same Rand. A Sampler is not for use by two goroutines
// at once, and its position must not change while it is in use.
type Sampler struct {
	s     *State
	seat  int
	c     State
	board *board
	// unseen are the tiles the seat cannot place, sorted so that nothing
	// of their true order reaches a sample: the jungle pile's, and per
	// seat the pile's (the seat's own) or hand and pile together (others').
	jungle []Jungle
	unseen [][]Worker
	// deal are the buffers a sample's piles are dealt into.
	dealJungle []Jungle
	deal       [][]Worker
}

// Sampler returns a Sampler of s for seat.
func (s *State) Sampler(seat int) *Sampler {
	sp := &Sampler{s: s, seat: seat, board: boards.Get().(*board), c: State{scratch: newScratch()}}
	sp.board.cells, sp.board.shared = s.board.cells, 0
	sp.jungle = sorted(s.jungle[s.jpos:])
	sp.dealJungle = make([]Jungle, len(sp.jungle))
	for i := range s.players {
		p := &s.players[i]
		var tiles []Worker
		if i != seat {
			tiles = p.HandTiles()
		}
		tiles = append(tiles, p.pile[p.ppos:]...)
		sp.unseen = append(sp.unseen, sorted(tiles))
		sp.deal = append(sp.deal, make([]Worker, len(tiles)))
	}
	return sp
}

// Sample deals a position (see Sampler). It is the Sampler's own: it may be
// played on, and stays valid until the next Sample or Close.
func (sp *Sampler) Sample(r *Rand) *State {
	s, c := sp.s, &sp.c
	if atomic.LoadInt32(&sp.board.shared) != 0 {
		// A clone of the last sample shares the board: take another.
		sp.board = boards.Get().(*board)
		sp.board.cells, sp.board.shared = s.board.cells, 0
	} else {
		// The last sample changed the board only where it laid tiles.
		for i := len(s.pieces); i < len(c.pieces); i++ {
			k := index(c.pieces[i].at)
			sp.board.cells[k] = s.board.cells[k]
		}
	}
	c.board = sp.board
	s.copyTo(c)
	copy(sp.dealJungle, sp.jungle)
	r.shuffleJungle(sp.dealJungle)
	c.jungle, c.jpos = sp.dealJungle, 0
	for i := range c.players {
		p, tiles := &c.players[i], sp.deal[i]
		copy(tiles, sp.unseen[i])
		r.shuffleWorkers(tiles)
		if i != sp.seat {
			n := p.HandSize()
			p.Hand = [NumWorkerKinds]int{}
			for _, w := range tiles[:n] {
				p.Hand[w]++
			}
			tiles = tiles[n:]
		}
		p.pile, p.ppos = tiles, 0
	}
	return c
}

// Close gives the Sampler's board back for reuse, unless a clone of a
// sample still shares it; sp must not be used again.
func (sp *Sampler) Close() {
	if atomic.LoadInt32(&sp.board.shared) == 0 {
		boards.Put(sp.board)
	}
	sp.board, sp.s = nil, nil
}

// sorted returns tiles in kind order: nothing of their order is left.
func sorted[T ~uint8](tiles []T) []T {
	var n [256]int
	for _, t := range tiles {
		n[t]++
	}
	out := make([]T, 0, len(tiles))
	for k := range n {
		for range n[k] {
			out = append(out, T(k))
		}
	}
	return out
}
