package engine_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"cacao/engine"
	"cacao/engine/bot"
)

// The rules' numbers, restated from the rules (views/rules/en.html, "The pieces") rather than read from
// the engine's tables, so that a wrong table fails these tests.
var (
	// ruleJungle[j] is how many tiles of kind j a game uses, start tiles
	// included: [0] with 3-4 players, [1] with 2.
	ruleJungle = map[engine.Jungle][2]int{
		engine.P1: {6, 4}, engine.P2: {2, 2}, engine.M2: {2, 2}, engine.M3: {4, 3}, engine.M4: {1, 1},
		engine.G1: {2, 1}, engine.G2: {1, 1}, engine.WaterTile: {3, 2}, engine.Sun: {2, 1}, engine.TempleTile: {5, 4},
	}
	// ruleWorkerEdges is each worker tile's counts N, E, S, W unrotated.
	ruleWorkerEdges = map[engine.Worker][4]int{
		engine.W1111: {1, 1, 1, 1}, engine.W2101: {2, 1, 0, 1}, engine.W3001: {3, 0, 0, 1}, engine.W3100: {3, 1, 0, 0},
	}
	// rulePerPlayer[w][n-2] is each player's number of tile w with n players.
	rulePerPlayer = map[engine.Worker][3]int{
		engine.W1111: {4, 3, 3}, engine.W2101: {5, 5, 4}, engine.W3001: {1, 1, 1}, engine.W3100: {1, 1, 1},
	}
	ruleWater = [9]int{-10, -4, -1, 0, 2, 4, 7, 11, 16}
	// ruleTurns is the length of a game: every player lays every tile.
	ruleTurns = map[int]int{2: 2 * 11, 3: 3 * 10, 4: 4 * 9}
)

// ruleJungleCount is how many tiles of kind j an n-player game uses.
func ruleJungleCount(j engine.Jungle, n int) int {
	if n == 2 {
		return ruleJungle[j][1]
	}
	return ruleJungle[j][0]
}

func ruleJungleTotal(n int) int {
	t := 0
	for j := range ruleJungle {
		t += ruleJungleCount(j, n)
	}
	return t
}

func ruleWorkerTotal(n int) int {
	t := 0
	for _, c := range rulePerPlayer {
		t += c[n-2]
	}
	return t
}

// rotate turns unrotated edge counts r quarter turns clockwise (the
// package doc's Records: what was on N is on E after one turn).
func rotate(e [4]int, r int) [4]int {
	var out [4]int
	for d := 0; d < 4; d++ {
		out[(d+r)&3] = e[d]
	}
	return out
}

// distinctRotations counts the rotations of w that give different tiles.
func distinctRotations(w engine.Worker) int {
	seen := map[[4]int]bool{}
	for r := 0; r < 4; r++ {
		seen[rotate(ruleWorkerEdges[w], r)] = true
	}
	return len(seen)
}

var allSides = [4]engine.Side{engine.N, engine.E, engine.S, engine.W}

// edgeKey names one edge of one tile instance: a cell, how many times that
// cell had been overbuilt when the tile was laid, and a side.
type edgeKey struct {
	at   engine.Cell
	gen  int
	side engine.Side
}

// snapshot is the board as a View shows it: every cell's stack, bottom first.
type snapshot struct {
	stacks  map[engine.Cell][]engine.TileView
	display []engine.Jungle
	pile    int
	front   map[engine.Cell]bool // where a normal placement may go
}

func snap(v engine.View) snapshot {
	sn := snapshot{stacks: make(map[engine.Cell][]engine.TileView, len(v.Tiles)), display: slices.Clone(v.Display), pile: v.JunglePile}
	for _, t := range v.Tiles {
		sn.stacks[t.At] = append(sn.stacks[t.At], t)
	}
	sn.front = sn.frontier()
	return sn
}

// top returns the top tile of c, if any.
func (sn snapshot) top(c engine.Cell) (engine.TileView, bool) {
	st := sn.stacks[c]
	if len(st) == 0 {
		return engine.TileView{}, false
	}
	return st[len(st)-1], true
}

func (sn snapshot) jungleAt(c engine.Cell) engine.Jungle {
	if t, ok := sn.top(c); ok {
		return t.Jungle
	}
	return engine.NoJungle
}

func (sn snapshot) workerAt(c engine.Cell) (engine.TileView, bool) {
	t, ok := sn.top(c)
	return t, ok && t.Jungle == engine.NoJungle
}

// frontier is the brute-force list of cells where a normal placement may go:
// empty cells next to a jungle tile.
func (sn snapshot) frontier() map[engine.Cell]bool {
	out := map[engine.Cell]bool{}
	for c, st := range sn.stacks {
		if st[0].Jungle == engine.NoJungle {
			continue
		}
		for _, d := range allSides {
			if nb := c.Step(d); len(sn.stacks[nb]) == 0 {
				out[nb] = true
			}
		}
	}
	return out
}

// needy lists the empty jungle cells that a normal placement at p must fill
// (the rules' "Step 2: fill jungle spaces"): next to p and touching two worker tiles, the new one included.
func (sn snapshot) needy(p engine.Cell) map[engine.Cell]bool {
	out := map[engine.Cell]bool{}
	for _, d := range allSides {
		q := p.Step(d)
		if len(sn.stacks[q]) != 0 {
			continue
		}
		workers := 1
		for _, e := range allSides {
			if nb := q.Step(e); nb != p {
				if _, ok := sn.workerAt(nb); ok {
					workers++
				}
			}
		}
		if workers >= 2 {
			out[q] = true
		}
	}
	return out
}

// gameChecker follows one game and checks the invariants after every turn.
type gameChecker struct {
	tb    testing.TB
	s     *engine.State
	n     int
	label string
	turns int

	gen   map[engine.Cell]int // times each cell has been overbuilt
	fired map[edgeKey]int     // every edge that fired, with its turn

	board   snapshot        // the board after the last turn
	before  snapshot        // display and pile just before the move
	village []engine.Player // villages just before the move
	last    []engine.Player // villages after the last turn
}

