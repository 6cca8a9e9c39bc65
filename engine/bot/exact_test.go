package bot

import (
	"math"
	"slices"
	"testing"

	"cacao/engine"
)

// endgames deals count two-player positions with nothing hidden and 1 to
// most turns left (position i: 1 + i%most), each reached by a game of the greedy bot
// against itself or against the random bot, from fixed seeds, with the
// current player's queue emptied as before a bot's turn.
func endgames(t testing.TB, count, most int) []*engine.State {
	t.Helper()
	var out []*engine.State
	for g := uint64(0); len(out) < count; g++ {
		left := 1 + len(out)%most
		s := newGame(t, 2, 1000+g)
		r := engine.NewRand(g)
		bots := []Bot{Greedy{}, Greedy{}}
		if g%3 == 1 {
			bots[g%2] = &Random{}
		}
		for s.TotalTurns()-s.Turns() > left {
			seat := s.Current()
			if err := drain(s, seat, bots[seat], r); err != nil {
				t.Fatal(err)
			}
			m, err := bots[seat].Move(s, r)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Play(seat, m); err != nil {
				t.Fatal(err)
			}
		}
		if err := drain(s, s.Current(), bots[s.Current()], r); err != nil {
			t.Fatal(err)
		}
		if known(s) {
			out = append(out, s)
		}
	}
	return out
}

// oracle solves a two-player position with nothing hidden the plain way,
// for the tests: minimax over every move the engine allows (each placement,
// each fill assignment, and every order and use of the mover's own
// plantations and markets), every such choice of a batch waiting for its
// owner (before their turn, or at the end), with alpha-beta pruning. Gold
// mines, water and sun sites use every worker, as in engine.BestActs: they
// only ever gain. Acts change nothing but the
// chooser's village, so of the choices for one placement (or one batch)
// only those leaving a village no other one betters in gold, fruit, sun and
// water all at once are searched, once each: more of any never hurts its
// owner (fruit can stay unsold, and tokens, gold and water only count up).
// The value is me's reward (result) with best play by both.
type oracle struct{ me int }

// value is me's reward from st, exact inside (alpha, beta).
func (o oracle) value(st *engine.State, alpha, beta float64) float64 {
	kids := o.children(st)
	if kids == nil {
		scores := st.Scores(nil)
		r, _ := result(scores, o.me)
		return r
	}
	who := st.Current()
	if st.Over() {
		for i := range st.Players() {
			if len(st.Player(i).Queue()) > 0 {
				who = i
				break
			}
		}
	}
	best := math.Inf(1)
	if who == o.me {
		best = math.Inf(-1)
	}
	for _, c := range kids {
		v := o.value(c, alpha, beta)
		if who == o.me {
			best, alpha = max(best, v), max(alpha, v)
		} else {
			best, beta = min(best, v), min(beta, v)
		}
		if alpha >= beta {
			break
		}
	}
	return best
}

