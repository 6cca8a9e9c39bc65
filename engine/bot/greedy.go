package bot

import "cacao/engine"

// Greedy plays the move with the best immediate value: coins and water gained
// now, fruit at a fair resale price, sun tokens, the change in temple
// majorities, and a little for workers left facing empty jungle cells (they
// may fire later), minus a share of what the move gives opponents. Its own
// edges and batches are resolved with the best-value choice.
type Greedy struct {
	// Noise, when positive, adds a uniform random amount below it (in
	// gold) to each move's value: a weaker, less predictable bot.
	Noise float64
	// Kind is the name it goes by ("" : "greedy").
	Kind string
}

// Name implements Bot.
func (g Greedy) Name() string {
	if g.Kind == "" {
		return "greedy"
	}
	return g.Kind
}

// Weights of the evaluation, in gold.
const (
	fruitValue    = 1.5  // a fruit is usually sold for 2–4 later, if a market comes
	sunValue      = 1.2  // a point at the end, or an overbuild
	templeWeight  = 0.8  // majorities can still change
	openEdgeValue = 0.35 // per worker facing an empty jungle cell
	rivalWeight   = 0.5  // what opponents gain counts against the move
)

// Move implements Bot.
func (g Greedy) Move(s *engine.State, r *engine.Rand) (engine.Move, error) {
	seat := s.Current()
	legal := s.LegalPlacements(nil)
	if len(legal) == 0 {
		return engine.Move{}, ErrNoMove
	}
	before := s.Score()
	me := s.Player(seat)
	best, bestVal := engine.Move{}, -1e18
	pvs := s.Previewer()
	defer pvs.Close()
	for _, pl := range legal {
		fillOpts := [][]engine.Fill{nil}
		if !pl.Overbuild {
			if opts := s.FillOptions(pl.At); len(opts) > 0 {
				fillOpts = opts
			}
		}
		for _, fills := range fillOpts {
			edges, err := s.Fired(pl, fills)
			if err != nil {
				continue
			}
			var mine []engine.Edge
			for _, e := range edges {
				if e.Owner == seat && e.Jungle != engine.NoJungle {
					mine = append(mine, e)
				}
			}
			m := engine.Move{Placement: pl, Fills: fills, Acts: engine.BestActs(*me, mine)}
			pv, err := pvs.Preview(seat, m)
			if err != nil {
				continue
			}
			v := value(s, seat, pl, pv, before)
			// Ties are broken at random so the bot does not always build the same shape.
			v += float64(r.Intn(1000)) * 1e-6
			if g.Noise > 0 {
				v += g.Noise * float64(r.Intn(1<<20)) / (1 << 20)
			}
			if v > bestVal {
				best, bestVal = m, v
			}
		}
	}
	return best, nil
}

func value(s *engine.State, seat int, pl engine.Placement, pv engine.Preview, before engine.Result) float64 {
	v := 0.0
	for _, g := range pv.Gains {
		gv := float64(g.Gold) + float64(g.Water) + fruitValue*float64(g.Fruit) + sunValue*float64(g.Sun)
		gv += templeWeight * float64(pv.After.Scores[g.Seat].Temples-before.Scores[g.Seat].Temples)
		if g.Seat == seat {
			v += gv
		} else {
			v -= rivalWeight * gv
		}
	}
	// Workers of the new tile facing empty cells may fire later.
	edges := pl.Tile.Edges(pl.Rot)
	for d := engine.N; d <= engine.W; d++ {
		if edges[d] == 0 {
			continue
		}
		c := pl.At.Step(d)
		filled := false
		for _, f := range pv.Fills {
			if f.At == c {
				filled = true
			}
		}
		if !filled && !s.Occupied(c) && s.JunglePile()+len(s.Display()) > 0 {
			v += openEdgeValue * float64(edges[d])
		}
	}
	return v
}

// Resolve implements Bot: the best-value choice.
func (Greedy) Resolve(s *engine.State, seat int, r *engine.Rand) []engine.Act {
	p := s.Player(seat)
	q := p.Queue()
	if len(q) == 0 {
		return nil
	}
	return engine.BestActs(*p, q[0].Edges)
}
