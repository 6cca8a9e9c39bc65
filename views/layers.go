package views

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"io"
	"strconv"
	"sync"

	"github.com/a-h/templ"

	"cacao/engine"
)

// The tiles on the board change only with a move, yet each turn draws them
// four times or more: the page as it was, with the legal cells of a tile,
// with the chosen cell, after the move, and again for every other player.
// The drawing of the tiles and their list in words are kept, keyed by what
// they show (every tile, the seats' names, the language), never by a game
// or a version: a key that matches is the same drawing.

// layers keeps rendered board layers; when full it starts afresh. A
// hundred games under way keep two or three layers each (the drawing, the
// list in words per language), of 5 to 30 KB.
var layers = struct {
	sync.Mutex
	m    map[[32]byte][]byte
	size int
}{m: map[[32]byte][]byte{}}

const maxLayerBytes = 8 << 20

// tilesKey digests what a layer of kind shows of the tiles ts. SHA-256, not
// a fast hash: names are chosen by users, and two boards must never share
// a key (a few microseconds against the drawing's tens).
func tilesKey(ctx context.Context, kind string, ts []engine.TileView, names []string) [32]byte {
	h := sha256.New()
	io.WriteString(h, kind)
	io.WriteString(h, lang(ctx).Code)
	for _, n := range names {
		io.WriteString(h, n)
		h.Write([]byte{0})
	}
	var b [14 * 4]byte
	for _, t := range ts {
		n := 0
		put := func(x int) {
			binary.LittleEndian.PutUint32(b[n:], uint32(int32(x)))
			n += 4
		}
		put(t.At.X)
		put(t.At.Y)
		put(t.Owner)
		put(int(t.Jungle))
		for i := range t.Edges {
			put(t.Edges[i])
			if t.Fired[i] {
				put(100 + i)
			}
		}
		if t.Covered {
			put(99)
		}
		put(-1)
		h.Write(b[:n])
	}
	var key [32]byte
	h.Sum(key[:0])
	return key
}

// cached writes c, rendered once for key and kept.
func cached(key [32]byte, c templ.Component) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		layers.Lock()
		b, ok := layers.m[key]
		layers.Unlock()
		if !ok {
			var buf bytes.Buffer
			if err := c.Render(ctx, &buf); err != nil {
				return err
			}
			b = buf.Bytes()
			layers.Lock()
			if layers.size+len(b) > maxLayerBytes {
				clear(layers.m)
				layers.size = 0
			}
			if _, ok := layers.m[key]; !ok {
				layers.m[key] = b
				layers.size += len(b)
			}
			layers.Unlock()
		}
		_, err := w.Write(b)
		return err
	})
}

// tileFrame is b with its origin on the tiles' own corner (one cell out),
// so that their drawing does not depend on the cells offered around them;
// Offset places it on b.
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
