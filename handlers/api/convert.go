package api

import (
	"fmt"

	"cacao/engine"
)

// Problem is a body the API cannot read: a sentence to translate for the
// caller (Format, in the site's catalogs, with Args).
type Problem struct {
	Format string
	Args   []any
}

func (p *Problem) Error() string { return fmt.Sprintf(p.Format, p.Args...) }

func invalid(format string, args ...any) *Problem { return &Problem{format, args} }

// GameOf writes what viewer (a seat, or engine.Spectator) may see of a
// started game: the engine's view of that seat, never more.
func GameOf(v engine.View) Game {
	g := Game{First: v.First, Turns: v.Turns, TotalTurns: v.TotalTurns, Over: v.Over, Final: v.Final, JunglePile: v.JunglePile,
		Board: make([]Tile, 0, len(v.Tiles)), Display: make([]string, 0, len(v.Display)), Villages: make([]Village, 0, len(v.Seats)),
		Scores: make([]Score, 0, len(v.Result.Scores))}
	if v.Viewer >= 0 {
		g.You = &v.Viewer
	}
	if !v.Over {
		g.Current = &v.Current
	}
	for _, t := range v.Tiles {
		out := Tile{At: CellOf(t.At), Rot: t.Rot, Covered: t.Covered}
		if t.Jungle != engine.NoJungle {
			out.Tile = t.Jungle.String()
		} else {
			owner, edges := t.Owner, t.Edges
			out.Tile, out.Owner, out.Workers = t.Worker.String(), &owner, &edges
		}
		g.Board = append(g.Board, out)
	}
	for _, j := range v.Display {
		g.Display = append(g.Display, j.String())
	}
	for _, s := range v.Seats {
		g.Villages = append(g.Villages, Village{Seat: s.Seat, Gold: s.Gold, Fruit: s.Fruit, Sun: s.Sun, WaterField: s.WaterField, Water: s.Water,
			Hand: s.Hand, Pile: s.Pile, Pending: s.Pending, Deciding: s.NeedsDecision})
	}
	for _, w := range v.Hand {
		g.Hand = append(g.Hand, w.String())
	}
	for _, b := range v.Queue {
		g.Choices = append(g.Choices, Batch{Turn: b.Turn, Edges: EdgesOf(b.Edges)})
	}
	for _, s := range v.Result.Scores {
		g.Scores = append(g.Scores, Score{Seat: s.Seat, Coins: s.Coins, Temples: s.Temples, Sun: s.Sun, Water: s.Water, Total: s.Total, Fruit: s.Fruit})
	}
	if v.Final {
		g.Winners = v.Result.Winners
	}
	return g
}

// EdgesOf writes fired edges.
func EdgesOf(es []engine.Edge) []Edge {
	out := make([]Edge, 0, len(es))
	for _, e := range es {
		j := ""
		if e.Jungle != engine.NoJungle {
			j = e.Jungle.String()
		}
		out = append(out, Edge{Tile: CellOf(e.Tile), Side: e.Side.String(), Owner: e.Owner, Workers: e.Workers, Jungle: j})
	}
	return out
}

// MoveOf writes a placement and its fills.
func MoveOf(m engine.Move) Move {
	out := Move{Tile: m.Tile.String(), Rot: m.Rot, At: CellOf(m.At), Overbuild: m.Overbuild}
	for _, f := range m.Fills {
		t := "pile"
		if !f.FromPile {
			t = f.Tile.String()
		}
		out.Fills = append(out.Fills, Fill{At: CellOf(f.At), Tile: t})
	}
	return out
}

// ActsOf writes acts (ParseActs reads them back).
func ActsOf(as []engine.Act) []Act {
	out := make([]Act, 0, len(as))
	for _, a := range as {
		out = append(out, Act{Tile: CellOf(a.Tile), Side: a.Side.String()})
		if a.Use != engine.AllWorkers {
			use := a.Use
			out[len(out)-1].Use = &use
		}
	}
	return out
}

// GainsOf writes the gains of a preview.
func GainsOf(gs []engine.Gain) []Gain {
	out := make([]Gain, 0, len(gs))
	for _, g := range gs {
		out = append(out, Gain{Seat: g.Seat, Gold: g.Gold, Fruit: g.Fruit, Sun: g.Sun, WaterSteps: g.WaterSteps, Water: g.Water})
	}
	return out
}

// Options lists seat's legal moves in s, each with every way to fill the
// cells it leaves next to jungle gaps, and what each brings.
func Options(s *engine.State, seat int) []Option {
	v := s.View(seat)
	pv := s.Previewer()
	defer pv.Close()
	var out []Option
	for _, pl := range v.Legal {
		fills := [][]engine.Fill{nil}
		if !pl.Overbuild {
			if opts := s.FillOptions(pl.At); len(opts) > 0 {
				fills = opts
			}
		}
		for _, f := range fills {
			m := engine.Move{Placement: pl, Fills: f}
			p, err := pv.Preview(seat, m)
			if err != nil {
				continue // the engine lists it legal: it previews
			}
			out = append(out, Option{Move: MoveOf(m), Fired: EdgesOf(p.Fired), Gains: GainsOf(p.Gains)})
		}
	}
	return out
}

// Parse reads a turn's move as the engine takes it; a *Problem says what
// it cannot read.
func (t Turn) Parse() (engine.Move, error) {
	w, ok := engine.ParseWorker(t.Tile)
	if !ok {
		return engine.Move{}, invalid("unknown worker tile %q", t.Tile)
	}
	if t.Rot < 0 || t.Rot > 3 {
		return engine.Move{}, invalid("rot must be 0 to 3, not %d", t.Rot)
	}
	m := engine.Move{Placement: engine.Placement{Tile: w, Rot: t.Rot, At: t.At.Cell(), Overbuild: t.Overbuild}}
	for _, f := range t.Fills {
		if f.Tile == "pile" {
			m.Fills = append(m.Fills, engine.Fill{At: f.At.Cell(), FromPile: true})
			continue
		}
		j, ok := engine.ParseJungle(f.Tile)
		if !ok {
			return m, invalid("unknown jungle tile %q in fills", f.Tile)
		}
		m.Fills = append(m.Fills, engine.Fill{At: f.At.Cell(), Tile: j})
	}
	var err error
	m.Acts, err = ParseActs(t.Acts)
	return m, err
}

// ParseActs reads acts as the engine takes them.
func ParseActs(as []Act) ([]engine.Act, error) {
	out := make([]engine.Act, 0, len(as))
	for _, a := range as {
		d, ok := engine.ParseSide(a.Side)
		if !ok {
			return nil, invalid("an act needs a side N, E, S or W, not %q", a.Side)
		}
		use := engine.AllWorkers
		if a.Use != nil {
			if *a.Use < 0 {
				return nil, invalid("an act cannot use a negative number of workers")
			}
			use = *a.Use
		}
		out = append(out, engine.Act{Tile: a.Tile.Cell(), Side: d, Use: use})
	}
	return out, nil
}
