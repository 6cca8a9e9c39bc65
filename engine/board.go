package engine

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

// board maps cells to pieces with a dense grid that grows as tiles are laid.
// Each grid entry is 1 + the index of the top piece in State.pieces, or 0.
type board struct {
	minX, minY int
	w, h       int
	cells      []uint8
}

const boardMargin = 8

func (b *board) index(c Cell) int {
	x, y := c.X-b.minX, c.Y-b.minY
	if x < 0 || y < 0 || x >= b.w || y >= b.h {
		return -1
	}
	return y*b.w + x
}

// get returns 1 + the index of the top piece on c, or 0 when c is empty.
func (b *board) get(c Cell) uint8 {
	i := b.index(c)
	if i < 0 {
		return 0
	}
	return b.cells[i]
}

// set stores v on c, growing the grid so that c and its neighbours fit.
func (b *board) set(c Cell, v uint8) {
	if c.X-1 < b.minX || c.Y-1 < b.minY || c.X+1 >= b.minX+b.w || c.Y+1 >= b.minY+b.h {
		b.grow(c)
	}
	b.cells[b.index(c)] = v
}

func (b *board) grow(c Cell) {
	minX, minY := b.minX, b.minY
	maxX, maxY := b.minX+b.w-1, b.minY+b.h-1
	if b.w == 0 {
		minX, minY, maxX, maxY = c.X, c.Y, c.X, c.Y
	}
	minX = min(minX, c.X-boardMargin)
	minY = min(minY, c.Y-boardMargin)
	maxX = max(maxX, c.X+boardMargin)
	maxY = max(maxY, c.Y+boardMargin)
	nb := board{minX: minX, minY: minY, w: maxX - minX + 1, h: maxY - minY + 1}
	nb.cells = make([]uint8, nb.w*nb.h)
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			if v := b.cells[y*b.w+x]; v != 0 {
				nb.cells[nb.index(Cell{b.minX + x, b.minY + y})] = v
			}
		}
	}
	*b = nb
}

func (b board) clone() board {
	b.cells = append([]uint8(nil), b.cells...)
	return b
}