func newGameChecker(tb testing.TB, s *engine.State, label string) *gameChecker {
	tb.Helper()
	c := &gameChecker{tb: tb, s: s, n: s.Players(), label: label, gen: map[engine.Cell]int{}, fired: map[edgeKey]int{}}
	if want := ruleTurns[c.n]; s.TotalTurns() != want {
		c.fatalf("TotalTurns() = %d; want %d", s.TotalTurns(), want)
	}
	v := s.View(engine.Spectator)
	c.board = snap(v)
	if len(v.Tiles) != 2 || c.board.jungleAt(engine.Cell{X: 0, Y: 0}) != engine.P1 || c.board.jungleAt(engine.Cell{X: 1, Y: 1}) != engine.M2 {
		c.fatalf("the opening board is %+v; want P1 at [0,0] and M2 at [1,1]", v.Tiles)
	}
	if len(v.Display) != 2 || v.JunglePile != ruleJungleTotal(c.n)-4 {
		c.fatalf("opening display %v and pile %d; want 2 tiles and %d", v.Display, v.JunglePile, ruleJungleTotal(c.n)-4)
	}
	for i := 0; i < c.n; i++ {
		p := s.Player(i)
		if p.HandSize() != 3 || p.PileSize() != ruleWorkerTotal(c.n)-3 || p.Gold != 0 || p.Fruit != 0 || p.Sun != 0 || p.Water != 0 {
			c.fatalf("seat %d starts with %+v", i, *p)
		}
	}
	c.checkPosition(v, c.board)
	c.last = c.villages()
	return c
}

func (c *gameChecker) fatalf(format string, args ...any) {
	c.tb.Helper()
	c.tb.Fatalf("%s, after %d turn(s): %s", c.label, c.turns, fmt.Sprintf(format, args...))
}

func (c *gameChecker) villages() []engine.Player {
	out := make([]engine.Player, c.n)
	for i := range out {
		out[i] = *c.s.Player(i)
	}
	return out
}

// watched wraps a bot so the checker sees the position right before each
// move (after the mover's queue is drained).
type watched struct {
	bot.Bot
	c *gameChecker
}

func (w watched) Move(s *engine.State, r *engine.Rand) (engine.Move, error) {
	w.c.beforeMove()
	return w.Bot.Move(s, r)
}

// beforeMove checks what may change between turns (queued batches resolved)
// and records the villages, display and pile the move starts from.
func (c *gameChecker) beforeMove() {
	c.tb.Helper()
	s := c.s
	c.village = c.villages()
	for i, p := range c.village {
		l := c.last[i]
		// Between turns only batches resolve: nothing is paid, nothing lost.
		if p.Gold < l.Gold || p.Water < l.Water || p.Sun < l.Sun {
			c.fatalf("seat %d lost gold, water or sun between turns: %+v -> %+v", i, l, p)
		}
		c.checkCaps(i, p)
	}
	if len(s.Player(s.Current()).Queue()) != 0 {
		c.fatalf("seat %d moves with a pending batch", s.Current())
	}
	c.before = snapshot{display: s.Display(), pile: s.JunglePile()}
	// Perft at depth 1: the legal placements are every frontier cell and
	// every overbuild target, times the distinct rotations of the hand.
	p := s.Player(s.Current())
	rots := 0
	for w, k := range p.Hand {
		if k > 0 {
			rots += distinctRotations(engine.Worker(w))
		}
	}
	targets := 0
	if len(c.before.display) == 0 && c.before.pile == 0 && p.Sun > 0 {
		for _, st := range c.board.stacks {
			if len(st) == 1 && st[0].Jungle == engine.NoJungle && st[0].Owner == s.Current() {
				targets++
			}
		}
	}
	legal := s.LegalPlacements(nil)
	if want := (len(c.board.front) + targets) * rots; len(legal) != want || want == 0 {
		c.fatalf("%d legal placements; want %d (%d cells, %d overbuild targets, %d tile rotations)",
			len(legal), want, len(c.board.front), targets, rots)
	}
}

func (c *gameChecker) checkCaps(seat int, p engine.Player) {
	c.tb.Helper()
	if p.Fruit < 0 || p.Fruit > 5 || p.Sun < 0 || p.Sun > 3 || p.Water < 0 || p.Water > 8 || p.Gold < 0 {
		c.fatalf("seat %d's village is out of bounds: gold %d fruit %d sun %d water field %d", seat, p.Gold, p.Fruit, p.Sun, p.Water)
	}
}

