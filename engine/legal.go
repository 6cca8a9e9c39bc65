package engine

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

// LegalCells appends to buf the empty worker cells that touch a jungle tile:
// the cells where a normal placement may go. The order depends only on the
// position (not sorted: LegalPlacements sorts).
func (s *State) LegalCells(buf []Cell) []Cell { return append(buf, s.front...) }

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
	var cb [64]Cell
	cells := append(cb[:0], s.front...)
	sortCells(cells)
	for _, c := range cells {
		for w := Worker(0); w < numWorker; w++ {
			if p.Hand[w] == 0 {
				continue
			}
			for _, r := range workerRots[w] {
				buf = append(buf, Placement{Tile: w, Rot: r, At: c})
			}
		}
	}
	var obBuf [16]Cell
	for _, c := range s.OverbuildCells(obBuf[:0]) {
		for w := Worker(0); w < numWorker; w++ {
			if p.Hand[w] == 0 {
				continue
			}
			for _, r := range workerRots[w] {
				buf = append(buf, Placement{Tile: w, Rot: r, At: c, Overbuild: true})
			}
		}
	}
	return buf
}

// legalCap is how many placements LegalPlacements lists on the open cells
// (overbuilding may add some): a buffer's size.
func (s *State) legalCap() int {
	p := &s.players[s.current]
	rots := 0
	for w := Worker(0); w < numWorker; w++ {
		if p.Hand[w] > 0 {
			rots += len(workerRots[w])
		}
	}
	return len(s.front) * rots
}

