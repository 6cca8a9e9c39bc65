package engine

import "sort"

// Placement is where and how a worker tile is laid: a normal placement on an
// empty worker cell, or an overbuild of one of the player's own tiles.
type Placement struct {
	Tile      Worker
	Rot       int
	At        Cell
	Overbuild bool
}

// Fill assigns a jungle tile to a cell that needs one: a display tile named by
// its kind, or the top of the jungle pile (FromPile; Tile is then unknown to the
// player and set only once placed).
type Fill struct {
	At       Cell
	Tile     Jungle
	FromPile bool
}

// Edge is one side of a worker tile that fires: its tile's cell, the side, the
// tile's owner, the number of workers on it and the jungle tile it faces.
type Edge struct {
	Tile    Cell
	Side    Side
	Owner   int
	Workers int
	Jungle  Jungle
}

// AllWorkers as an Act's Use means every worker of the edge.
const AllWorkers = -1

// Act resolves one fired edge: use Use of its workers (0..Workers, or
// AllWorkers). A list of acts gives the order in which edges resolve.
type Act struct {
	Tile Cell
	Side Side
	Use  int
}

// frontier appends to buf the empty worker cells that touch a jungle tile,
// sorted by (y, x).
func (s *State) frontier(buf []Cell) []Cell {
	for i := range s.pieces {
		p := &s.pieces[i]
		if p.isWorker() {
			continue
		}
		for d := N; d <= W; d++ {
			c := p.at.Step(d)
			if s.board.get(c) != 0 {
				continue
			}
			// Count c once: only from its first jungle neighbour in side order.
			dup := false
			for e := N; e < d.Opposite(); e++ {
				if q := s.at(c.Step(e)); q != nil && !q.isWorker() {
					dup = true
					break
				}
			}
			if !dup {
				buf = append(buf, c)
			}
		}
	}
	sortCells(buf)
	return buf
}

func sortCells(cs []Cell) {
	// Insertion sort: the lists are short and this keeps it allocation-free.
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].Less(cs[j-1]); j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// CanOverbuild reports whether the current player may overbuild now: jungle
// pile and display empty, and at least one sun token.
func (s *State) CanOverbuild() bool {
	return s.ndisp == 0 && s.JunglePile() == 0 && s.players[s.current].Sun > 0
}

// LegalPlacements appends to buf every legal placement of the current player:
// normal placements sorted by cell, tile and rotation (rotations giving the same
// tile merged, keeping the smallest), then overbuilds when allowed. It returns
// nothing once the game is over or while the player has pending batches.
func (s *State) LegalPlacements(buf []Placement) []Placement {
	if s.Over() || len(s.players[s.current].queue) > 0 {
		return buf
	}
	p := &s.players[s.current]
	var cellBuf [64]Cell
	for _, c := range s.frontier(cellBuf[:0]) {
		for w := Worker(0); w < numWorker; w++ {
			if p.Hand[w] == 0 {
				continue
			}
			for _, r := range workerRots[w] {
				buf = append(buf, Placement{Tile: w, Rot: r, At: c})
			}
		}
	}
	if s.CanOverbuild() {
		for i := range s.pieces {
			q := &s.pieces[i]
			if !q.isWorker() || int(q.owner) != s.current || q.under != 0 || s.board.get(q.at) != uint8(i+1) {
				continue
			}
			for w := Worker(0); w < numWorker; w++ {
				if p.Hand[w] == 0 {
					continue
				}
				for _, r := range workerRots[w] {
					buf = append(buf, Placement{Tile: w, Rot: r, At: q.at, Overbuild: true})
				}
			}
		}
	}
	return buf
}

// checkPlacement says why pl is not legal for seat now, or returns nil.
func (s *State) checkPlacement(seat int, pl Placement) error {
	if s.Over() {
		return illegal("the game is over")
	}
	if seat != s.current {
		return illegal("not this seat's turn")
	}
	p := &s.players[seat]
	if len(p.queue) > 0 {
		return illegal("resolve your pending choices before placing a tile")
	}
	if pl.Tile >= numWorker || pl.Rot < 0 || pl.Rot > 3 {
		return illegal("a turn needs a known tile, a rotation 0-3 and a cell")
	}
	if p.Hand[pl.Tile] == 0 {
		return illegal("tile %s is not in your hand", pl.Tile)
	}
	if pl.Overbuild {
		if s.ndisp > 0 || s.JunglePile() > 0 {
			return illegal("overbuilding needs an empty display and pile")
		}
		if p.Sun == 0 {
			return illegal("overbuilding needs a sun token")
		}
		q := s.at(pl.At)
		if q == nil || !q.isWorker() {
			return illegal("there is no worker tile at %s to overbuild", pl.At)
		}
		if int(q.owner) != seat {
			return illegal("you can only overbuild your own tile")
		}
		if q.under != 0 {
			return illegal("that tile is already overbuilt")
		}
		return nil
	}
	if pl.At.IsJungleCell() {
		return illegal("worker tiles go on cells where x+y is odd; %s is a jungle cell", pl.At)
	}
	if s.board.get(pl.At) != 0 {
		return illegal("cell %s is already occupied", pl.At)
	}
	for d := N; d <= W; d++ {
		if q := s.at(pl.At.Step(d)); q != nil && !q.isWorker() {
			return nil
		}
	}
	return illegal("must touch a jungle tile")
}