// afterTurn checks one committed turn and the position it leads to.
func (c *gameChecker) afterTurn(out engine.Outcome) {
	c.tb.Helper()
	s := c.s
	// The Outcome's slices live only until the state changes: copy them.
	pl := out.Placement
	fills := slices.Clone(out.Fills)
	acts := slices.Clone(out.Acts)
	var res []engine.Resolution
	for _, r := range out.Resolutions {
		r.Acts = slices.Clone(r.Acts)
		res = append(res, r)
	}
	seat := out.Seat
	if out.Turn != c.turns || seat != (s.First()+c.turns)%c.n {
		c.fatalf("outcome of turn %d for seat %d; want turn %d, seat %d", out.Turn, seat, c.turns, (s.First()+c.turns)%c.n)
	}
	c.turns++
	if s.Turns() != c.turns || s.Over() != (c.turns == ruleTurns[c.n]) || c.turns > ruleTurns[c.n] {
		c.fatalf("Turns() = %d, Over() = %v", s.Turns(), s.Over())
	}
	prev := c.board
	v := s.View(engine.Spectator)
	cur := snap(v)

	// The placement was legal on the board before it.
	p := pl.At
	if (p.X+p.Y)&1 == 0 {
		c.fatalf("a worker tile went on jungle cell %v", p)
	}
	if pl.Overbuild {
		old, ok := prev.workerAt(p)
		if !ok || len(prev.stacks[p]) != 1 || old.Owner != seat {
			c.fatalf("seat %d overbuilt %v, holding %+v", seat, p, prev.stacks[p])
		}
		if len(c.before.display) != 0 || c.before.pile != 0 || c.village[seat].Sun == 0 {
			c.fatalf("seat %d overbuilt with display %v, pile %d, sun %d", seat, c.before.display, c.before.pile, c.village[seat].Sun)
		}
		c.gen[p]++
	} else if !prev.front[p] {
		c.fatalf("seat %d placed on %v, which is not an empty cell next to a jungle tile", seat, p)
	}
	if c.village[seat].Hand[pl.Tile] == 0 {
		c.fatalf("seat %d played %v, not in hand %v", seat, pl.Tile, c.village[seat].Hand)
	}
	nt, ok := cur.workerAt(p)
	if !ok || nt.Owner != seat || nt.Worker != pl.Tile || nt.Rot != pl.Rot || nt.Covered ||
		nt.Edges != rotate(ruleWorkerEdges[pl.Tile], pl.Rot) {
		c.fatalf("after %+v the top of %v is %+v", pl, p, cur.stacks[p])
	}
	if pl.Overbuild {
		if st := cur.stacks[p]; len(st) != 2 || !st[0].Covered || st[0].Worker != prev.stacks[p][0].Worker ||
			st[0].Rot != prev.stacks[p][0].Rot || st[0].Owner != seat {
			c.fatalf("overbuilt stack at %v is %+v", p, st)
		}
	}

	// Fills: exactly the needy cells, or as many as tiles allow; display
	// tiles first, the pile only for a third cell.
	c.checkFills(pl, fills, prev, cur)

	// Edges that must fire: the new tile's towards jungle tiles, and older
	// tiles' towards the cells filled now. Never one with 0 workers.
	want := map[edgeKey]int{} // edge -> owner
	for _, d := range allSides {
		if nt.Edges[d] > 0 && cur.jungleAt(p.Step(d)) != engine.NoJungle {
			want[edgeKey{p, c.gen[p], d}] = seat
		}
	}
	for _, f := range fills {
		for _, d := range allSides {
			q := f.At.Step(d)
			if q == p {
				continue
			}
			if t, ok := cur.workerAt(q); ok && t.Edges[d.Opposite()] > 0 {
				want[edgeKey{q, c.gen[q], d.Opposite()}] = t.Owner
			}
		}
	}
	got := map[edgeKey]bool{}
	record := func(owner int, cell engine.Cell, side engine.Side, use int, how string) {
		k := edgeKey{cell, c.gen[cell], side}
		t, ok := cur.workerAt(cell)
		if !ok || t.Edges[side] == 0 {
			c.fatalf("%s: edge %v %v fired with no worker (%+v)", how, cell, side, cur.stacks[cell])
		}
		if t.Owner != owner {
			c.fatalf("%s: edge %v %v of seat %d resolved for seat %d", how, cell, side, t.Owner, owner)
		}
		if use != engine.AllWorkers && (use < 0 || use > t.Edges[side]) {
			c.fatalf("%s: edge %v %v uses %d of %d workers", how, cell, side, use, t.Edges[side])
		}
		if when, ok := c.fired[k]; ok {
			c.fatalf("%s: edge %v %v fired again (first on turn %d)", how, cell, side, when)
		}
		if got[k] {
			c.fatalf("%s: edge %v %v fired twice in one turn", how, cell, side)
		}
		if o, ok := want[k]; !ok || o != owner {
			c.fatalf("%s: edge %v %v fired, but it faces no new jungle tile", how, cell, side)
		}
		got[k] = true
	}
	for _, a := range acts {
		record(seat, a.Tile, a.Side, a.Use, "acts")
	}
	for _, r := range res {
		if r.Seat == seat {
			c.fatalf("the active seat %d has a resolution of turn %d", seat, r.Turn)
		}
		for _, a := range r.Acts {
			if r.Turn == out.Turn {
				record(r.Seat, a.Tile, a.Side, a.Use, "resolution")
				continue
			}
			// A batch of an earlier turn resolved now: it must have fired then.
			k := edgeKey{a.Tile, c.gen[a.Tile], a.Side}
			if when, ok := c.fired[k]; !ok || when != r.Turn {
				c.fatalf("resolution of turn %d names edge %v %v, which did not fire then", r.Turn, a.Tile, a.Side)
			}
		}
	}
	for k := 0; k < c.n; k++ {
		for _, b := range s.Player(k).Queue() {
			if b.Owner != k || k == seat {
				c.fatalf("seat %d queues a batch of seat %d (active seat %d)", k, b.Owner, seat)
			}
			if b.Turn != out.Turn {
				continue
			}
			for _, e := range b.Edges {
				if e.Owner != k || e.Jungle != cur.jungleAt(e.Tile.Step(e.Side)) {
					c.fatalf("queued edge %+v", e)
				}
				if t, _ := cur.workerAt(e.Tile); t.Edges[e.Side] != e.Workers {
					c.fatalf("queued edge %+v; the tile has %d workers there", e, t.Edges[e.Side])
				}
				record(k, e.Tile, e.Side, engine.AllWorkers, "queue")
			}
		}
	}
	if len(got) != len(want) {
		c.fatalf("%d edges fired; want %d: %v", len(got), len(want), want)
	}
	for k := range got {
		c.fired[k] = out.Turn
	}

	c.checkPosition(v, cur)
	c.board = cur
	c.last = c.villages()

	// Gains: resolving the turn's acts on the villages as the rules'
	// "Step 3: activate workers"
	// states them gives the villages after the turn. The overbuild's sun
	// token is paid first.
	exp := slices.Clone(c.village)
	if pl.Overbuild {
		exp[seat].Sun--
	}
	gain := func(k int, a engine.Act) {
		t, _ := cur.workerAt(a.Tile)
		u := a.Use
		if u == engine.AllWorkers {
			u = t.Edges[a.Side]
		}
		ruleGain(&exp[k], cur.jungleAt(a.Tile.Step(a.Side)), u)
	}
	for _, a := range acts {
		gain(seat, a)
	}
	for _, r := range res {
		for _, a := range r.Acts {
			gain(r.Seat, a)
		}
	}
	for i, e := range exp {
		l := c.last[i]
		if e.Gold != l.Gold || e.Fruit != l.Fruit || e.Sun != l.Sun || e.Water != l.Water {
			c.fatalf("seat %d's village is gold %d fruit %d sun %d water %d; the acts %v and resolutions %v give %d %d %d %d",
				i, l.Gold, l.Fruit, l.Sun, l.Water, acts, res, e.Gold, e.Fruit, e.Sun, e.Water)
		}
	}
	for i, pv := range c.last {
		if i != seat && (pv.Gold < c.village[i].Gold || pv.Sun < c.village[i].Sun || pv.Water < c.village[i].Water) {
			c.fatalf("seat %d lost gold, sun or water on seat %d's turn", i, seat)
		}
	}
	if pv := c.last[seat]; pv.Gold < c.village[seat].Gold || pv.Water < c.village[seat].Water {
		c.fatalf("seat %d lost gold or water on their own turn", seat)
	}
	if !pl.Overbuild && c.last[seat].Sun < c.village[seat].Sun {
		c.fatalf("seat %d lost a sun token without overbuilding", seat)
	}
}