// children lists the positions the player to choose may reach from st (nil
// once the game is over with nothing waiting), ordered by the chooser's
// lead in totals right after (alpha-beta prunes more; any order is right).
func (o oracle) children(st *engine.State) []*engine.State {
	var kids, group []*engine.State
	village := func(c *engine.State, who int) [4]int {
		p := c.Player(who)
		return [4]int{p.Gold, p.Fruit, p.Sun, p.Water}
	}
	// keep adds c to the group of one placement's (or batch's) choices
	// unless one there is as good in everything; flush keeps the group.
	keep := func(c *engine.State, who int) {
		v := village(c, who)
		for i, d := range group {
			w := village(d, who)
			if w[0] >= v[0] && w[1] >= v[1] && w[2] >= v[2] && w[3] >= v[3] {
				return
			}
			if v[0] >= w[0] && v[1] >= w[1] && v[2] >= w[2] && v[3] >= w[3] {
				group[i] = nil
			}
		}
		group = slices.DeleteFunc(group, func(d *engine.State) bool { return d == nil })
		group = append(group, c)
	}
	flush := func() {
		kids = append(kids, group...)
		group = group[:0]
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
	switch {
	case who >= 0:
		for _, acts := range allActs(st.Player(who).Queue()[0].Edges) {
			c := st.Clone()
			if _, err := c.Resolve(who, acts); err == nil {
				keep(c, who)
			}
		}
		flush()
	case st.Over():
		return nil
	default:
		who = st.Current()
		for _, pl := range st.LegalPlacements(nil) {
			opts := [][]engine.Fill{nil}
			if !pl.Overbuild {
				if fo := st.FillOptions(pl.At); len(fo) > 0 {
					opts = fo
				}
			}
			for _, fills := range opts {
				edges, err := st.Fired(pl, fills)
				if err != nil {
					panic(err)
				}
				var mine []engine.Edge
				for _, e := range edges {
					if e.Owner == who {
						mine = append(mine, e)
					}
				}
				for _, acts := range allActs(mine) {
					c := st.Clone()
					if _, err := c.Play(who, engine.Move{Placement: pl, Fills: fills, Acts: acts}); err != nil {
						panic(err)
					}
					keep(c, who)
				}
				flush()
			}
		}
	}
	lead := map[*engine.State]int{}
	for _, c := range kids {
		sc := c.Scores(nil)
		lead[c] = sc[who].Total - sc[1-who].Total
	}
	slices.SortStableFunc(kids, func(a, b *engine.State) int { return lead[b] - lead[a] })
	return kids
}

// allActs lists the act lists for edges: each order and each use of the
// plantations and markets, then the others with every worker.
func allActs(all []engine.Edge) [][]engine.Act {
	var edges, rest []engine.Edge
	for _, e := range all {
		if eff := e.Jungle.Kind().Effect; eff == engine.Plantation || eff == engine.Market {
			edges = append(edges, e)
		} else {
			rest = append(rest, e)
		}
	}
	var out [][]engine.Act
	var acts []engine.Act
	var walk func(used uint)
	walk = func(used uint) {
		if used == 1<<len(edges)-1 {
			list := slices.Clone(acts)
			for _, e := range rest {
				list = append(list, engine.Act{Tile: e.Tile, Side: e.Side, Use: e.Workers})
			}
			out = append(out, list)
			return
		}
		for i, e := range edges {
			if used&(1<<i) != 0 {
				continue
			}
			for u := 0; u <= e.Workers; u++ {
				acts = append(acts, engine.Act{Tile: e.Tile, Side: e.Side, Use: u})
				walk(used | 1<<i)
				acts = acts[:len(acts)-1]
			}
		}
	}
	walk(0)
	return out
}

// checkEndgames: in each position the search's move is worth, by the
// oracle, as much as the best move.
func checkEndgames(t *testing.T, positions []*engine.State) {
	t.Helper()
	solved := 0
	for i, s := range positions {
		// 60,000 iterations: the exact search may visit 120,000 positions.
		c, err := Search{Iterations: 60000}.Think(s, engine.NewRand(uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		if c.Solved {
			solved++
		}
		o := oracle{me: s.Current()}
		best := o.value(s, math.Inf(-1), math.Inf(1))
		after := s.Clone()
		if _, err := after.Play(s.Current(), c.Move); err != nil {
			t.Fatalf("position %d: the search chose an illegal move: %v", i, err)
		}
		// Only whether the move reaches the best matters: a value below
		// best-1e-9 is a bound, enough to tell.
		if got := o.value(after, best-1e-9, math.Inf(1)); got < best-1e-9 {
			t.Errorf("position %d (%d turns left): the search's move %+v is worth %.4f, the best %.4f (value %.4f)",
				i, s.TotalTurns()-s.Turns(), c.Move, got, best, c.Value)
		} else if c.Solved && (math.Abs(c.Value-best) > 1e-9 || c.Visits != 1 || c.Iterations != 1) {
			t.Errorf("position %d: the search solved it to %.4f, the oracle to %.4f", i, c.Value, best)
		}
	}
	t.Logf("%d positions, %d solved exactly within the budget", len(positions), solved)
	if solved == 0 {
		t.Error("no position was solved exactly: the endgames went to the tree search")
	}
}

// With nothing hidden and up to 3 turns left, the hard bot plays a best
// move, in 12 positions (TestLongEndgames: 240, up to 4 turns left; the
// oracle takes seconds for each of those).
func TestEndgames(t *testing.T) {
	checkEndgames(t, endgames(t, 12, 3))
}

func TestActChoices(t *testing.T) {
	e := func(x int, j engine.Jungle, k int) engine.Edge {
		return engine.Edge{Tile: engine.Cell{X: x, Y: 0}, Workers: k, Jungle: j}
	}
	for _, tc := range []struct {
		name  string
		fruit int
		edges []engine.Edge
		want  [][2]int // gold, fruit of each choice, best gold first
	}{
		{"gold, water and sun only gain: one choice", 0, []engine.Edge{e(1, engine.G2, 2), e(3, engine.WaterTile, 1), e(5, engine.Sun, 1)}, [][2]int{{4, 0}}},
		{"nothing fired", 3, nil, [][2]int{{0, 3}}},
		{"a market sells 0-2 of 2 fruit (ruling 11)", 2, []engine.Edge{e(1, engine.M3, 2)}, [][2]int{{6, 0}, {3, 1}, {0, 2}}},
		{"no fruit: the worker is spent (ruling 6)", 0, []engine.Edge{e(1, engine.M4, 1)}, [][2]int{{0, 0}}},
		{"harvest then sell, or keep (ruling 9)", 0, []engine.Edge{e(1, engine.M2, 1), e(3, engine.P1, 1)}, [][2]int{{2, 0}, {0, 1}}},
		{"full storage: sell first, then harvest (rulings 8, 9)", 5, []engine.Edge{e(1, engine.P2, 1), e(3, engine.M4, 1)}, [][2]int{{4, 5}}},
	} {
		p := engine.Player{Fruit: tc.fruit}
		var got [][2]int
		for _, acts := range actChoices(p, tc.edges) {
			q := p
			for _, a := range acts {
				for _, ed := range tc.edges {
					if ed.Tile == a.Tile {
						gain(&q, ed.Jungle, a.Use)
					}
				}
			}
			got = append(got, [2]int{q.Gold, q.Fruit})
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: choices give %v, want %v", tc.name, got, tc.want)
		}
	}
}

// gain is the rules' effect of u workers on j for the tests (the engine's
// own is not exported), for plantations, markets and mines.
func gain(p *engine.Player, j engine.Jungle, u int) {
	k := j.Kind()
	switch k.Effect {
	case engine.Plantation:
		p.Fruit = min(engine.MaxFruit, p.Fruit+u*k.Value)
	case engine.Market:
		sold := min(u, p.Fruit)
		p.Fruit -= sold
		p.Gold += sold * k.Value
	case engine.Mine:
		p.Gold += u * k.Value
	}
}
