package views

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/a-h/templ"

	"cacao/engine"
	"cacao/views/i18n"
)

func renderString(t *testing.T, ctx context.Context, c templ.Component) string {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestBoardLayersKept: the kept drawing of the tiles is the drawing made
// afresh, it moves with cells offered beyond the tiles, and the kept list
// in words follows the language.
func TestBoardLayersKept(t *testing.T) {
	vm := fixedGame(t)
	ctx := context.Background()
	clear(layers.m)
	fresh := renderString(t, ctx, BoardSVG(vm, vm.boardFor()))
	if len(layers.m) == 0 {
		t.Fatal("nothing kept")
	}
	if again := renderString(t, ctx, BoardSVG(vm, vm.boardFor())); again != fresh {
		t.Fatal("the kept drawing differs from the fresh one")
	}

	// A cell offered two columns left of every tile widens the board
	// there: the tiles move right by two cells, drawn from the same bytes.
	minX := vm.View.Tiles[0].At.X
	for _, tv := range vm.View.Tiles {
		minX = min(minX, tv.At.X)
	}
	far := engine.Cell{X: minX - 2, Y: vm.View.Tiles[0].At.Y}
	vm.Play.Cells = map[engine.Cell]bool{far: true}
	wide := renderString(t, ctx, BoardSVG(vm, vm.boardFor()))
	if !strings.Contains(wide, `transform="translate(128 0)"`) {
		t.Fatalf("the tiles were not moved two cells right: %.600s", wide)
	}
	inner := regexp.MustCompile(`(?s)<g transform="[^"]*">(.*?)</g> *</g>`)
	if a, b := inner.FindStringSubmatch(fresh), inner.FindStringSubmatch(wide); a == nil || b == nil || a[1] != b[1] {
		t.Fatal("the tiles' drawing changed with the cells offered around them")
	}

	en := renderString(t, ctx, BoardText(vm))
	fa := renderString(t, i18n.With(ctx, i18n.Fa), BoardText(vm))
	if en == fa || !strings.Contains(en, "workers north") || strings.Contains(fa, "workers north") {
		t.Fatalf("the list in words did not follow the language:\n%.300s\n%.300s", en, fa)
	}
}

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