// ruleGain applies u workers facing jungle tile j to village p (the rules' "Step 3: activate workers").
func ruleGain(p *engine.Player, j engine.Jungle, u int) {
	switch j {
	case engine.P1:
		p.Fruit = min(5, p.Fruit+u)
	case engine.P2:
		p.Fruit = min(5, p.Fruit+2*u)
	case engine.M2, engine.M3, engine.M4:
		price := map[engine.Jungle]int{engine.M2: 2, engine.M3: 3, engine.M4: 4}[j]
		sold := min(u, p.Fruit)
		p.Fruit -= sold
		p.Gold += price * sold
	case engine.G1:
		p.Gold += u
	case engine.G2:
		p.Gold += 2 * u
	case engine.WaterTile:
		p.Water = min(8, p.Water+u)
	case engine.Sun:
		p.Sun = min(3, p.Sun+u)
	}
}

func (c *gameChecker) checkFills(pl engine.Placement, fills []engine.Fill, prev, cur snapshot) {
	c.tb.Helper()
	needy := prev.needy(pl.At)
	if pl.Overbuild {
		if len(fills) != 0 {
			c.fatalf("an overbuild filled %v", fills)
		}
	} else {
		want := min(len(needy), len(c.before.display)+c.before.pile)
		if len(fills) != want || len(needy) > 3 {
			c.fatalf("%d fill(s) %v; want %d of the needy cells %v", len(fills), fills, want, needy)
		}
	}
	disp := slices.Clone(c.before.display)
	fromPile, seen := 0, map[engine.Cell]bool{}
	for _, f := range fills {
		if !needy[f.At] || seen[f.At] {
			c.fatalf("fill %+v is not a distinct needy cell", f)
		}
		seen[f.At] = true
		if st := cur.stacks[f.At]; len(st) != 1 || st[0].Jungle != f.Tile || f.Tile == engine.NoJungle {
			c.fatalf("fill %+v left %+v", f, st)
		}
		if f.FromPile {
			fromPile++
			continue
		}
		i := slices.Index(disp, f.Tile)
		if i < 0 {
			c.fatalf("fill %+v names a tile not in the display %v", f, c.before.display)
		}
		disp = slices.Delete(disp, i, i+1)
	}
	if fromPile > 0 && (len(disp) != 0 || fromPile > c.before.pile) {
		c.fatalf("fills %v take from the pile before the display (%v) is used up", fills, c.before.display)
	}
	// End of turn: the display keeps its order and is refilled from the pile.
	refill := min(2-len(disp), c.before.pile-fromPile)
	if len(cur.display) != len(disp)+refill || !slices.Equal(cur.display[:len(disp)], disp) || cur.pile != c.before.pile-fromPile-refill {
		c.fatalf("display %v pile %d -> fills %v -> display %v pile %d", c.before.display, c.before.pile, fills, cur.display, cur.pile)
	}
	jungle := func(sn snapshot) int {
		k := 0
		for _, st := range sn.stacks {
			if st[0].Jungle != engine.NoJungle {
				k++
			}
		}
		return k
	}
	if jungle(cur) != jungle(prev)+len(fills) {
		c.fatalf("%d jungle tiles on the board after %d fill(s); there were %d", jungle(cur), len(fills), jungle(prev))
	}
}

