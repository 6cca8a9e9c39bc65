package api

import "cacao/engine"

// View reads g back into the engine's view it was written from (GameOf),
// for a client that plays on it with engine.FromView. The JSON leaves out
// what FromView computes again from the rest: Legal, CanOverbuild, the
// tiles' Fired sides and Result's temples (Result's winners are read
// from the scores, as the engine decides them). A *Problem says what it
// cannot read; a view of no position is engine.FromView's to refuse.
func (g Game) View() (engine.View, error) {
	n := len(g.Villages)
	v := engine.View{Viewer: engine.Spectator, Players: n, First: g.First, Turns: g.Turns, TotalTurns: g.TotalTurns,
		Over: g.Over, Final: g.Final, JunglePile: g.JunglePile, Tiles: make([]engine.TileView, 0, len(g.Board))}
	if g.You != nil {
		v.Viewer = *g.You
	}
	switch {
	case g.Current != nil:
		v.Current = *g.Current
	case n > 0:
		v.Current = (g.First + g.Turns) % n // whose turn it would be: the engine keeps counting
	}
	for _, t := range g.Board {
		tv := engine.TileView{At: t.At.Cell(), Owner: -1, Rot: t.Rot, Covered: t.Covered}
		if j, ok := engine.ParseJungle(t.Tile); ok {
			tv.Jungle = j
		} else if w, ok := engine.ParseWorker(t.Tile); ok && t.Owner != nil && t.Workers != nil {
			tv.Worker, tv.Owner, tv.Edges = w, *t.Owner, *t.Workers
		} else {
			return v, invalid("unknown tile %q on the board, or a worker tile without its owner and sides", t.Tile)
		}
		v.Tiles = append(v.Tiles, tv)
	}
	for _, d := range g.Display {
		j, ok := engine.ParseJungle(d)
		if !ok {
			return v, invalid("unknown jungle tile %q in the display", d)
		}
		v.Display = append(v.Display, j)
	}
	for _, s := range g.Villages {
		v.Seats = append(v.Seats, engine.SeatView{Seat: s.Seat, Gold: s.Gold, Fruit: s.Fruit, Sun: s.Sun, WaterField: s.WaterField,
			Water: s.Water, Hand: s.Hand, Pile: s.Pile, Pending: s.Pending, NeedsDecision: s.Deciding})
	}
	for _, h := range g.Hand {
		w, ok := engine.ParseWorker(h)
		if !ok {
			return v, invalid("unknown worker tile %q in the hand", h)
		}
		v.Hand = append(v.Hand, w)
	}
	for _, b := range g.Choices {
		es, err := parseEdges(b.Edges)
		if err != nil {
			return v, err
		}
		v.Queue = append(v.Queue, engine.Batch{Turn: b.Turn, Owner: v.Viewer, Edges: es})
	}
	v.Result.Scores = make([]engine.Score, 0, len(g.Scores))
	for _, s := range g.Scores {
		v.Result.Scores = append(v.Result.Scores, engine.Score{Seat: s.Seat, Coins: s.Coins, Temples: s.Temples, Sun: s.Sun,
			Water: s.Water, Total: s.Total, Fruit: s.Fruit})
	}
	v.Result.Winners = engine.Winners(v.Result.Scores)
	return v, nil
}

// parseEdges reads fired edges (EdgesOf's).
func parseEdges(es []Edge) ([]engine.Edge, error) {
	out := make([]engine.Edge, 0, len(es))
	for _, e := range es {
		d, ok := engine.ParseSide(e.Side)
		if !ok {
			return nil, invalid("an edge needs a side N, E, S or W, not %q", e.Side)
		}
		j := engine.NoJungle
		if e.Jungle != "" {
			if j, ok = engine.ParseJungle(e.Jungle); !ok {
				return nil, invalid("unknown jungle tile %q faced by an edge", e.Jungle)
			}
		}
		out = append(out, engine.Edge{Tile: e.Tile.Cell(), Side: d, Owner: e.Owner, Workers: e.Workers, Jungle: j})
	}
	return out, nil
}
