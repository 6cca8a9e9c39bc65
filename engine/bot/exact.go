package bot

import (
	"math"
	"slices"
	"time"

	"cacao/engine"
)

// Exact endgames. Once every pile is empty in a two-player game nothing is
// hidden: each hand is what its owner has not laid yet, which the board
// shows, and no tile is left to draw. The rest of the game is then a game of
// perfect information between two players whose rewards (tree.score's) add
// up to 1, so the search solves it by minimax with alpha-beta pruning, the
// moves ordered by quickValue. A move is a placement, its fills and the
// mover's choice for their own edges; a batch in a queue is its owner's
// choice, made before their next turn or at the end. Only choices that
// leave a village no other choice betters in both gold and fruit are tried
// (actChoices): more of anything never hurts its owner.

// known reports whether nothing of s is hidden from its seats: two players,
// no tile left in any pile. It reads only counts every seat sees.
func known(s *engine.State) bool {
	if s.Players() != 2 || s.JunglePile() > 0 {
		return false
	}
	for i := range s.Players() {
		if s.Player(i).PileSize() > 0 {
			return false
		}
	}
	return true
}

// exactNodes is how many positions an exact endgame may visit for each
// iteration of a search with a fixed number of them: a position costs about
// half an iteration (a clone of the position and a list of every move), so
// the exact search takes about the time the iterations would.
const exactNodes = 2

// solve searches the rest of st, a position with nothing hidden (known),
// exactly. It gives up (ok false) when the deadline passes (zero: none),
// when Stop closes, or, for a search of fixed Iterations, after exactNodes
// positions for each.
func (sr Search) solve(st *engine.State, deadline time.Time) (Choice, bool) {
	x := &solver{me: st.Current(), deadline: deadline, stop: sr.Stop}
	if sr.Iterations > 0 {
		x.limit = exactNodes * sr.Iterations
	}
	moves := x.moves(st)
	best, bestV := -1, math.Inf(-1)
	for i, m := range moves {
		c := st.Clone()
		if _, err := c.Play(x.me, m); err != nil {
			panic("bot: the engine refused its own legal move: " + err.Error())
		}
		// A move must beat the best so far to matter: the window starts there.
		v := x.value(c, max(bestV, 0), 1)
		if x.aborted {
			return Choice{}, false
		}
		if v > bestV {
			best, bestV = i, v
		}
	}
	if best < 0 {
		return Choice{}, false
	}
	won := 0.0
	switch {
	case bestV >= winReward:
		won = 1
	case math.Abs(bestV-tieReward) < 1e-9:
		won = 0.5
	}
	return Choice{Move: moves[best], Value: bestV, Won: won, Visits: 1, Iterations: 1, Solved: true}, true
}

// solver is one exact search, for seat me.
type solver struct {
	me       int
	deadline time.Time
	stop     <-chan struct{}
	limit    int // positions at most (0: no limit)
	nodes    int
	aborted  bool
	edges    []engine.Edge
	scores   []engine.Score
}

// value is me's reward from st with best play by both, exact when it lies
// inside (alpha, beta); otherwise a bound on the side of the window it lies.
func (x *solver) value(st *engine.State, alpha, beta float64) float64 {
	x.nodes++
	if x.nodes&255 == 0 && (!x.deadline.IsZero() && time.Now().After(x.deadline) || closed(x.stop)) || x.limit > 0 && x.nodes > x.limit {
		x.aborted = true
	}
	if x.aborted {
		return 0
	}
	who := -1
	if st.Over() {
		for i := range st.Players() {
			if len(st.Player(i).Queue()) > 0 {
				who = i
				break
			}
		}
	} else if len(st.Player(st.Current()).Queue()) > 0 {
		who = st.Current()
	}
	if who >= 0 {
		// A batch waits for its owner's choice.
		choices := actChoices(*st.Player(who), st.Player(who).Queue()[0].Edges)
		return x.children(st, who, len(choices), alpha, beta, func(c *engine.State, i int) {
			if _, err := c.Resolve(who, choices[i]); err != nil {
				panic("bot: the engine refused its own choice: " + err.Error())
			}
		})
	}
	if st.Over() {
		x.scores = st.Scores(x.scores)
		return reward(x.scores, x.me)
	}
	seat := st.Current()
	moves := x.moves(st)
	return x.children(st, seat, len(moves), alpha, beta, func(c *engine.State, i int) {
		if _, err := c.Play(seat, moves[i]); err != nil {
			panic("bot: the engine refused its own legal move: " + err.Error())
		}
	})
}

