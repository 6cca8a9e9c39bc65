package views

import (
	"testing"

	"cacao/engine"
)

// TestLinkIsQueryEncode: a selection's address is what url.Values would
// write, for every part a selection can have.
func TestLinkIsQueryEncode(t *testing.T) {
	vm := GameVM{ID: 42}
	at := func(x, y int) *engine.Cell { return &engine.Cell{X: x, Y: y} }
	for _, s := range []Selection{
		{},
		{Tile: "2101"},
		{Tile: "3001", Rot: 3},
		{Tile: "1111", Rot: 1, At: at(-3, 12)},
		{Tile: "1111", At: at(0, -1), Overbuild: true},
		{Tile: "2101", Rot: 2, At: at(5, 5), Fill: 2},
		{At: at(1, 1), Fill: 1, Overbuild: true},
		{Tile: "3001", Rot: 1, Slot: 2, At: at(2, 2)},
	} {
		want := "/games/42"
		if q := s.Query().Encode(); q != "" {
			want += "?" + q
		}
		if got := vm.Link(s); got != want {
			t.Errorf("%+v: %q, want %q", s, got, want)
		}
	}
}
