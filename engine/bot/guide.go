package bot

import (
	"math"
	"slices"

	"cacao/engine"
)

// What the current search (Search version 2) takes from the greedy bot:
//
//   - the root's moves are ranked by the greedy bot's value (rankRoot, about
//     a millisecond for them all) and tried best first;
//   - a node tries only its best few moves until it has been visited more
//     (progressive widening, tree.width); below the root the next move tried
//     is the best by quickValue of a few untried ones;
//   - a playout plays, each turn, the best by quickValue of a few random
//     legal moves, not any move: no random overbuilds, few gifts.

// samples is how many random moves a playout weighs each turn (and the
// tree, below the root, before it adds a move) in a game of players: with
// two or three, six, few enough that a playout costs about twice a random
// one and enough that the worst moves are rarely played; with four, whose
// playouts are three quarters the others' moves, sixteen, which plays them
// nearer their best. Measured against greedy at 200 ms a move
// (cmd/botmatch): with two players ten did no better than six (three
// players were not tried with more); with four, on the same 120 deals, 12,
// 24 and 48 each finished first 7 to 8 points more often than six
// (cmd/botmatch's package doc has sixteen at 1 s).
func samples(players int) int {
	if players == 4 {
		return 16
	}
	return 6
}

// templeQuick is quickValue's worth of a worker beside a temple, in gold:
// a share of a majority that may still change.
const templeQuick = 0.6

// pileQuick is quickValue's worth of a worker facing a cell filled from the
// pile: the tile is unknown, and most tiles give something.
const pileQuick = 0.8

// waterTrack is the value of each field of the water track (read only).
var waterTrack = engine.WaterTrack()

// effects is each jungle tile's effect and value, by Jungle (read only):
// Jungle.Kind copies a whole row, names and all, which quickValue cannot
// afford.
var effects = func() (t [engine.NumJungleKinds + 1]struct {
	effect engine.Effect
	value  int
}) {
	for j := range t {
		k := engine.Jungle(j).Kind()
		t[j].effect, t[j].value = k.Effect, k.Value
	}
	return t
}()

// width is how many of a node's moves the search tries before it visits
// them again: a few at first, more as the node is visited more.
func (t *tree) width(at int32) int {
	v := t.iters
	if at != 0 {
		v = int(t.nodes[at].visits)
	}
	return 2 + int(1.5*math.Sqrt(float64(v)))
}

// expansion picks the untried move of cands (those not marked in t.set) to
// add below node at: at the root the best by the greedy bot's ranking, below
// it the best by quickValue of a few untried ones drawn at random.
func (t *tree) expansion(st *engine.State, at int32, cands []cand, untried int, r *engine.Rand) int {
	if at == 0 && t.prior != nil {
		for _, i := range t.prior {
			if !t.set.marked(cands[i].key) {
				return int(i)
			}
		}
	}
	seat := st.Current()
	left := jungleLeft(st)
	best, bestV := -1, math.Inf(-1)
	for range samples(st.Players()) {
		i := r.Intn(len(cands))
		if t.set.marked(cands[i].key) {
			if untried*4 >= len(cands) {
				continue // drawn again next time round
			}
			// Few are untried: take the next untried one after i.
			for t.set.marked(cands[i].key) {
				i = (i + 1) % len(cands)
			}
		}
		c := &cands[i]
		if v := quickValue(st, seat, c.pl, c.fills, &t.guide.edges, left); v > bestV {
			best, bestV = i, v
		}
	}
	if best < 0 {
		for i := range cands {
			if !t.set.marked(cands[i].key) {
				return i
			}
		}
	}
	return best
}

// rankRoot orders the root's moves by the greedy bot's value of each (the
// best value-choice of the mover's own edges), best first; equal values keep
// the moves' order.
func rankRoot(st *engine.State, root []cand) []int32 {
	seat := st.Current()
	before := st.Score()
	me := st.Player(seat)
	pvs := st.Previewer()
	defer pvs.Close()
	vals := make([]float64, len(root))
	var edges []engine.Edge
	for i, c := range root {
		vals[i] = math.Inf(-1)
		edges = st.AppendFired(c.pl, c.fills, edges[:0])
		mine := edges[:0:0]
		for _, e := range edges {
			if e.Owner == seat && e.Jungle != engine.NoJungle {
				mine = append(mine, e)
			}
		}
		m := engine.Move{Placement: c.pl, Fills: c.fills, Acts: engine.BestActs(*me, mine)}
		if pv, err := pvs.Preview(seat, m); err == nil {
			vals[i] = value(st, seat, c.pl, pv, before)
		}
	}
	order := make([]int32, len(root))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		switch {
		case vals[a] > vals[b]:
			return -1
		case vals[a] < vals[b]:
			return 1
		}
		return 0
	})
	return order
}

// jungleLeft reports whether jungle tiles remain to be laid, so that a
// worker facing an empty cell may still fire.
func jungleLeft(st *engine.State) bool {
	return st.JunglePile() > 0 || len(st.Display()) > 0
}

