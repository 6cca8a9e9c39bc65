package views

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"cacao/engine"
)

// Selection is the viewer's choice in progress, carried in the URL so that
// every step also works as a plain link without JavaScript.
type Selection struct {
	Tile      string
	Slot      int // the tile's place in the hand when an alike one comes before it, else 0
	Rot       int
	At        *engine.Cell
	Overbuild bool
	Fill      int
	// V is the game's version the selection was made at (0: not said). A
	// selection from an older version (an address from the history, a
	// page refreshed after the others moved) that no longer fits the game
	// is dropped without a word: it is out of date, not wrong.
	V int
}

// Query returns the selection as URL query parameters, with changes.
func (s Selection) Query() url.Values {
	q := url.Values{}
	if s.Tile != "" {
		q.Set("tile", s.Tile)
		q.Set("rot", strconv.Itoa(s.Rot))
		if s.Slot > 0 {
			q.Set("slot", strconv.Itoa(s.Slot))
		}
	}
	if s.At != nil {
		q.Set("at", fmt.Sprintf("%d,%d", s.At.X, s.At.Y))
		if s.Overbuild {
			q.Set("overbuild", "1")
		}
		if s.Fill > 0 {
			q.Set("fill", strconv.Itoa(s.Fill))
		}
	}
	return q
}

// Link is the game page URL with selection s, made at the page's version.
func (vm GameVM) Link(s Selection) string {
	// Written out rather than through url.Values (a map, sorted and encoded
	// for each of the dozens of links on a board); the same address, keys
	// in Encode's order.
	var b strings.Builder
	b.Grow(64)
	if vm.Base != "" {
		b.WriteString(vm.Base)
	} else {
		b.WriteString("/games/")
		b.WriteString(strconv.FormatUint(uint64(vm.ID), 10))
	}
	sep := byte('?')
	add := func(k, v string) {
		b.WriteByte(sep)
		sep = '&'
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(v))
	}
	if s.At != nil {
		add("at", strconv.Itoa(s.At.X)+","+strconv.Itoa(s.At.Y))
		if s.Fill > 0 {
			add("fill", strconv.Itoa(s.Fill))
		}
		if s.Overbuild {
			add("overbuild", "1")
		}
	}
	if s.Tile != "" {
		add("rot", strconv.Itoa(s.Rot))
		if s.Slot > 0 {
			add("slot", strconv.Itoa(s.Slot))
		}
		add("tile", s.Tile)
		if vm.Version > 0 {
			add("v", strconv.Itoa(vm.Version))
		}
	}
	return b.String()
}

// WithTile selects the tile at place i of hand, keeping the cell when
// there is one. The place is kept only when an alike tile comes before it,
// so that the one clicked is the one marked.
func (s Selection) WithTile(hand []engine.Worker, i int) Selection {
	s.Tile, s.Slot, s.Rot, s.Fill = hand[i].String(), 0, 0, 0
	for _, w := range hand[:i] {
		if w == hand[i] {
			s.Slot = i
			break
		}
	}
	return s
}

// Rotated turns the selected tile a quarter turn clockwise.
func (s Selection) Rotated() Selection {
	s.Rot = (s.Rot + 1) % 4
	s.Fill = 0
	return s
}

// WithCell chooses a cell.
func (s Selection) WithCell(c engine.Cell, overbuild bool) Selection {
	s.At, s.Overbuild, s.Fill = &c, overbuild, 0
	return s
}

// WithFill chooses a fill option.
func (s Selection) WithFill(i int) Selection {
	s.Fill = i
	return s
}