// checkPosition checks the position as the views show it: the chessboard,
// stacks, tile conservation, fired flags, caps, the frontier and what each
// viewer is shown.
func (c *gameChecker) checkPosition(v engine.View, sn snapshot) {
	c.tb.Helper()
	s := c.s
	var jungleOnBoard [16]int
	jungleTiles := 0
	workersOnBoard := make([]map[engine.Worker]int, c.n)
	for i := range workersOnBoard {
		workersOnBoard[i] = map[engine.Worker]int{}
	}
	for cell, st := range sn.stacks {
		if len(st) > 2 {
			c.fatalf("%d tiles stacked on %v", len(st), cell)
		}
		for i, t := range st {
			if covered := i < len(st)-1; t.Covered != covered {
				c.fatalf("tile %d of the stack on %v has Covered %v", i, cell, t.Covered)
			}
			gen := c.gen[cell] - (len(st) - 1 - i)
			if t.Jungle != engine.NoJungle {
				if (cell.X+cell.Y)&1 != 0 || len(st) != 1 || t.Owner != -1 || t.Edges != [4]int{} || t.Fired != [4]bool{} {
					c.fatalf("jungle tile %+v breaks the chessboard or is stacked", t)
				}
				if _, ok := ruleJungle[t.Jungle]; !ok {
					c.fatalf("unknown jungle tile %+v", t)
				}
				jungleOnBoard[t.Jungle]++
				jungleTiles++
				continue
			}
			if (cell.X+cell.Y)&1 != 1 {
				c.fatalf("worker tile %+v on a jungle cell", t)
			}
			if t.Owner < 0 || t.Owner >= c.n || t.Edges != rotate(ruleWorkerEdges[t.Worker], t.Rot) {
				c.fatalf("worker tile %+v", t)
			}
			if st[0].Owner != t.Owner || st[0].Jungle != engine.NoJungle {
				c.fatalf("stack on %v mixes owners or kinds: %+v", cell, st)
			}
			workersOnBoard[t.Owner][t.Worker]++
			for _, d := range allSides {
				_, fired := c.fired[edgeKey{cell, gen, d}]
				if t.Fired[d] != fired {
					c.fatalf("tile %+v: Fired[%v] = %v, but the edge fired: %v", t, d, t.Fired[d], fired)
				}
			}
		}
	}

	// Jungle tiles: board + display + pile = the set for the player count.
	if got, want := jungleTiles+len(v.Display)+v.JunglePile, ruleJungleTotal(c.n); got != want {
		c.fatalf("%d jungle tiles on board, %d in display, %d in pile; want %d in all", jungleTiles, len(v.Display), v.JunglePile, want)
	}
	for _, j := range v.Display {
		jungleOnBoard[j]++
	}
	for j := range ruleJungle {
		want := ruleJungleCount(j, c.n)
		if jungleOnBoard[j] > want || v.JunglePile == 0 && jungleOnBoard[j] != want {
			c.fatalf("%d %v tiles on board and display; the game has %d", jungleOnBoard[j], j, want)
		}
	}
	// Worker tiles: board (covered ones too) + hand + pile = each player's set.
	laid := 0
	for i := 0; i < c.n; i++ {
		p := s.Player(i)
		total := p.PileSize()
		for w, cnt := range rulePerPlayer {
			if workersOnBoard[i][w]+p.Hand[w] > cnt[c.n-2] || p.Hand[w] < 0 {
				c.fatalf("seat %d has %d %v on board and %d in hand; owns %d", i, workersOnBoard[i][w], w, p.Hand[w], cnt[c.n-2])
			}
			total += workersOnBoard[i][w] + p.Hand[w]
			laid += workersOnBoard[i][w]
		}
		if total != ruleWorkerTotal(c.n) || p.HandSize() > 3 {
			c.fatalf("seat %d: board + hand %d + pile %d = %d worker tiles; want %d", i, p.HandSize(), p.PileSize(), total, ruleWorkerTotal(c.n))
		}
		if p.HandSize() != min(3, ruleWorkerTotal(c.n)-workersOnBoard[i][engine.W1111]-workersOnBoard[i][engine.W2101]-workersOnBoard[i][engine.W3001]-workersOnBoard[i][engine.W3100]) {
			c.fatalf("seat %d holds %d tiles with %d left to draw", i, p.HandSize(), p.PileSize())
		}
		c.checkCaps(i, *p)
	}
	if laid != c.turns {
		c.fatalf("%d worker tiles on the board after %d turns", laid, c.turns)
	}

	// Ruling 30: while the game lasts there is a cell to play, and the
	// engine's frontier is the brute-force one.
	front := sn.front
	cells := s.LegalCells(nil)
	if len(cells) != len(front) {
		c.fatalf("LegalCells has %d cells; want %d", len(cells), len(front))
	}
	for _, cell := range cells {
		if !front[cell] {
			c.fatalf("LegalCells lists %v, not an empty cell next to a jungle tile", cell)
		}
	}
	if !s.Over() && len(front) == 0 {
		c.fatalf("no legal placement")
	}

	c.checkViews(v)
}

// checkViews checks what each viewer is shown: public facts alike for all,
// and the hand, queue and legal moves only for the viewer's own seat.
func (c *gameChecker) checkViews(spec engine.View) {
	c.tb.Helper()
	s := c.s
	if spec.Hand != nil || spec.Queue != nil || spec.Legal != nil || spec.CanOverbuild || spec.Viewer != engine.Spectator {
		c.fatalf("the spectator sees hand %v, queue %v, legal %d", spec.Hand, spec.Queue, len(spec.Legal))
	}
	check := func(v engine.View) {
		if len(v.Seats) != c.n || v.Players != c.n || v.Turns != c.turns || v.Over != s.Over() || v.Current != s.Current() ||
			len(v.Tiles) != len(spec.Tiles) || !slices.Equal(v.Display, spec.Display) || v.JunglePile != spec.JunglePile {
			c.fatalf("viewer %d sees a different game", v.Viewer)
		}
		for k, sv := range v.Seats {
			p := s.Player(k)
			if sv.Seat != k || sv.Gold != p.Gold || sv.Fruit != p.Fruit || sv.Sun != p.Sun || sv.WaterField != p.Water ||
				sv.Water != ruleWater[p.Water] || sv.Hand != p.HandSize() || sv.Pile != p.PileSize() || sv.Pending != len(p.Queue()) {
				c.fatalf("viewer %d sees seat %d as %+v; it is %+v", v.Viewer, k, sv, *p)
			}
		}
		for i, sc := range v.Result.Scores {
			if sc.Total != sc.Coins+sc.Temples+sc.Sun+sc.Water {
				c.fatalf("viewer %d: seat %d's total %+v", v.Viewer, i, sc)
			}
		}
	}
	check(spec)
	for i := 0; i < c.n; i++ {
		v := s.View(i)
		check(v)
		if v.Viewer != i {
			c.fatalf("View(%d).Viewer = %d", i, v.Viewer)
		}
		if want := s.Player(i).HandTiles(); !slices.Equal(v.Hand, want) {
			c.fatalf("seat %d sees hand %v; holds %v", i, v.Hand, want)
		}
		if len(v.Queue) != len(s.Player(i).Queue()) {
			c.fatalf("seat %d sees %d batches; has %d", i, len(v.Queue), len(s.Player(i).Queue()))
		}
		for _, b := range v.Queue {
			if b.Owner != i {
				c.fatalf("seat %d sees a batch of seat %d", i, b.Owner)
			}
		}
		// Legal placements name tiles of the current hand: only its owner sees them.
		if i != s.Current() || s.Over() {
			if len(v.Legal) != 0 || v.CanOverbuild {
				c.fatalf("seat %d sees %d legal placements of seat %d", i, len(v.Legal), s.Current())
			}
			continue
		}
		for _, pl := range v.Legal {
			if s.Player(i).Hand[pl.Tile] == 0 {
				c.fatalf("seat %d is offered %v, not in hand", i, pl.Tile)
			}
		}
	}
}