// FillCells returns the empty jungle cells that a normal placement at c would
// require to be filled, sorted by (y, x). The placement is not checked.
func (s *State) FillCells(c Cell) []Cell {
	var buf [4]Cell
	return append([]Cell(nil), s.fillCells(c, buf[:0])...)
}

func (s *State) fillCells(at Cell, buf []Cell) []Cell {
	for d := N; d <= W; d++ {
		c := at.Step(d)
		if s.board.get(c) != 0 {
			continue
		}
		workers := 1 // the new tile
		for e := N; e <= W; e++ {
			if e == d.Opposite() {
				continue
			}
			if q := s.at(c.Step(e)); q != nil && q.isWorker() {
				workers++
			}
		}
		if workers >= 2 {
			buf = append(buf, c)
		}
	}
	sortCells(buf)
	return buf
}

// fillable is how many of k needy cells can receive a tile now.
func (s *State) fillable(k int) int {
	return min(k, s.ndisp+s.JunglePile())
}

// DefaultFills is the fill assignment used when a turn gives none: the cells
// sorted by (y, x) take the display tiles in display order, then the pile top.
func (s *State) DefaultFills(at Cell) []Fill {
	var buf [4]Cell
	cells := s.fillCells(at, buf[:0])
	n := s.fillable(len(cells))
	out := make([]Fill, 0, n)
	for i := 0; i < n; i++ {
		if i < s.ndisp {
			out = append(out, Fill{At: cells[i], Tile: s.display[i]})
		} else {
			out = append(out, Fill{At: cells[i], FromPile: true})
		}
	}
	return out
}

// FillOptions lists every distinct legal fill assignment for a normal
// placement at c (one empty list when nothing needs filling). Display tiles
// of the same kind are interchangeable, so assignments differing only by them
// are listed once.
func (s *State) FillOptions(c Cell) [][]Fill {
	cells := s.FillCells(c)
	n := s.fillable(len(cells))
	if n == 0 {
		return [][]Fill{{}}
	}
	// Tiles to place: the display tiles, then pile tiles up to n.
	var tiles []Fill
	for i := 0; i < s.ndisp && i < n; i++ {
		tiles = append(tiles, Fill{Tile: s.display[i]})
	}
	for len(tiles) < n {
		tiles = append(tiles, Fill{FromPile: true})
	}
	// When fewer display tiles than n exist, all are used; when more (n=1 with
	// two in the display), choose which one.
	var choices [][]Fill
	if s.ndisp > n {
		seen := map[Jungle]bool{}
		for i := 0; i < s.ndisp; i++ {
			if !seen[s.display[i]] {
				seen[s.display[i]] = true
				choices = append(choices, []Fill{{Tile: s.display[i]}})
			}
		}
	} else {
		choices = [][]Fill{tiles}
	}
	seen := map[string]bool{}
	var out [][]Fill
	for _, ts := range choices {
		permuteFills(cells, ts, func(f []Fill) {
			key := ""
			for _, x := range f {
				key += x.At.String() + x.Tile.String() + map[bool]string{true: "p"}[x.FromPile] + ";"
			}
			if !seen[key] {
				seen[key] = true
				out = append(out, append([]Fill(nil), f...))
			}
		})
	}
	return out
}

// permuteFills calls fn with every injective assignment of tiles to cells.
func permuteFills(cells []Cell, tiles []Fill, fn func([]Fill)) {
	used := make([]bool, len(cells))
	cur := make([]Fill, 0, len(tiles))
	var rec func(i int)
	rec = func(i int) {
		if i == len(tiles) {
			sorted := append([]Fill(nil), cur...)
			sort.Slice(sorted, func(a, b int) bool { return sorted[a].At.Less(sorted[b].At) })
			fn(sorted)
			return
		}
		for k, c := range cells {
			if used[k] {
				continue
			}
			used[k] = true
			f := tiles[i]
			f.At = c
			cur = append(cur, f)
			rec(i + 1)
			cur = cur[:len(cur)-1]
			used[k] = false
		}
	}
	rec(0)
}

