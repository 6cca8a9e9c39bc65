package views

import (
	"fmt"
	"strconv"

	"cacao/engine"
	"cacao/views/i18n"
)

// CellSize is the side of a board cell in SVG units.
const CellSize = 64

// Board is the geometry of the board drawing: its bounds fit the tiles
// with one free cell around them, where the cells the viewer may choose
// lie.
type Board struct {
	MinX, MinY, Cols, Rows int
	Tiles                  []engine.TileView
	Legal                  []engine.Cell
	Chosen                 *engine.Cell
	Ghost                  *engine.TileView  // the tile chosen, on its cell, before Confirm
	GhostFills             []engine.TileView // the jungle tiles the move would lay
	FillAlts               []FillAlt         // the other fill options' tiles, small on their cells
	Gains                  []engine.TileGain // what the move gives the viewer, by tile
	Link                   func(engine.Cell) string
	Names                  []string
	Changed                []engine.Cell       // changed since the viewer's last move: outlined
	Arrived                map[engine.Cell]int // GameVM.Arrived
	// padX and padY are the margins, left and top, where the rows' and
	// the columns' numbers stand (the cells' coordinates the log, the
	// bar and the lists name); 0 for a lone tile (the hand's).
	padX, padY int
}

// The margins of a board's numbers: a row's (up to "-12") and a column's.
const (
	rowNumbers = 24
	colNumbers = 16
)

// FillAlt is a jungle tile another fill option would lay on cell At: drawn
// small in the cell's corner (Nth of that cell's, from 0), it chooses that
// option (Link).
type FillAlt struct {
	At   engine.Cell
	Tile engine.Jungle
	N    int
	Link string
}

// NewBoard lays out the tiles of v and the selectable cells.
func NewBoard(v engine.View, legal []engine.Cell) Board {
	b := Board{padX: rowNumbers, padY: colNumbers}
	first := true
	grow := func(c engine.Cell) {
		if first {
			b.MinX, b.MinY, b.Cols, b.Rows = c.X, c.Y, 1, 1
			first = false
			return
		}
		maxX, maxY := b.MinX+b.Cols-1, b.MinY+b.Rows-1
		b.MinX, b.MinY = min(b.MinX, c.X), min(b.MinY, c.Y)
		maxX, maxY = max(maxX, c.X), max(maxY, c.Y)
		b.Cols, b.Rows = maxX-b.MinX+1, maxY-b.MinY+1
	}
	b.Tiles = make([]engine.TileView, 0, len(v.Tiles))
	for _, t := range v.Tiles {
		if !t.Covered {
			b.Tiles = append(b.Tiles, t)
		}
		grow(t.At)
	}
	// One free cell around the tiles: where a tile may be placed (a place
	// is next to a tile), so that the board keeps its size and place
	// across the steps of a turn.
	b.MinX--
	b.MinY--
	b.Cols += 2
	b.Rows += 2
	for _, c := range legal {
		grow(c)
	}
	b.Legal = legal
	return b
}

// MinWidth and MinHeight are the smallest the board is drawn at "Fit":
// 40 px a cell, below which tiles are no longer legible.
func (b Board) MinWidth() string  { return strconv.Itoa(b.width() * 40 / CellSize) }
func (b Board) MinHeight() string { return strconv.Itoa(b.height() * 40 / CellSize) }

// Width and Height of the drawing: the cells and the numbers' margins.
func (b Board) Width() string  { return strconv.Itoa(b.width()) }
func (b Board) Height() string { return strconv.Itoa(b.height()) }

func (b Board) width() int  { return b.padX + b.Cols*CellSize }
func (b Board) height() int { return b.padY + b.Rows*CellSize }

// ViewBox is the SVG viewBox.
func (b Board) ViewBox() string { return fmt.Sprintf("0 0 %d %d", b.width(), b.height()) }

// X and Y are a cell's top-left corner.
func (b Board) X(c engine.Cell) string { x, _ := b.At(c, 0, 0); return x }
func (b Board) Y(c engine.Cell) string { _, y := b.At(c, 0, 0); return y }