// ruleTemples computes each seat's temple awards from the board as the rules'
// "Temples" state them.
func ruleTemples(sn snapshot, n int) []int {
	award := make([]int, n)
	for cell, st := range sn.stacks {
		if st[0].Jungle != engine.TempleTile {
			continue
		}
		workers := make([]int, n)
		for _, d := range allSides {
			if t, ok := sn.workerAt(cell.Step(d)); ok {
				workers[t.Owner] += t.Edges[d.Opposite()]
			}
		}
		first, second := 0, 0
		for _, w := range workers {
			if w > first {
				first, second = w, first
			} else if w > second && w < first {
				second = w
			}
		}
		if first == 0 {
			continue
		}
		var tops, seconds []int
		for k, w := range workers {
			switch {
			case w == first:
				tops = append(tops, k)
			case w == second && w > 0:
				seconds = append(seconds, k)
			}
		}
		for _, k := range tops {
			award[k] += 6 / len(tops)
		}
		if len(tops) == 1 {
			for _, k := range seconds {
				award[k] += 3 / len(seconds)
			}
		}
	}
	return award
}

// finish checks the end of the game: its length, empty hands and piles,
// resolved queues, the totals and the winners.
func (c *gameChecker) finish() {
	c.tb.Helper()
	s := c.s
	if c.turns != ruleTurns[c.n] || s.Turns() != ruleTurns[c.n] || !s.Over() {
		c.fatalf("the game ended after %d turns (Turns() %d, Over() %v); want %d", c.turns, s.Turns(), s.Over(), ruleTurns[c.n])
	}
	if s.Pending() {
		c.fatalf("batches still pending after the game")
	}
	v := s.View(engine.Spectator)
	if !v.Over || !v.Final {
		c.fatalf("final view: Over %v, Final %v", v.Over, v.Final)
	}
	sn := snap(v)
	temples := ruleTemples(sn, c.n)
	r := s.Score()
	if len(r.Scores) != c.n {
		c.fatalf("%d scores", len(r.Scores))
	}
	best := -1
	for i, sc := range r.Scores {
		p := s.Player(i)
		if p.HandSize() != 0 || p.PileSize() != 0 || len(p.Queue()) != 0 {
			c.fatalf("seat %d ends with hand %d, pile %d, %d batches", i, p.HandSize(), p.PileSize(), len(p.Queue()))
		}
		if sc.Seat != i || sc.Coins != p.Gold || sc.Sun != p.Sun || sc.Water != ruleWater[p.Water] || sc.Fruit != p.Fruit ||
			sc.Temples != temples[i] || sc.Total != p.Gold+temples[i]+p.Sun+ruleWater[p.Water] {
			c.fatalf("seat %d scores %+v; village %+v, temples %d", i, sc, *p, temples[i])
		}
		if best < 0 || sc.Total > r.Scores[best].Total || sc.Total == r.Scores[best].Total && sc.Fruit > r.Scores[best].Fruit {
			best = i
		}
	}
	var winners []int
	for i, sc := range r.Scores {
		if sc.Total == r.Scores[best].Total && sc.Fruit == r.Scores[best].Fruit {
			winners = append(winners, i)
		}
	}
	if !slices.Equal(r.Winners, winners) {
		c.fatalf("winners %v; want %v (scores %+v)", r.Winners, winners, r.Scores)
	}
}

// playChecked plays one game of random legal moves for n players from seed
// and checks every invariant after every turn.
func playChecked(tb testing.TB, n int, seed uint64, greedy bool) {
	tb.Helper()
	su, err := engine.NewSetup(n, seed)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := engine.New(su, int(seed%uint64(n)))
	if err != nil {
		tb.Fatal(err)
	}
	c := newGameChecker(tb, s, fmt.Sprintf("%d players, seed %d", n, seed))
	bots := make([]bot.Bot, n)
	for i := range bots {
		var b bot.Bot = &bot.Random{}
		if greedy && i == 0 {
			b = bot.Greedy{}
		}
		bots[i] = watched{b, c}
	}
	if err := bot.Play(s, bots, engine.NewRand(seed^0x5eed), c.afterTurn); err != nil {
		c.fatalf("bot.Play: %v", err)
	}
	c.finish()
}

// TestRandomGamesShort plays random legal games for every player count and
// checks the invariants after every turn.
func TestRandomGamesShort(t *testing.T) {
	for n := 2; n <= 4; n++ {
		t.Run(fmt.Sprintf("players=%d", n), func(t *testing.T) {
			t.Parallel()
			for seed := uint64(0); seed < 300; seed++ {
				playChecked(t, n, seed, seed < 10)
			}
		})
	}
}