// quickValue is a cheap judgement, in gold, of the move pl with fills by
// seat, legal in st: the gains of every edge it fires, each edge on its own
// (plantations before markets), the seat's counted in full and the others'
// against it at the greedy bot's rivalWeight, a little for the new tile's
// workers facing empty cells while jungle tiles are left, and the sun token
// an overbuild costs. It reads only st's board and villages. edges is a
// buffer.
func quickValue(st *engine.State, seat int, pl engine.Placement, fills []engine.Fill, edges *[]engine.Edge, left bool) float64 {
	es := st.AppendFired(pl, fills, (*edges)[:0])
	*edges = es
	v := 0.0
	if pl.Overbuild {
		v -= sunValue
	}
	// Each owner's edges, plantations first, so that fruit harvested now
	// may be sold now; each owner's gains g add up in the edges' order.
	var owners uint
	var g [4]float64
	var fruit, sun, water [4]int
	for i := range es {
		o := es[i].Owner
		if owners&(1<<o) == 0 {
			owners |= 1 << o
			p := st.Player(o)
			fruit[o], sun[o], water[o] = p.Fruit, p.Sun, p.Water
		}
	}
	for pass := 0; pass < 2; pass++ {
		for i := range es {
			e := &es[i]
			o := e.Owner
			if e.Jungle == engine.NoJungle {
				if pass == 0 {
					g[o] += pileQuick * float64(e.Workers)
				}
				continue
			}
			k := &effects[e.Jungle]
			if (k.effect == engine.Market) != (pass == 1) {
				continue
			}
			switch k.effect {
			case engine.Plantation:
				add := min(e.Workers*k.value, engine.MaxFruit-fruit[o])
				fruit[o] += add
				g[o] += fruitValue * float64(add)
			case engine.Market:
				sold := min(e.Workers, fruit[o])
				fruit[o] -= sold
				g[o] += float64(sold) * (float64(k.value) - fruitValue)
			case engine.Mine:
				g[o] += float64(e.Workers * k.value)
			case engine.Water:
				to := min(len(waterTrack)-1, water[o]+e.Workers*k.value)
				g[o] += float64(waterTrack[to] - waterTrack[water[o]])
				water[o] = to
			case engine.SunSite:
				add := min(e.Workers*k.value, engine.MaxSun-sun[o])
				sun[o] += add
				g[o] += sunValue * float64(add)
			case engine.Temple:
				g[o] += templeQuick * float64(e.Workers)
			}
		}
	}
	for owner := range st.Players() {
		if owners&(1<<owner) == 0 {
			continue
		}
		if owner == seat {
			v += g[owner]
		} else {
			v -= rivalWeight * g[owner]
		}
	}
	if left {
		tile := pl.Tile.Edges(pl.Rot)
		for d := engine.N; d <= engine.W; d++ {
			c := pl.At.Step(d)
			if tile[d] == 0 || st.Occupied(c) || slices.ContainsFunc(fills, func(f engine.Fill) bool { return f.At == c }) {
				continue
			}
			v += openEdgeValue * float64(tile[d])
		}
	}
	return v
}

// guide plays the current search's playouts; its buffers make it unsafe
// for concurrent use.
type guide struct {
	cells []engine.Cell
	fills []engine.Fill
	edges []engine.Edge
}

// playout plays st to the end, each turn the best by quickValue of
// samples random legal moves (a cell or an overbuild target, a hand
// tile turned some way, a fill assignment), resolving every batch at once
// with reactions (the default order).
func (g *guide) playout(st *engine.State, r *engine.Rand, reactions map[int][]engine.Act) {
	weighed := samples(st.Players())
	for !st.Over() {
		seat := st.Current()
		cells := st.LegalCells(g.cells[:0])
		normal := len(cells)
		cells = st.OverbuildCells(cells)
		g.cells = cells
		p := st.Player(seat)
		var tiles [4 * engine.NumWorkerKinds]engine.Worker
		var rots [4 * engine.NumWorkerKinds]uint8
		n := 0
		for w, c := range p.Hand {
			if c == 0 {
				continue
			}
			for _, rot := range engine.Worker(w).Rotations() {
				tiles[n], rots[n] = engine.Worker(w), uint8(rot)
				n++
			}
		}
		if len(cells) == 0 || n == 0 {
			return // cannot happen (ErrNoMove)
		}
		left := jungleLeft(st)
		var best engine.Move
		var bestFills [3]engine.Fill
		bestV := math.Inf(-1)
		for range weighed {
			i := r.Intn(len(cells) * n)
			pl := engine.Placement{Tile: tiles[i%n], Rot: int(rots[i%n]), At: cells[i/n], Overbuild: i/n >= normal}
			var fills []engine.Fill
			if !pl.Overbuild {
				opts, width := st.AppendFillOptions(pl.At, g.fills[:0])
				g.fills = opts
				if width > 0 {
					o := r.Intn(len(opts)/width) * width
					fills = opts[o : o+width : o+width]
				}
			}
			if v := quickValue(st, seat, pl, fills, &g.edges, left); v > bestV {
				bestV = v
				best = engine.Move{Placement: pl, Fills: bestFills[:copy(bestFills[:], fills)]}
			}
		}
		best.Reactions = reactions
		if _, err := st.Play(seat, best); err != nil {
			panic("bot: the engine refused its own legal move: " + err.Error())
		}
	}
}