// At offsets from a cell's corner.
func (b Board) At(c engine.Cell, dx, dy int) (string, string) {
	return strconv.Itoa(b.padX + (c.X-b.MinX)*CellSize + dx), strconv.Itoa(b.padY + (c.Y-b.MinY)*CellSize + dy)
}

// Number is a column's or a row's number where it stands in its margin.
type Number struct{ X, Y, Text string }

// Columns and RowNumbers number the board's columns (x, across its top) and
// rows (y, down its side), as the cells' coordinates "(x, y)" read.
// The numbers are in the reader's digits, as the coordinates elsewhere.
func (b Board) Columns(l *i18n.Lang) []Number {
	out := make([]Number, b.Cols)
	for i := range out {
		out[i] = Number{strconv.Itoa(b.padX + i*CellSize + CellSize/2), strconv.Itoa(b.padY - 4), l.Num(b.MinX + i)}
	}
	return out
}

func (b Board) RowNumbers(l *i18n.Lang) []Number {
	out := make([]Number, b.Rows)
	for i := range out {
		out[i] = Number{strconv.Itoa(b.padX - 4), strconv.Itoa(b.padY + i*CellSize + CellSize/2 + 4), l.Num(b.MinY + i)}
	}
	return out
}

// PadX and PadY are the numbers' margins, where the ground's pattern
// starts (so that its leaves lie alike on every cell).
func (b Board) PadX() string { return strconv.Itoa(b.padX) }
func (b Board) PadY() string { return strconv.Itoa(b.padY) }

// Figure is one worker drawn on a tile's edge, standing: where its centre
// is and whether it has been activated.
type Figure struct {
	X, Y  string
	Fired bool
}

// Transform places the figure.
func (f Figure) Transform() string { return "translate(" + f.X + " " + f.Y + ")" }

// Figures places each worker of t along its edge, its centre 11 units in
// from it.
func (b Board) Figures(t engine.TileView) []Figure {
	var out []Figure
	for d := 0; d < 4; d++ {
		k := t.Edges[d]
		for i := 0; i < k; i++ {
			along := CellSize*(i+1)/(k+1) - CellSize/2
			in := CellSize/2 - 11
			var dx, dy int
			switch engine.Side(d) {
			case engine.N:
				dx, dy = along, -in
			case engine.E:
				dx, dy = in, along
			case engine.S:
				dx, dy = -along, in
			case engine.W:
				dx, dy = -in, -along
			}
			x, y := b.At(t.At, CellSize/2-1+dx, CellSize/2-1+dy)
			out = append(out, Figure{X: x, Y: y, Fired: t.Fired[d]})
		}
	}
	return out
}

// SeatFill is a seat's colour.
func SeatFill(seat int) string {
	return [...]string{"var(--seat0)", "var(--seat1)", "var(--seat2)", "var(--seat3)"}[seat&3]
}

// TileLabel describes a tile in words for the board's text alternative.
func TileLabel(l *i18n.Lang, t engine.TileView, names []string) string {
	if t.Jungle != engine.NoJungle {
		return l.T("%s: %s", CellLabel(l, t.At), JungleName(l, t.Jungle))
	}
	who := "?"
	if t.Owner >= 0 && t.Owner < len(names) {
		who = names[t.Owner]
	}
	return l.T("%s: tile of %s (%s), workers north %d, east %d, south %d, west %d", CellLabel(l, t.At), who, Letters[t.Owner&3], t.Edges[0], t.Edges[1], t.Edges[2], t.Edges[3])
}

// WorkerLabel describes a worker tile as turned by rot quarter turns.
func WorkerLabel(l *i18n.Lang, w engine.Worker, rot int) string {
	e := w.Edges(rot)
	return l.T("Worker tile: workers north %d, east %d, south %d, west %d", int(e[0]), int(e[1]), int(e[2]), int(e[3]))
}

// Seats lists the seats whose tiles are on the board (the chosen tile's
// too), in order.
func (b Board) Seats() []int {
	var seen [4]bool
	for _, t := range b.Tiles {
		if t.Jungle == engine.NoJungle {
			seen[t.Owner&3] = true
		}
	}
	if b.Ghost != nil {
		seen[b.Ghost.Owner&3] = true
	}
	var out []int
	for i, ok := range seen {
		if ok {
			out = append(out, i)
		}
	}
	return out
}