// OverbuildCells appends to buf the cells where the current player may
// overbuild now (their own tiles not yet overbuilt), in placement order; none
// unless CanOverbuild.
func (s *State) OverbuildCells(buf []Cell) []Cell {
	if !s.CanOverbuild() {
		return buf
	}
	for i := range s.pieces {
		q := &s.pieces[i]
		if q.isWorker() && int(q.owner) == s.current && q.under == 0 && s.board.get(q.at) == uint8(i+1) {
			buf = append(buf, q.at)
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
	if !inGrid(pl.At) {
		return illegal("must touch a jungle tile")
	}
	if pl.At.IsJungleCell() {
		return illegal("worker tiles go on cells where x+y is odd; %s is a jungle cell", pl.At)
	}
	if s.board.get(pl.At) != 0 {
		return illegal("cell %s is already occupied", pl.At)
	}
	ai := index(pl.At)
	for d := N; d <= W; d++ {
		// Neighbours of a worker cell are jungle cells (the chessboard).
		if s.board.cells[ai+stepIdx[d]] != 0 {
			return nil
		}
	}
	return illegal("must touch a jungle tile")
}

// FillCells appends to buf the empty jungle cells that a normal placement at
// at would require to be filled, sorted by (y, x). The placement is not checked.
func (s *State) FillCells(at Cell, buf []Cell) []Cell { return s.fillCells(at, buf) }

func (s *State) fillCells(at Cell, buf []Cell) []Cell {
	if !inGrid(at) {
		return buf
	}
	cells := &s.board.cells
	ai := index(at)
	if cells[ai] != 0 {
		return buf // occupied: no placement here fills anything
	}
	for d := N; d <= W; d++ {
		ci := ai + stepIdx[d]
		if cells[ci] != 0 {
			continue
		}
		// Neighbours of a jungle cell are worker cells (the chessboard). The
		// new tile's own cell is still empty, so it is counted apart.
		if occ(cells[ci-gridW])+occ(cells[ci+1])+occ(cells[ci+gridW])+occ(cells[ci-1]) >= 1 {
			buf = append(buf, at.Step(d))
		}
	}
	sortCells(buf)
	return buf
}

func occ(v uint8) int {
	if v != 0 {
		return 1
	}
	return 0
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
// placement at c (nil when nothing needs filling), each sorted by cell.
// Display tiles of the same kind are interchangeable, so assignments
// differing only by them are listed once.
func (s *State) FillOptions(c Cell) [][]Fill {
	flat, width := s.AppendFillOptions(c, nil)
	if width == 0 {
		return nil
	}
	out := make([][]Fill, 0, len(flat)/width)
	for i := 0; i < len(flat); i += width {
		out = append(out, flat[i:i+width:i+width])
	}
	return out
}

// AppendFillOptions is FillOptions without allocation: it appends the options
// to buf one after another, each width fills long (width 0: nothing to fill).
func (s *State) AppendFillOptions(c Cell, buf []Fill) (opts []Fill, width int) {
	var cb [4]Cell
	cells := s.fillCells(c, cb[:0])
	n := s.fillable(len(cells))
	if n == 0 {
		return buf, 0
	}
	if len(cells) == 1 {
		// One cell (the general case below, in short): the first display
		// tile, the second if it differs, or the pile's.
		if s.ndisp == 0 {
			return append(buf, Fill{At: cells[0], FromPile: true}), 1
		}
		buf = append(buf, Fill{At: cells[0], Tile: s.display[0]})
		if s.ndisp > 1 && s.display[1] != s.display[0] {
			buf = append(buf, Fill{At: cells[0], Tile: s.display[1]})
		}
		return buf, 1
	}
	// Two or three cells, so that n ≥ ndisp: every display tile and the
	// pile's for the rest, every way round, each distinct assignment once.
	var ts [3]Fill
	for i := 0; i < n; i++ {
		if i < s.ndisp {
			ts[i].Tile = s.display[i]
		} else {
			ts[i].FromPile = true
		}
	}
	start := len(buf)
	permuteFills(cells, ts[:n], func(f []Fill) {
		for i := start; i < len(buf); i += n {
			if sameFills(buf[i:i+n], f) {
				return
			}
		}
		buf = append(buf, f...)
	})
	return buf, n
}

func sameFills(a, b []Fill) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// cellPerms[m] lists the orderings of m cells (m ≤ 3: a new tile touches at
// least one jungle tile, so at most three of its neighbours need filling).
var cellPerms = [4][][3]int{
	{{}},
	{{0}},
	{{0, 1}, {1, 0}},
	{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}},
}

// permuteFills calls fn with every injective assignment of tiles to cells,
// sorted by cell (cells must be sorted). fn must not keep the slice.
func permuteFills(cells []Cell, tiles []Fill, fn func([]Fill)) {
	var cur [3]Fill
	for _, p := range cellPerms[len(cells)] {
		k := 0
		for ci := range cells {
			for i := range tiles {
				if p[i] == ci {
					cur[k] = tiles[i]
					cur[k].At = cells[ci]
					k++
				}
			}
		}
		fn(cur[:k])
	}
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
		if n == 0 && len(cells) > 0 {
			return nil, illegal("no jungle tiles are left to fill cells with")
		}
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
			if f.Tile == NoJungle || f.Tile >= numJungle {
				return nil, illegal("a fill needs a display tile or the pile")
			}
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
	cells := &s.board.cells
	edges := pl.Tile.Edges(pl.Rot)
	ai := index(pl.At)
	for d := N; d <= W; d++ {
		if edges[d] == 0 {
			continue
		}
		j := NoJungle
		if v := cells[ai+stepIdx[d]]; v != 0 {
			j = s.pieces[v-1].jungle // a neighbour of a worker cell is a jungle tile
		} else {
			c := pl.At.Step(d)
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
		fi := index(f.At)
		for e := N; e <= W; e++ {
			ni := fi + stepIdx[e]
			v := cells[ni]
			if ni == ai || v == 0 {
				continue
			}
			q := &s.pieces[v-1] // a neighbour of a jungle cell is a worker tile
			side := e.Opposite()
			if q.edges[side] == 0 || q.fired&(1<<side) != 0 {
				continue
			}
			out = append(out, Edge{Tile: q.at, Side: side, Owner: int(q.owner), Workers: int(q.edges[side]), Jungle: f.Tile})
		}
	}
	return out
}

// AppendFired is Fired for a search that weighs every move: it appends the
// edges to buf, in no particular order, and allocates nothing. pl and fills
// must be a move legal now, as LegalPlacements and AppendFillOptions list
// them (fills nil when none are needed, and for an overbuild); that is not
// checked. Edges facing a cell filled from the pile have Jungle NoJungle.
func (s *State) AppendFired(pl Placement, fills []Fill, buf []Edge) []Edge {
	from := len(buf)
	buf = s.fired(s.current, pl, fills, buf)
	for _, f := range fills {
		if !f.FromPile {
			continue
		}
		for i := from; i < len(buf); i++ {
			if buf[i].Tile.Step(buf[i].Side) == f.At {
				buf[i].Jungle = NoJungle
			}
		}
	}
	return buf
}

// Fired returns the edges, of every player, that would fire if the current
// player made placement pl with fills (nil: the default fills), in the default
// order. Edges facing a cell filled from the pile have Jungle NoJungle: the
// tile is not yet known.
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
	return s.firedHidden(s.current, pl, fs), nil
}
