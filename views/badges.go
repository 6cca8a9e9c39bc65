package views

import (
	"strconv"
	"unicode/utf8"

	"cacao/views/i18n"
)

// Badge is what a jungle tile would give the player in the move being
// chosen, drawn on the tile: a line of signed numbers, each after its
// icon (gold, fruit, sun, water steps).
type Badge struct {
	X, Y, W      string
	IconY, TextY string
	Items        []BadgeItem
}

// BadgeItem is one number of a badge with its icon, placed.
type BadgeItem struct {
	Icon         string // a symbol of the sprite
	IconX, TextX string
	Text         string
}

// Badges lays out the badges of the viewer's gains in the move, one per
// tile that gives something, across the bottom edge of the tile.
func (b Board) Badges(l *i18n.Lang) []Badge {
	const icon, gap, digit = 14, 4, 8 // widths in board units
	var out []Badge
	for _, tg := range b.Gains {
		g := tg.Gain
		var items []BadgeItem
		for _, it := range []struct {
			icon string
			n    int
		}{{"i-gold", g.Gold}, {"i-fruit", g.Fruit}, {"i-sun", g.Sun}, {"i-water", g.WaterSteps}} {
			if it.n != 0 {
				items = append(items, BadgeItem{Icon: tileIcon(it.icon), Text: l.Signed(it.n)})
			}
		}
		if len(items) == 0 {
			continue
		}
		widths, w := make([]int, len(items)), gap
		for i, it := range items {
			widths[i] = icon + 1 + digit*utf8.RuneCountInString(it.Text)
			w += widths[i] + gap
		}
		x0, y0 := b.At(tg.At, 0, 0)
		left, _ := strconv.Atoi(x0)
		left += (CellSize - 2 - w) / 2
		x := left + gap
		for i := range items {
			items[i].IconX, items[i].TextX = strconv.Itoa(x), strconv.Itoa(x+icon+1)
			x += widths[i] + gap
		}
		top, _ := strconv.Atoi(y0)
		y := top + CellSize - 16 // on the tile's bottom edge: the drawing stays seen
		out = append(out, Badge{X: strconv.Itoa(left), Y: strconv.Itoa(y), W: strconv.Itoa(w), IconY: strconv.Itoa(y + 3), TextY: strconv.Itoa(y + 15), Items: items})
	}
	return out
}
