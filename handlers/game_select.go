package handlers

import (
	"slices"
	"sort"
	"strings"

	"cacao/engine"
	"cacao/views"
	"cacao/views/i18n"
)

// selectMove fills the turn panel: the cells legal for the selected tile and
// rotation, then for a chosen cell the fill options, the viewer's edges and
// a preview of what everyone would gain.
func selectMove(l *i18n.Lang, st *engine.State, vm *views.GameVM) {
	sel := vm.Sel
	if sel.Tile == "" {
		return
	}
	// A selection made at an older version that no longer fits is out of
	// date (Back after a move): dropped without an error.
	stale := sel.V != 0 && sel.V != vm.Version
	w, _ := engine.ParseWorker(sel.Tile)
	if !slices.Contains(vm.View.Hand, w) {
		vm.Sel = views.Selection{}
		if !stale {
			vm.Error = l.Sentence("that tile is not in your hand")
		}
		return
	}
	want := w.Edges(sel.Rot)
	vm.Play.Cells = map[engine.Cell]bool{}
	var legal []engine.Placement
	for _, pl := range vm.View.Legal {
		if pl.Tile == w && pl.Tile.Edges(pl.Rot) == want && !vm.Play.Cells[pl.At] {
			vm.Play.Cells[pl.At] = true
			legal = append(legal, engine.Placement{Tile: w, Rot: sel.Rot, At: pl.At, Overbuild: pl.Overbuild})
		}
	}
	names := vm.Names()
	pvs := st.Previewer()
	defer pvs.Close()
	vm.Play.Places = make([]views.Place, 0, len(legal))
	for _, pl := range legal {
		vm.Play.Places = append(vm.Play.Places, place(l, st, pvs, vm, pl, names))
	}
	sort.Slice(vm.Play.Places, func(a, b int) bool { return vm.Play.Places[a].At.Less(vm.Play.Places[b].At) })
	if sel.At == nil {
		vm.Focus = "rotate"
		return
	}
	pl := engine.Placement{Tile: w, Rot: sel.Rot, At: *sel.At, Overbuild: sel.Overbuild}
	// The cell as asked: a lay on an empty cell, or an overbuild of the
	// viewer's own tile.
	if !slices.ContainsFunc(legal, func(l engine.Placement) bool { return l.At == pl.At && l.Overbuild == pl.Overbuild }) {
		// Shown at the top: with the cell cleared, the panel asks for one.
		if !stale {
			vm.Error = l.Sentence("that cell is not a legal place for this tile")
		}
		vm.Sel.At = nil
		vm.Focus = "rotate"
		return
	}
	var fills []engine.Fill
	if !pl.Overbuild {
		opts := st.FillOptions(pl.At)
		for _, o := range opts {
			vm.Play.FillOptions = append(vm.Play.FillOptions, views.FillOption{Fills: o, Text: views.FillText(l, o)})
		}
		if len(opts) > 0 {
			if sel.Fill >= len(opts) {
				vm.Sel.Fill = 0
			}
			fills = opts[vm.Sel.Fill]
			vm.Play.Fills = fills
		}
	}
	edges, err := st.Fired(pl, fills)
	if err != nil {
		_, vm.Play.Reason = status(l, err)
		return
	}
	var mine []engine.Edge
	for _, e := range edges {
		if e.Owner == vm.Me {
			mine = append(mine, e)
		}
	}
	vm.Play.Edges = views.EdgeChoices(l, mine)
	pv, err := st.Preview(vm.Me, engine.Move{Placement: pl, Fills: fills})
	if err != nil {
		_, vm.Play.Reason = status(l, err)
		return
	}
	vm.Play.Preview, vm.Play.TileGains = views.PreviewLines(l, pv, names, vm.Me), pv.Tiles
	vm.Play.Ready = true
	vm.Focus = "confirm"
}

// place is one cell the selected tile may go to, with what placing it
// there (with the first fill option) would bring each player.
func place(l *i18n.Lang, st *engine.State, pvs *engine.Previewer, vm *views.GameVM, pl engine.Placement, names []string) views.Place {
	p := views.Place{At: pl.At, Overbuild: pl.Overbuild, Link: vm.Link(vm.Sel.WithCell(pl.At, pl.Overbuild))}
	var fills []engine.Fill
	if !pl.Overbuild {
		if opts := st.FillOptions(pl.At); len(opts) > 0 {
			fills = opts[0]
		}
	}
	if pv, err := pvs.Preview(vm.Me, engine.Move{Placement: pl, Fills: fills}); err == nil {
		p.Gains = strings.Join(views.PreviewLines(l, pv, names, vm.Me), l.T("; "))
	}
	p.Label = views.PlaceLabel(l, p)
	return p
}