// checkFills validates fills for a normal placement at `at` (nil: default) and
// returns the assignment to apply, with pile fills' tiles revealed.
func (s *State) checkFills(at Cell, fills []Fill, out []Fill) ([]Fill, error) {
	var buf [4]Cell
	cells := s.fillCells(at, buf[:0])
	n := s.fillable(len(cells))
	if fills == nil {
		for i := 0; i < n; i++ {
			if i < s.ndisp {
				out = append(out, Fill{At: cells[i], Tile: s.display[i]})
			} else {
				out = append(out, Fill{At: cells[i], Tile: s.jungle[s.jpos+i-s.ndisp], FromPile: true})
			}
		}
		return out, nil
	}
	if len(fills) != n {
		if n == 0 {
			return nil, illegal("no cell needs a jungle tile after this placement")
		}
		return nil, illegal("this placement fills %d cell(s); the turn names %d", n, len(fills))
	}
	var disp [DisplaySize]bool
	piles := 0
	for i, f := range fills {
		found := false
		for _, c := range cells {
			if c == f.At {
				found = true
			}
		}
		if !found {
			return nil, illegal("cell %s does not need a jungle tile", f.At)
		}
		for _, g := range fills[:i] {
			if g.At == f.At {
				return nil, illegal("cell %s is filled twice", f.At)
			}
		}
		if f.FromPile {
			piles++
			continue
		}
		ok := false
		for k := 0; k < s.ndisp; k++ {
			if !disp[k] && s.display[k] == f.Tile {
				disp[k], ok = true, true
				break
			}
		}
		if !ok {
			return nil, illegal("%s is not in the display", f.Tile)
		}
	}
	if piles > 0 {
		for k := 0; k < s.ndisp; k++ {
			if !disp[k] {
				return nil, illegal("the pile tile may fill a cell only after both display tiles are placed")
			}
		}
		if piles > s.JunglePile() {
			return nil, illegal("the jungle pile is empty")
		}
	}
	pi := 0
	for _, f := range fills {
		if f.FromPile {
			f.Tile = s.jungle[s.jpos+pi]
			pi++
		}
		out = append(out, f)
	}
	return out, nil
}

// fired appends the edges that fire when pl is laid with fills applied.
func (s *State) fired(seat int, pl Placement, fills []Fill, out []Edge) []Edge {
	edges := pl.Tile.Edges(pl.Rot)
	for d := N; d <= W; d++ {
		if edges[d] == 0 {
			continue
		}
		c := pl.At.Step(d)
		j := NoJungle
		if q := s.at(c); q != nil && !q.isWorker() {
			j = q.jungle
		} else {
			for _, f := range fills {
				if f.At == c {
					j = f.Tile
				}
			}
		}
		if j != NoJungle {
			out = append(out, Edge{Tile: pl.At, Side: d, Owner: seat, Workers: int(edges[d]), Jungle: j})
		}
	}
	for _, f := range fills {
		for e := N; e <= W; e++ {
			nb := f.At.Step(e)
			if nb == pl.At {
				continue
			}
			q := s.at(nb)
			if q == nil || !q.isWorker() {
				continue
			}
			side := e.Opposite()
			if q.edges[side] == 0 || q.fired&(1<<side) != 0 {
				continue
			}
			out = append(out, Edge{Tile: nb, Side: side, Owner: int(q.owner), Workers: int(q.edges[side]), Jungle: f.Tile})
		}
	}
	return out
}

// Fired returns the edges, of every player, that would fire if the current
// player made placement pl with fills (nil: the default fills). Edges facing
// a cell filled from the pile have Jungle NoJungle: the tile is not yet known.
func (s *State) Fired(pl Placement, fills []Fill) ([]Edge, error) {
	if err := s.checkPlacement(s.current, pl); err != nil {
		return nil, err
	}
	var fs []Fill
	if !pl.Overbuild {
		var err error
		if fs, err = s.checkFills(pl.At, fills, nil); err != nil {
			return nil, err
		}
	}
	edges := s.fired(s.current, pl, fs, nil)
	for i := range edges {
		for _, f := range fs {
			if f.FromPile && edges[i].Tile.Step(edges[i].Side) == f.At {
				edges[i].Jungle = NoJungle
			}
		}
	}
	return edges, nil
}