// FuzzRandomGame plays the random game chosen by seed for 2 + players%3
// players and checks the invariants after every turn.
func FuzzRandomGame(f *testing.F) {
	for _, tc := range []struct {
		seed    uint64
		players uint8
	}{{0, 0}, {1, 1}, {2, 2}, {42, 0}, {1 << 63, 1}, {^uint64(0), 2}, {12345, 3}} {
		f.Add(tc.seed, tc.players)
	}
	f.Fuzz(func(t *testing.T, seed uint64, players uint8) {
		playChecked(t, 2+int(players%3), seed, false)
	})
}

// randomActs lists a random subset of edges in a random order, each with a
// random use (sometimes AllWorkers); the edges left out resolve by default.
func randomActs(edges []engine.Edge, r *engine.Rand) []engine.Act {
	es := slices.Clone(edges)
	for i := len(es) - 1; i > 0; i-- {
		j := r.Intn(i + 1)
		es[i], es[j] = es[j], es[i]
	}
	var acts []engine.Act
	for _, e := range es[:r.Intn(len(es)+1)] {
		use := engine.AllWorkers
		if r.Intn(4) != 0 {
			use = r.Intn(e.Workers + 1)
		}
		acts = append(acts, engine.Act{Tile: e.Tile, Side: e.Side, Use: use})
	}
	return acts
}

// drainRandom empties seat's queue with random choices or the best-value one
// and returns how many batches it resolved.
func drainRandom(tb testing.TB, g *engine.Game, seat int, r *engine.Rand) int {
	tb.Helper()
	done := 0
	for q := g.State().Player(seat).Queue(); len(q) > 0; q = g.State().Player(seat).Queue() {
		var rs []engine.Resolution
		var err error
		if r.Intn(4) == 0 {
			rs, err = g.ResolveBest(seat)
		} else {
			rs, err = g.Resolve(seat, randomActs(q[0].Edges, r))
		}
		if err != nil {
			tb.Fatalf("resolve seat %d: %v", seat, err)
		}
		done += len(rs)
	}
	return done
}

// liveGame plays a random game as the site does: other players' batches join
// their queues (Reactions nil) and are resolved later, at random moments, with
// random choices; some seats let the engine decide for them. It stops after
// turns turns (or at the end) and then resolves everything still pending.
// It returns the game and how many batches were resolved after their turn.
func liveGame(tb testing.TB, n int, seed uint64, turns int) (*engine.Game, int) {
	tb.Helper()
	su, err := engine.NewSetup(n, seed)
	if err != nil {
		tb.Fatal(err)
	}
	g, err := engine.NewGame([]string{"ana", "bo", "cy", "di"}[:n], int(seed%uint64(n)), su)
	if err != nil {
		tb.Fatal(err)
	}
	s, r, rb := g.State(), engine.NewRand(seed^0x11fe), &bot.Random{}
	for k := 0; k < n; k++ {
		if r.Intn(5) == 0 {
			g.SetAutoDecide(k, true)
		}
	}
	late := 0
	for !s.Over() && s.Turns() < turns {
		seat := s.Current()
		for k := 0; k < n; k++ {
			if k == seat || r.Intn(3) == 0 {
				late += drainRandom(tb, g, k, r)
			}
		}
		m, err := rb.Move(s, r)
		if err != nil {
			tb.Fatalf("turn %d: %v", s.Turns(), err)
		}
		fired, err := s.Fired(m.Placement, m.Fills)
		if err != nil {
			tb.Fatalf("turn %d: Fired: %v", s.Turns(), err)
		}
		var own []engine.Edge
		for _, e := range fired {
			if e.Owner == seat {
				own = append(own, e)
			}
		}
		m.Acts = randomActs(own, r)
		if _, err := g.Play(seat, m); err != nil {
			tb.Fatalf("turn %d: %+v: %v", s.Turns(), m, err)
		}
	}
	for k := 0; k < n; k++ {
		late += drainRandom(tb, g, k, r)
	}
	return g, late
}

// sameResult reports how two positions differ in what the players see, or "".
func sameResult(a, b *engine.State) string {
	va, vb := a.View(engine.Spectator), b.View(engine.Spectator)
	switch {
	case a.Turns() != b.Turns():
		return fmt.Sprintf("turns %d vs %d", a.Turns(), b.Turns())
	case !reflect.DeepEqual(a.Score(), b.Score()):
		return fmt.Sprintf("scores %+v vs %+v", a.Score(), b.Score())
	case !reflect.DeepEqual(va.Seats, vb.Seats):
		return fmt.Sprintf("seats %+v vs %+v", va.Seats, vb.Seats)
	case !reflect.DeepEqual(va.Tiles, vb.Tiles) || !slices.Equal(va.Display, vb.Display) || va.JunglePile != vb.JunglePile:
		return "boards differ"
	}
	for i := 0; i < a.Players(); i++ {
		if !slices.Equal(a.Player(i).HandTiles(), b.Player(i).HandTiles()) {
			return fmt.Sprintf("seat %d's hand differs", i)
		}
	}
	return ""
}

// TestExportReplaysToSameResult: a live game's record, with reactions
// resolved turns later and attached to the turns that caused them, replays
// to the live game's position, directly and after Encode/DecodeRecord.
func TestExportReplaysToSameResult(t *testing.T) {
	late := 0
	for g := 0; g < 200; g++ {
		n, seed := 2+g%3, uint64(7000+g)
		turns := ruleTurns[n]
		if g%4 == 3 {
			turns = 1 + g%ruleTurns[n] // a game stopped early
		}
		game, l := liveGame(t, n, seed, turns)
		late += l
		live := game.State()
		rec := game.Record()
		direct, err := engine.Replay(rec)
		if err != nil {
			t.Fatalf("game %d (%d players, seed %d): replay: %v", g, n, seed, err)
		}
		if d := sameResult(live, direct); d != "" {
			t.Fatalf("game %d (%d players, seed %d): the record replays differently: %s", g, n, seed, d)
		}
		data, err := rec.Encode()
		if err != nil {
			t.Fatalf("game %d: encode: %v", g, err)
		}
		back, err := engine.DecodeRecord(data)
		if err != nil {
			t.Fatalf("game %d: the exported record does not decode: %v\n%s", g, err, data)
		}
		again, err := engine.Replay(back)
		if err != nil {
			t.Fatalf("game %d (%d players, seed %d): the exported record does not replay: %v\n%s", g, n, seed, err, data)
		}
		if d := sameResult(live, again); d != "" {
			t.Fatalf("game %d (%d players, seed %d): the exported record replays differently: %s\n%s", g, n, seed, d, data)
		}
		if live.Over() && !reflect.DeepEqual(live.Score().Winners, again.Score().Winners) {
			t.Fatalf("game %d: winners differ", g)
		}
	}
	// Batches resolved turns after they fired are what makes the record
	// differ from the order of play; without them the test proves little.
	if late < 200 {
		t.Fatalf("only %d batches were resolved after their turn", late)
	}
	t.Logf("%d batches resolved after their turn", late)
}

