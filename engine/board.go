package engine

import "sync"

// piece is a tile on the board. Worker tiles carry their rotated edge counts
// and which edges have fired; an overbuilt worker tile keeps the covered one
// in under so the stack can be shown, but only the top tile counts.
type piece struct {
	at     Cell
	jungle Jungle // NoJungle for a worker tile
	worker Worker
	owner  int8
	rot    uint8
	edges  [4]uint8
	fired  uint8 // bit d set: the edge on side d has fired
	under  uint8 // 1 + index of the covered worker tile; 0 when none
}

func (p *piece) isWorker() bool { return p.jungle == NoJungle }

// The board is a fixed grid. Every tile is connected to the start tiles and
// a game lays at most 64 of them (2 start tiles, 26 jungle tiles, 36 worker
// tiles), so no tile is more than 63 cells from (0,0); the grid reaches
// gridOff in every direction, which leaves room for looking two cells past
// any tile without a bounds check.
const (
	gridOff = 68
	gridW   = 2*gridOff + 1
)

// board maps cells to pieces: each entry is 1 + the index of the top piece
// in State.pieces, or 0 for an empty cell.
//
// Clones share their board until one of them lays a tile (copy on write):
// a clone that only looks (a page shown, a position kept in a cache) costs
// no copy of the grid, which is most of a State's bytes.
type board struct {
	cells [gridW * gridW]uint8
	// shared is set, atomically, once a clone shares the board; from then
	// on nobody writes it: whoever lays a tile next takes a copy.
	shared int32
}

// boards recycles the grids of positions played out and dropped at once
// (previews).
var boards = sync.Pool{New: func() any { return new(board) }}

// stepIdx is the grid index offset of the neighbour on each side.
var stepIdx = [4]int{-gridW, 1, gridW, -1}

// inGrid reports whether c can hold a tile (|x|, |y| ≤ 64). Anything the
// engine reads around such a cell is within the grid too.
func inGrid(c Cell) bool {
	return c.X >= -64 && c.X <= 64 && c.Y >= -64 && c.Y <= 64
}

// index is c's grid index; c must be within the grid.
func index(c Cell) int { return (c.Y+gridOff)*gridW + c.X + gridOff }

// get returns 1 + the index of the top piece on c, or 0 when c is empty or
// off the grid.
func (b *board) get(c Cell) uint8 {
	x, y := c.X+gridOff, c.Y+gridOff
	if uint(x) >= gridW || uint(y) >= gridW {
		return 0
	}
	return b.cells[y*gridW+x]
}

// set stores v on c, which must satisfy inGrid.
func (b *board) set(c Cell, v uint8) { b.cells[index(c)] = v }
