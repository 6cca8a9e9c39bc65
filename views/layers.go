package views

import "strconv"

// tileFrame is b with its origin on the tiles' own corner (one cell out),
// so that the drawing of the tiles does not depend on the cells offered
// around them: a page that keeps the #tiles the browser already has
// (GameVM.Keep) moves them with Offset alone.
func (b Board) tileFrame() Board {
	f := b
	first := true
	for _, t := range b.Tiles {
		if first || t.At.X-1 < f.MinX {
			f.MinX = t.At.X - 1
		}
		if first || t.At.Y-1 < f.MinY {
			f.MinY = t.At.Y - 1
		}
		first = false
	}
	return f
}

// Offset is the translation from frame f to b.
func (b Board) Offset(f Board) string {
	return "translate(" + strconv.Itoa((f.MinX-b.MinX)*CellSize) + " " + strconv.Itoa((f.MinY-b.MinY)*CellSize) + ")"
}