// children is the value of st when who chooses among n children, made by
// apply on a clone of st: the most for me, the least for the other.
func (x *solver) children(st *engine.State, who, n int, alpha, beta float64, apply func(*engine.State, int)) float64 {
	if who == x.me {
		best := math.Inf(-1)
		for i := range n {
			c := st.Clone()
			apply(c, i)
			v := x.value(c, alpha, beta)
			best = max(best, v)
			alpha = max(alpha, v)
			if alpha >= beta || x.aborted {
				break
			}
		}
		return best
	}
	best := math.Inf(1)
	for i := range n {
		c := st.Clone()
		apply(c, i)
		v := x.value(c, alpha, beta)
		best = min(best, v)
		beta = min(beta, v)
		if alpha >= beta || x.aborted {
			break
		}
	}
	return best
}

// moves lists every move of the current player in st, a placement with its
// fills and a choice for the mover's own edges (actChoices), best first by
// quickValue.
func (x *solver) moves(st *engine.State) []engine.Move {
	seat := st.Current()
	left := jungleLeft(st)
	type ranked struct {
		m engine.Move
		v float64
	}
	var out []ranked
	var fillBuf []engine.Fill
	for _, pl := range st.LegalPlacements(nil) {
		opts := [][]engine.Fill{nil}
		if !pl.Overbuild {
			var width int
			fillBuf, width = st.AppendFillOptions(pl.At, fillBuf[:0])
			if width > 0 {
				opts = opts[:0]
				for o := 0; o < len(fillBuf); o += width {
					opts = append(opts, slices.Clone(fillBuf[o:o+width]))
				}
			}
		}
		for _, fills := range opts {
			v := quickValue(st, seat, pl, fills, &x.edges, left)
			var mine []engine.Edge
			for _, e := range x.edges {
				if e.Owner == seat && e.Jungle != engine.NoJungle {
					mine = append(mine, e)
				}
			}
			for _, acts := range actChoices(*st.Player(seat), mine) {
				out = append(out, ranked{engine.Move{Placement: pl, Fills: fills, Acts: acts}, v})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b ranked) int {
		switch {
		case a.v > b.v:
			return -1
		case a.v < b.v:
			return 1
		}
		return 0
	})
	ms := make([]engine.Move, len(out))
	for i, r := range out {
		ms[i] = r.m
	}
	return ms
}

// actChoices lists the ways worth considering for a player in village p to
// resolve edges (their own, all fired together): one act list for each
// outcome in gold and fruit that no other outcome betters in both, best gold
// first. Edges other than plantations and markets use every worker (they
// only ever gain), and so do plantations (fruit harvested may stay unsold);
// the markets' uses and the order of plantations and markets vary. The
// result is never empty.
func actChoices(p engine.Player, edges []engine.Edge) [][]engine.Act {
	var pm, rest []engine.Edge
	for _, e := range edges {
		if e.Jungle == engine.NoJungle {
			continue
		}
		if eff := e.Jungle.Kind().Effect; eff == engine.Plantation || eff == engine.Market {
			pm = append(pm, e)
		} else {
			rest = append(rest, e)
		}
	}
	type outcome struct {
		gold, fruit int
		acts        []engine.Act
	}
	var front []outcome
	var acts []engine.Act
	var walk func(used uint, gold, fruit int)
	walk = func(used uint, gold, fruit int) {
		if used == 1<<len(pm)-1 {
			for _, o := range front {
				if o.gold >= gold && o.fruit >= fruit {
					return // as good or better already
				}
			}
			front = slices.DeleteFunc(front, func(o outcome) bool { return gold >= o.gold && fruit >= o.fruit })
			front = append(front, outcome{gold, fruit, slices.Clone(acts)})
			return
		}
		for i, e := range pm {
			if used&(1<<i) != 0 {
				continue
			}
			k := e.Jungle.Kind()
			if k.Effect == engine.Plantation {
				acts = append(acts, engine.Act{Tile: e.Tile, Side: e.Side, Use: e.Workers})
				walk(used|1<<i, gold, min(engine.MaxFruit, fruit+e.Workers*k.Value))
				acts = acts[:len(acts)-1]
				continue
			}
			for u := min(e.Workers, fruit); u >= 0; u-- {
				acts = append(acts, engine.Act{Tile: e.Tile, Side: e.Side, Use: u})
				walk(used|1<<i, gold+u*k.Value, fruit-u)
				acts = acts[:len(acts)-1]
			}
		}
	}
	walk(0, 0, p.Fruit)
	slices.SortFunc(front, func(a, b outcome) int { return b.gold - a.gold })
	out := make([][]engine.Act, len(front))
	for i, o := range front {
		out[i] = o.acts
		for _, e := range rest {
			out[i] = append(out[i], engine.Act{Tile: e.Tile, Side: e.Side, Use: e.Workers})
		}
	}
	return out
}
