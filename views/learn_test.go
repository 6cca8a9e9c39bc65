package views

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"cacao/engine"
	"cacao/engine/tutorial"
	"cacao/views/i18n"
	"cacao/views/viewtest"
)

// TestCoachMarks: the lesson's tile is marked in the hand, and its cell
// on the board (in its link's words too) only once the tile is turned as
// the lesson wants; a game without a coach marks nothing; the move's
// form and the links lead to the tutorial's step.
func TestCoachMarks(t *testing.T) {
	vm := fixedGame(t)
	vm.Play.MyTurn, vm.Play.CanAct = true, true
	var pl engine.Placement
	for _, p := range vm.View.Legal {
		if p.Tile.Edges(0) != p.Tile.Edges(1) && !p.Overbuild {
			pl = p
			break
		}
	}
	render := func(vm GameVM) string {
		t.Helper()
		var buf bytes.Buffer
		if err := GameTurn(vm).Render(context.Background(), &buf); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	places := func(vm *GameVM, rot int) {
		vm.Sel = Selection{Tile: pl.Tile.String(), Rot: rot}
		vm.Play.Places = nil
		for _, p := range vm.View.Legal {
			if p.Tile == pl.Tile && p.Tile.Edges(p.Rot) == p.Tile.Edges(rot) {
				vm.Play.Places = append(vm.Play.Places, Place{At: p.At, Label: "place", Link: vm.Link(vm.Sel.WithCell(p.At, false))})
			}
		}
	}
	// No coach: nothing marked.
	places(&vm, pl.Rot)
	if html := render(vm); viewtest.Has(t, html, ".coach") {
		t.Fatalf("a game marks a coach's tile or cell:\n%s", viewtest.Show(t, html, ".coach"))
	}
	vm.Base = "/learn/3"
	vm.Coach = &Coach{Tile: pl.Tile, Rot: pl.Rot, At: pl.At, Do: "do this"}
	places(&vm, pl.Rot)
	html := render(vm)
	if n := viewtest.Count(t, html, "#hand a.tile.coach"); n == 0 {
		t.Fatal("the lesson's tile is not marked in the hand")
	}
	if got := viewtest.Find(t, html, "#hand a.tile.coach").AttrOr("aria-label", ""); !strings.HasSuffix(got, "(this lesson's tile)") {
		t.Errorf("the lesson's tile is told %q", got)
	}
	cell := viewtest.Find(t, html, "#place-cells a.cell.coach")
	if cell.Length() != 1 || !strings.HasSuffix(cell.AttrOr("aria-label", ""), "(this lesson's cell)") || cell.AttrOr("data-cell", "") != strings.Trim(strings.ReplaceAll(pl.At.String(), " ", ""), "[]") {
		t.Errorf("the lesson's cell is marked %d times, told %q", cell.Length(), cell.AttrOr("aria-label", ""))
	}
	if href := cell.AttrOr("href", ""); !strings.HasPrefix(href, "/learn/3?") {
		t.Errorf("the cell links to %q, not the tutorial's step", href)
	}
	// Turned another way, the cell is not the lesson's.
	other := (pl.Rot + 1) % 4
	for pl.Tile.Edges(other) == pl.Tile.Edges(pl.Rot) {
		other = (other + 1) % 4
	}
	places(&vm, other)
	if html := render(vm); viewtest.Has(t, html, "#place-cells a.coach") {
		t.Error("a cell is marked while the tile is turned another way")
	}
	// The move's form posts to the step.
	places(&vm, pl.Rot)
	vm.Sel = vm.Sel.WithCell(pl.At, false)
	vm.Play.Ready = true
	var buf bytes.Buffer
	if err := PlayPanel(vm).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	if action, _ := viewtest.Attr(t, buf.String(), "#play form", "action"); action != "/learn/3" {
		t.Errorf("the move's form posts to %q", action)
	}
	if got := viewtest.Text(t, buf.String(), "#coach-do"); got != "do this" {
		t.Errorf("the bar says %q, not the coach's line", got)
	}
}

// TestCoachWords: what the bar asks, and why a try is not the lesson's
// move, at each stage of the move; every topic of the tutorial has words.
func TestCoachWords(t *testing.T) {
	l := i18n.En
	for _, topic := range append([]tutorial.Topic{"", "end"}, tutorial.Topics...) {
		if ls := LessonOf(l, string(topic)); ls.Title == "" || len(ls.Explain) == 0 || topic != "" && topic != "end" && (ls.Why == "" || ls.Lay == "") {
			t.Errorf("the lesson on %q lacks words: %+v", topic, ls)
		}
	}
	w, _ := engine.ParseWorker("3001")
	other, _ := engine.ParseWorker("1111")
	at, elsewhere := engine.Cell{X: 1, Y: 0}, engine.Cell{X: 0, Y: 1}
	c := &Coach{Tile: w, Rot: 1, At: at}
	ls := LessonOf(l, "market")
	for _, k := range []struct {
		sel         Selection
		do, wrong   string
		turnPicture bool
	}{
		{Selection{}, "Choose the marked tile", "", false},
		{Selection{Tile: other.String()}, "Choose the marked tile", "not the marked tile. " + ls.Why, false},
		{Selection{Tile: w.String()}, "Turn it", "", true},
		{Selection{Tile: w.String(), Rot: 1}, ls.Lay, "", false},
		{Selection{Tile: w.String(), Rot: 1, At: &elsewhere}, ls.Lay, "not the marked cell. " + ls.Why, false},
		{Selection{Tile: w.String(), Rot: 2, At: &at}, "Turn it", "Turned this way", true},
		{Selection{Tile: w.String(), Rot: 1, At: &at}, "Confirm the move.", "", false},
	} {
		do, turn := CoachDo(l, ls, c, k.sel)
		wrong := CoachWrong(l, ls, c, k.sel)
		if !strings.Contains(do, k.do) || turn != k.turnPicture || (k.wrong == "") != (wrong == "") || !strings.Contains(wrong, k.wrong) {
			t.Errorf("%+v: asks %q (picture %v), wrong %q; want %q (%v), %q", k.sel, do, turn, wrong, k.do, k.turnPicture, k.wrong)
		}
	}
}