// noPanic turns a panic into a test failure (deferred), so that one
// crashing input does not abort every other test of the package.
func noPanic(t *testing.T) {
	t.Helper()
	if r := recover(); r != nil {
		t.Fatalf("panic: %v\n%s", r, debug.Stack())
	}
}

// badReaction is a 2-player record whose first turn is illegal only because
// of its reaction: seat 0's 1111 on [1,0] fires its own W (P1) and S (M2)
// edges, and the reaction names an edge of seat 1 that does not exist.
const badReaction = `{"format":"cacao-record/1","players":["a","b"],"setup":{
 "jungle":["P1","P1","P1","P2","P2","M2","M3","M3","M3","M4","G1","G2","W","W","S","T","T","T","T"],
 "workers":[["1111","1111","1111","1111","2101","2101","2101","2101","2101","3001","3100"],
            ["1111","1111","1111","1111","2101","2101","2101","2101","2101","3001","3100"]]},
 "turns":[{"p":0,"tile":"1111","at":[1,0],"reactions":{"1":[{"tile":[0,-1],"side":"S"}]}}]}`

// TestBadReactionIsATurnError: a reaction naming an edge that did not fire
// makes the turn illegal (exit 1 of cacao replay); it must be
// refused with a TurnError, never crash, also when the active player's own
// edges fired on that turn.
func TestBadReactionIsATurnError(t *testing.T) {
	defer noPanic(t)
	rec, err := engine.DecodeRecord([]byte(badReaction))
	if err != nil {
		t.Fatal(err)
	}
	s, err := engine.Replay(rec)
	var te *engine.TurnError
	if !errors.As(err, &te) || te.Turn != 0 || s == nil || s.Turns() != 0 {
		t.Fatalf("Replay = %v; want a TurnError at turn 0", err)
	}
}

// seedRecords returns a few exported records of live games, full and partial.
func seedRecords(tb testing.TB) [][]byte {
	var out [][]byte
	for i, tc := range []struct {
		n     int
		seed  uint64
		turns int
	}{{2, 1, 22}, {3, 2, 30}, {4, 3, 36}, {3, 4, 7}, {4, 5, 0}} {
		g, _ := liveGame(tb, tc.n, tc.seed, tc.turns)
		data, err := g.Record().Encode()
		if err != nil {
			tb.Fatalf("record %d: %v", i, err)
		}
		out = append(out, data)
	}
	return out
}

// FuzzDecodeRecord feeds arbitrary bytes to DecodeRecord and Replay: they
// never panic, errors are of the documented kinds, and a record that replays
// encodes to one that replays to the same position.
func FuzzDecodeRecord(f *testing.F) {
	for _, data := range seedRecords(f) {
		f.Add(data)
	}
	samples, _ := filepath.Glob("testdata/records/*.json")
	for _, name := range samples {
		if strings.HasSuffix(name, ".expected.json") {
			continue
		}
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{``, `null`, `{}`, `[]`, `{"format":"cacao-record/1"}`,
		`{"format":"cacao-record/1","players":["a","b"],"seed":3,"turns":[{"p":0,"tile":"1111","at":[1,0]}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer noPanic(t)
		rec, err := engine.DecodeRecord(data)
		var re *engine.RecordError
		var te *engine.TurnError
		switch {
		case err == nil:
			if rec == nil {
				t.Fatal("no error and no record")
			}
		case errors.As(err, &re):
			if rec != nil {
				t.Fatalf("not a record (%v), yet a record was returned", err)
			}
			return
		case errors.As(err, &te):
			if rec == nil || te.Turn != len(rec.Turns) {
				t.Fatalf("unreadable turn %d, but the record holds %v turns before it", te.Turn, rec)
			}
		default:
			t.Fatalf("DecodeRecord returned %T %v", err, err)
		}
		if n := len(rec.Players); n < 2 || n > 4 || len(rec.Setup.Workers) != n || rec.First < 0 || rec.First >= n {
			t.Fatalf("decoded a record with %d players, %d piles, first %d", n, len(rec.Setup.Workers), rec.First)
		}
		s, rerr := engine.Replay(rec)
		if rerr != nil {
			var rte *engine.TurnError
			if !errors.As(rerr, &rte) || s == nil || rte.Turn >= len(rec.Turns) || s.Turns() != rte.Turn {
				t.Fatalf("Replay: %T %v (state %v)", rerr, rerr, s != nil)
			}
			return
		}
		if err != nil {
			return // the turns before an unreadable one replay; nothing more to check
		}
		enc, err := rec.Encode()
		if err != nil {
			t.Fatalf("a playable record does not encode: %v", err)
		}
		back, err := engine.DecodeRecord(enc)
		if err != nil {
			t.Fatalf("the encoded record does not decode: %v\n%s", err, enc)
		}
		again, err := engine.Replay(back)
		if err != nil {
			t.Fatalf("the encoded record does not replay: %v\n%s", err, enc)
		}
		if d := sameResult(s, again); d != "" {
			t.Fatalf("the encoded record replays differently: %s\n%s", d, enc)
		}
	})
}
