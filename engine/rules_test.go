package engine

import (
	"errors"
	"reflect"
	"sort"
	"testing"
)

// Tests of the rules' fine points, one a ruling (TestRulingNN_..., each
// stating its ruling), and of the asynchronous play of other players'
// choices (TestAsync...). Positions are built with
// pos (helpers_test.go); the board is a chessboard: jungle tiles on cells with
// x+y even, worker tiles on x+y odd. The start tiles are P1 at [0,0] and M2 at
// [1,1].

// xy is a cell.
func xy(x, y int) Cell { return Cell{x, y} }

// wantVillage checks a seat's gold, fruit, sun and water field.
func wantVillage(t *testing.T, s *State, seat, gold, fruit, sun, water int) {
	t.Helper()
	p := s.Player(seat)
	got := [4]int{p.Gold, p.Fruit, p.Sun, p.Water}
	want := [4]int{gold, fruit, sun, water}
	if got != want {
		t.Errorf("seat %d gold/fruit/sun/water field = %v; want %v", seat, got, want)
	}
}

// jungleOn is the jungle tile lying on c (NoJungle for an empty cell or a worker tile).
func jungleOn(s *State, c Cell) Jungle {
	q := s.at(c)
	if q == nil || q.isWorker() {
		return NoJungle
	}
	return q.jungle
}

// wantDisplay checks the display (in order) and the jungle pile's size.
func wantDisplay(t *testing.T, s *State, pile int, display ...Jungle) {
	t.Helper()
	got := s.Display()
	if len(got) != len(display) || (len(got) > 0 && !reflect.DeepEqual(got, display)) {
		t.Errorf("display %v; want %v", got, display)
	}
	if s.JunglePile() != pile {
		t.Errorf("jungle pile %d; want %d", s.JunglePile(), pile)
	}
}

// wantActs checks an explicit list of acts.
func wantActs(t *testing.T, what string, got, want []Act) {
	t.Helper()
	if len(got) != len(want) || (len(got) > 0 && !reflect.DeepEqual(got, want)) {
		t.Errorf("%s %v; want %v", what, got, want)
	}
}

// firedSides reports which sides of the top worker tile on c have fired.
func firedSides(s *State, c Cell) [4]bool {
	var out [4]bool
	q := s.at(c)
	for d := 0; d < 4; d++ {
		out[d] = q.fired&(1<<d) != 0
	}
	return out
}

// sortedFills orders fills by cell for comparison.
func sortedFills(fs []Fill) []Fill {
	out := append([]Fill(nil), fs...)
	sort.Slice(out, func(i, j int) bool { return out[i].At.Less(out[j].At) })
	return out
}

// emptyPile empties seat's private worker pile (the hand stays).
func (p *pos) emptyPile(seat int) *pos {
	p.s.players[seat].pile = nil
	p.s.players[seat].ppos = 0
	return p
}

func overbuild(w Worker, rot, x, y int) Move {
	return Move{Placement: Placement{Tile: w, Rot: rot, At: Cell{x, y}, Overbuild: true}}
}

func TestRuling01_FourJungleNeighbours(t *testing.T) {
	// [1,0] touches G1 (N), water (E), M2 (S) and P1 (W).
	for _, tc := range []struct {
		name                      string
		tile                      Worker
		rot                       int
		acts                      []Act
		gold, fruit, water, fired int
	}{
		// P1 +1 fruit (3), G1 +1 gold, water +1, M2 sells 1 fruit for 2.
		{"1111", W1111, 0, []Act{{xy(1, 0), W, 1}, {xy(1, 0), N, 1}, {xy(1, 0), E, 1}, {xy(1, 0), S, 1}}, 3, 2, 1, 4},
		// 2101 turned once: N1 E2 S1 W0; the empty west edge faces P1 and does nothing.
		{"2101 rot 1", W2101, 1, []Act{{xy(1, 0), N, 1}, {xy(1, 0), E, 2}, {xy(1, 0), S, 1}}, 3, 1, 2, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPos(t, 2, tc.tile).display(G2, P2).pile(TempleTile, Sun).
				jungle(xy(1, -1), G1).jungle(xy(2, 0), WaterTile).village(0, 0, 2, 0, 0)
			out := p.play(0, place(tc.tile, tc.rot, 1, 0))
			if len(out.Fills) != 0 {
				t.Errorf("fills %v; want none", out.Fills)
			}
			wantActs(t, "acts", out.Acts, tc.acts)
			if len(out.Resolutions) != 0 {
				t.Errorf("resolutions %v; want none", out.Resolutions)
			}
			wantVillage(t, p.s, 0, tc.gold, tc.fruit, 0, tc.water)
			wantDisplay(t, p.s, 2, G2, P2)
			n := 0
			for _, f := range firedSides(p.s, xy(1, 0)) {
				if f {
					n++
				}
			}
			if n != tc.fired {
				t.Errorf("%d edges marked fired; want %d", n, tc.fired)
			}
		})
	}
}

func TestRuling02_WorkersFacingAway(t *testing.T) {
	// 3100 unturned: N3 E1 S0 W0 at [1,0]: the empty S and W edges face M2 and P1.
	p := newPos(t, 2, W3100).hand(1, W1111).display(G1, P2).pile(M3, TempleTile, Sun)
	out := p.play(0, place(W3100, 0, 1, 0))
	if len(out.Acts) != 0 || len(out.Fills) != 0 {
		t.Fatalf("acts %v fills %v; want none", out.Acts, out.Fills)
	}
	wantVillage(t, p.s, 0, 0, 0, 0, 0)
	wantDisplay(t, p.s, 3, G1, P2)
	if f := firedSides(p.s, xy(1, 0)); f != [4]bool{} {
		t.Fatalf("fired %v; want nothing", f)
	}
	// Later seat 1's tile at [0,-1] makes [1,-1] need a tile: the N edge (3
	// workers) of the older tile fires then, on seat 1's turn, for seat 0.
	out = p.play(1, Move{Placement: Placement{Tile: W1111, At: xy(0, -1)}, Fills: []Fill{{At: xy(1, -1), Tile: G1}}})
	if jungleOn(p.s, xy(1, -1)) != G1 {
		t.Fatalf("[1,-1] holds %v; want G1", jungleOn(p.s, xy(1, -1)))
	}
	wantVillage(t, p.s, 0, 3, 0, 0, 0)
	wantVillage(t, p.s, 1, 1, 1, 0, 0)
	want := []Resolution{{Seat: 0, Turn: 1, Acts: []Act{{xy(1, 0), N, 3}}}}
	if !reflect.DeepEqual(out.Resolutions, want) {
		t.Errorf("resolutions %+v; want %+v", out.Resolutions, want)
	}
	if f := firedSides(p.s, xy(1, 0)); f != [4]bool{N: true} {
		t.Errorf("fired %v; want only N", f)
	}
	wantDisplay(t, p.s, 2, P2, M3)
}

func TestRuling03_FillActivatesOpponent(t *testing.T) {
	// Seat 1's 2101 at [1,0] (N2 E1 S0 W1); seat 0 lays 1111 at [0,-1], which
	// makes [1,-1] (between the two tiles) need a tile.
	for _, tc := range []struct {
		name      string
		reactions map[int][]Act
		gold1     int
	}{
		{"default", nil, 4},
		{"seat 1 uses one worker", map[int][]Act{1: {{xy(1, 0), N, 1}}}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPos(t, 2, W1111).display(G2, P2).pile(M3, TempleTile).worker(xy(1, 0), 1, W2101, 0)
			out := p.play(0, Move{Placement: Placement{Tile: W1111, At: xy(0, -1)},
				Fills: []Fill{{At: xy(1, -1), Tile: G2}}, Reactions: tc.reactions})
			// Seat 0: P1 +1 fruit, G2 +2 gold; seat 1's N edge: G2 for its owner.
			wantVillage(t, p.s, 0, 2, 1, 0, 0)
			wantVillage(t, p.s, 1, tc.gold1, 0, 0, 0)
			wantActs(t, "acts", out.Acts, []Act{{xy(0, -1), S, 1}, {xy(0, -1), E, 1}})
			if len(out.Resolutions) != 1 || out.Resolutions[0].Seat != 1 || out.Resolutions[0].Turn != 0 {
				t.Fatalf("resolutions %+v; want one for seat 1", out.Resolutions)
			}
			wantDisplay(t, p.s, 1, P2, M3)
		})
	}
}

func TestRuling04_FillActivatesOwnOlderTile(t *testing.T) {
	// As ruling 3, but the older tile at [1,0] is seat 0's own.
	p := newPos(t, 2, W1111).display(G2, P2).pile(M3, TempleTile).worker(xy(1, 0), 0, W2101, 0)
	out := p.play(0, Move{Placement: Placement{Tile: W1111, At: xy(0, -1)}, Fills: []Fill{{At: xy(1, -1), Tile: G2}}})
	// P1 +1 fruit; G2: +2 from the new tile, +4 from the older tile's N edge.
	wantVillage(t, p.s, 0, 6, 1, 0, 0)
	wantVillage(t, p.s, 1, 0, 0, 0, 0)
	wantActs(t, "acts", out.Acts, []Act{{xy(0, -1), S, 1}, {xy(0, -1), E, 1}, {xy(1, 0), N, 2}})
	if len(out.Resolutions) != 0 {
		t.Errorf("resolutions %+v; want none", out.Resolutions)
	}
}

func TestRuling05_NewTileEdgeFiresOnce(t *testing.T) {
	// Seat 1's 2101 turned twice at [1,0] (N0 E1 S2 W1) makes [1,-1] need a
	// tile when seat 0 lays 3100 turned once (N0 E3 S1 W0) at [0,-1]. The new
	// E edge faces the cell filled this turn: 3 workers at G1, once.
	p := newPos(t, 2, W3100).display(G1, P2).pile(M3, TempleTile).worker(xy(1, 0), 1, W2101, 2)
	out := p.play(0, Move{Placement: Placement{Tile: W3100, Rot: 1, At: xy(0, -1)}, Fills: []Fill{{At: xy(1, -1), Tile: G1}}})
	wantVillage(t, p.s, 0, 3, 1, 0, 0)
	wantVillage(t, p.s, 1, 0, 0, 0, 0)
	wantActs(t, "acts", out.Acts, []Act{{xy(0, -1), S, 1}, {xy(0, -1), E, 3}})
	if len(out.Resolutions) != 0 {
		t.Errorf("resolutions %+v; want none", out.Resolutions)
	}
	if f := firedSides(p.s, xy(0, -1)); f != [4]bool{E: true, S: true} {
		t.Errorf("fired %v; want E and S", f)
	}
}

func TestRuling06_SellWithoutFruit(t *testing.T) {
	// 3100 turned once at [0,1]: N0 (P1) E3 (M2) S1 W0. No fruit: nothing sold.
	p := newPos(t, 2, W3100, W1111).hand(1, W1111).display(TempleTile, G1).pile(P2, Sun)
	out := p.play(0, Move{Placement: Placement{Tile: W3100, Rot: 1, At: xy(0, 1)}, Acts: []Act{{xy(0, 1), E, 3}}})
	wantActs(t, "acts", out.Acts, []Act{{xy(0, 1), E, 3}})
	wantVillage(t, p.s, 0, 0, 0, 0, 0)
	if f := firedSides(p.s, xy(0, 1)); f != [4]bool{E: true} {
		t.Fatalf("fired %v; want E (the workers are spent)", f)
	}
	// Seat 1 harvests and sells at [1,0] (no fill needed).
	p.play(1, place(W1111, 0, 1, 0))
	wantVillage(t, p.s, 1, 2, 0, 0, 0)
	// Seat 0 gains a fruit at [0,-1] (filling [1,-1] with the temple): the
	// spent market workers at [0,1] do not sell it.
	p.play(0, Move{Placement: Placement{Tile: W1111, At: xy(0, -1)}, Fills: []Fill{{At: xy(1, -1), Tile: TempleTile}}})
	wantVillage(t, p.s, 0, 0, 1, 0, 0)
	wantVillage(t, p.s, 1, 2, 0, 0, 0)
}

func TestRuling07_MoreMarketWorkersThanFruit(t *testing.T) {
	// 3001 turned three times at [2,1]: N0 E0 S1 W3, the 3 workers at M2.
	for _, tc := range []struct{ fruit, use, gold, left int }{
		{0, AllWorkers, 0, 0},
		{1, AllWorkers, 2, 0},
		{2, AllWorkers, 4, 0},
		{2, 3, 4, 0},
		{3, AllWorkers, 6, 0},
		{5, AllWorkers, 6, 2},
		{5, 2, 4, 3},
	} {
		p := newPos(t, 2, W3001).display(G1, P2).pile(TempleTile).village(0, 0, tc.fruit, 0, 0)
		out := p.play(0, Move{Placement: Placement{Tile: W3001, Rot: 3, At: xy(2, 1)}, Acts: []Act{{xy(2, 1), W, tc.use}}})
		wantVillage(t, p.s, 0, tc.gold, tc.left, 0, 0)
		use := tc.use
		if use == AllWorkers {
			use = 3
		}
		wantActs(t, "acts", out.Acts, []Act{{xy(2, 1), W, use}})
	}
}

func TestRuling08_HarvestBeyondFiveIsLost(t *testing.T) {
	// 2101 turned three times at [-1,0]: N1 E0 S1 W2; W faces a P2 at [-2,0].
	for _, tc := range []struct{ before, after int }{
		{3, 5}, // +4 with 2 free places: 2 lost
		{5, 5},
		{0, 4},
		{1, 5},
	} {
		p := newPos(t, 2, W2101).display(G1, M3).pile(TempleTile).jungle(xy(-2, 0), P2).village(0, 0, tc.before, 0, 0)
		out := p.play(0, place(W2101, 3, -1, 0))
		wantActs(t, "acts", out.Acts, []Act{{xy(-1, 0), W, 2}})
		wantVillage(t, p.s, 0, 0, tc.after, 0, 0)
	}
}

func TestRuling09_HarvestAndSellEitherOrder(t *testing.T) {
	// 1111 at [1,0]: W at P1 (harvest 1), S at M2 (sell 1 for 2).
	harvest, sell := Act{xy(1, 0), W, 1}, Act{xy(1, 0), S, 1}
	for _, tc := range []struct {
		name              string
		fruit             int
		acts              []Act
		wantGold, wantFru int
	}{
		{"harvest then sell, empty storage", 0, []Act{harvest, sell}, 2, 0},
		{"sell then harvest, empty storage", 0, []Act{sell, harvest}, 0, 1},
		{"harvest then sell, full storage", 5, []Act{harvest, sell}, 2, 4},
		{"sell then harvest, full storage", 5, []Act{sell, harvest}, 2, 5},
		{"default order harvests first", 5, nil, 2, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPos(t, 2, W1111).display(G1, P2).pile(TempleTile).village(0, 0, tc.fruit, 0, 0)
			out := p.play(0, Move{Placement: Placement{Tile: W1111, At: xy(1, 0)}, Acts: tc.acts})
			want := tc.acts
			if want == nil {
				want = []Act{harvest, sell}
			}
			wantActs(t, "acts", out.Acts, want)
			wantVillage(t, p.s, 0, tc.wantGold, tc.wantFru, 0, 0)
		})
	}
}

func TestRuling10_NoInterleavingOfEdges(t *testing.T) {
	// 2101 turned three times at [1,0]: N1 E0 S1 W2: W2 at P1, S1 at M2.
	p := newPos(t, 2, W2101).display(G1, P2).pile(TempleTile)
	m := Move{Placement: Placement{Tile: W2101, Rot: 3, At: xy(1, 0)}}
	m.Acts = []Act{{xy(1, 0), W, 1}, {xy(1, 0), S, 1}, {xy(1, 0), W, 1}}
	p.illegal(0, m, "the edge [1,0] W is listed twice")

	// Finishing the plantation edge with one worker, then selling: the
	// second plantation worker is lost.
	m.Acts = []Act{{xy(1, 0), W, 1}, {xy(1, 0), S, 1}}
	out := p.play(0, m)
	wantActs(t, "acts", out.Acts, m.Acts)
	wantVillage(t, p.s, 0, 2, 0, 0, 0)
}

func TestRuling11_UseSomeWorkers(t *testing.T) {
	// 3100 turned three times at [1,0]: N1 E0 S0 W3: 3 workers at P1.
	for use := 0; use <= 3; use++ {
		p := newPos(t, 2, W3100).display(G1, P2).pile(TempleTile)
		out := p.play(0, Move{Placement: Placement{Tile: W3100, Rot: 3, At: xy(1, 0)}, Acts: []Act{{xy(1, 0), W, use}}})
		wantActs(t, "acts", out.Acts, []Act{{xy(1, 0), W, use}})
		wantVillage(t, p.s, 0, 0, use, 0, 0)
		if f := firedSides(p.s, xy(1, 0)); !f[W] {
			t.Errorf("use %d: the edge is not spent", use)
		}
	}
}

func TestRuling12_WaterCapped(t *testing.T) {
	// 3100 turned once at [1,0]: E3 at water [2,0], S1 at M2 (no fruit).
	for _, tc := range []struct{ before, after, value int }{{7, 8, 16}, {8, 8, 16}, {5, 8, 16}, {4, 7, 11}, {0, 3, 0}} {
		p := newPos(t, 2, W3100).display(G1, P2).pile(TempleTile).jungle(xy(2, 0), WaterTile).village(0, 0, 0, 0, tc.before)
		p.play(0, place(W3100, 1, 1, 0))
		wantVillage(t, p.s, 0, 0, 0, 0, tc.after)
		if v := p.s.Player(0).WaterValue(); v != tc.value {
			t.Errorf("water value %d; want %d", v, tc.value)
		}
	}
}

func TestRuling13_SunCapped(t *testing.T) {
	// The E edge of the new tile at [1,0] faces a sun site at [2,0].
	for _, tc := range []struct {
		tile          Worker
		rot           int
		before, after int
	}{
		{W3100, 1, 2, 3}, // E3
		{W3100, 1, 3, 3},
		{W3100, 1, 0, 3},
		{W2101, 1, 2, 3}, // E2
		{W2101, 1, 0, 2},
		{W1111, 0, 3, 3},
	} {
		p := newPos(t, 2, tc.tile).display(G1, P2).pile(TempleTile).jungle(xy(2, 0), Sun).village(0, 0, 0, tc.before, 0)
		p.play(0, place(tc.tile, tc.rot, 1, 0))
		if got := p.s.Player(0).Sun; got != tc.after {
			t.Errorf("%v rot %d with %d sun: %d; want %d", tc.tile, tc.rot, tc.before, got, tc.after)
		}
	}
}

// twoCellPos: seat 1's 2101 turned twice (N0 E1 S2 W1) at [2,-1], touching a
// P1 at [3,-1]. Seat 0's tile at [1,0] then makes [1,-1] (facing the older
// tile's W) and [2,0] (facing its S) need tiles.
func twoCellPos(t *testing.T, hand ...Worker) *pos {
	return newPos(t, 2, hand...).jungle(xy(3, -1), P1).worker(xy(2, -1), 1, W2101, 2)
}

func TestRuling14_TwoCellsPlayerAssigns(t *testing.T) {
	// Seat 0 lays 3100 unturned at [1,0]: N3 faces [1,-1], E1 faces [2,0].
	for _, tc := range []struct {
		name        string
		fills       []Fill
		nw, e       Jungle // tiles on [1,-1] and [2,0]
		gold0, fru0 int
		gold1, fru1 int
	}{
		{"P2 north, G1 east", []Fill{{At: xy(1, -1), Tile: P2}, {At: xy(2, 0), Tile: G1}}, P2, G1, 1, 5, 2, 2},
		{"G1 north, P2 east (listed east first)", []Fill{{At: xy(2, 0), Tile: P2}, {At: xy(1, -1), Tile: G1}}, G1, P2, 3, 2, 1, 4},
		{"default: display order by (y,x)", nil, G1, P2, 3, 2, 1, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := twoCellPos(t, W3100).display(G1, P2).pile(M3, TempleTile, Sun)
			if cells := p.s.FillCells(xy(1, 0), nil); !reflect.DeepEqual(cells, []Cell{xy(1, -1), xy(2, 0)}) {
				t.Fatalf("cells to fill %v; want [1,-1] [2,0]", cells)
			}
			out := p.play(0, Move{Placement: Placement{Tile: W3100, At: xy(1, 0)}, Fills: tc.fills})
			if jungleOn(p.s, xy(1, -1)) != tc.nw || jungleOn(p.s, xy(2, 0)) != tc.e {
				t.Errorf("[1,-1] %v [2,0] %v; want %v %v", jungleOn(p.s, xy(1, -1)), jungleOn(p.s, xy(2, 0)), tc.nw, tc.e)
			}
			want := []Fill{{At: xy(1, -1), Tile: tc.nw}, {At: xy(2, 0), Tile: tc.e}}
			if got := sortedFills(out.Fills); !reflect.DeepEqual(got, want) {
				t.Errorf("outcome fills %v; want %v", got, want)
			}
			// N3 at P2 is +6 fruit, capped at 5.
			wantVillage(t, p.s, 0, tc.gold0, tc.fru0, 0, 0)
			wantVillage(t, p.s, 1, tc.gold1, tc.fru1, 0, 0)
			wantDisplay(t, p.s, 1, M3, TempleTile)
		})
	}
}

func TestRuling15_TwoCellsOneTile(t *testing.T) {
	for _, tc := range []struct {
		name         string
		fills        []Fill
		filled, left Cell
		gold0, gold1 int
	}{
		// [2,0]: seat 0's E1 and seat 1's S2 at G1.
		{"player picks [2,0]", []Fill{{At: xy(2, 0), Tile: G1}}, xy(2, 0), xy(1, -1), 1, 2},
		// [1,-1]: seat 0's N3 and seat 1's W1 at G1.
		{"default is the first by (y,x)", nil, xy(1, -1), xy(2, 0), 3, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := twoCellPos(t, W3100).display(G1).pile()
			out := p.play(0, Move{Placement: Placement{Tile: W3100, At: xy(1, 0)}, Fills: tc.fills})
			if jungleOn(p.s, tc.filled) != G1 || p.s.Occupied(tc.left) {
				t.Errorf("%v holds %v, %v occupied %v; want G1 and empty", tc.filled, jungleOn(p.s, tc.filled), tc.left, p.s.Occupied(tc.left))
			}
			if want := []Fill{{At: tc.filled, Tile: G1}}; !reflect.DeepEqual(out.Fills, want) {
				t.Errorf("outcome fills %v; want %v", out.Fills, want)
			}
			wantVillage(t, p.s, 0, tc.gold0, 0, 0, 0)
			wantVillage(t, p.s, 1, tc.gold1, 0, 0, 0)
			wantDisplay(t, p.s, 0)
		})
	}
	p := twoCellPos(t, W3100).display(G1).pile()
	p.illegal(0, Move{Placement: Placement{Tile: W3100, At: xy(1, 0)},
		Fills: []Fill{{At: xy(2, 0), Tile: G1}, {At: xy(1, -1), Tile: G1}}},
		"this placement fills 1 cell(s); the turn names 2")
}

// threeCellPos: seat 1's 1111 tiles at [3,0] and [3,2] (touching P1s at
// [4,0] and [4,2]). Seat 0's tile at [2,1] then makes [2,0], [3,1] and [2,2]
// need tiles.
func threeCellPos(t *testing.T, hand ...Worker) *pos {
	return newPos(t, 2, hand...).jungle(xy(4, 0), P1).jungle(xy(4, 2), P1).
		worker(xy(3, 0), 1, W1111, 0).worker(xy(3, 2), 1, W1111, 0)
}

func TestRuling16_ThreeCellsThirdFromPile(t *testing.T) {
	for _, tc := range []struct {
		name              string
		fills             []Fill
		n, e, s           Jungle // tiles on [2,0], [3,1], [2,2]
		gold0, fru0, sun0 int
		gold1, fru1, sun1 int
	}{
		// Seat 0's 1111 at [2,1]: N P2 +2 fruit, E S +1 sun, S G2 +2 gold,
		// W M2 sells 1. Seat 1: [3,0] W P2 and S S; [3,2] N S and W G2.
		{"player's assignment", []Fill{{At: xy(2, 2), Tile: G2}, {At: xy(3, 1), FromPile: true}, {At: xy(2, 0), Tile: P2}},
			P2, Sun, G2, 4, 1, 1, 2, 2, 2},
		// Default: [2,0] G2, [3,1] P2, [2,2] the pile's top (S).
		{"default", nil, G2, P2, Sun, 4, 1, 1, 2, 4, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := threeCellPos(t, W1111).display(G2, P2).pile(Sun, M3, TempleTile)
			out := p.play(0, Move{Placement: Placement{Tile: W1111, At: xy(2, 1)}, Fills: tc.fills})
			for _, c := range []struct {
				at   Cell
				want Jungle
			}{{xy(2, 0), tc.n}, {xy(3, 1), tc.e}, {xy(2, 2), tc.s}} {
				if got := jungleOn(p.s, c.at); got != c.want {
					t.Errorf("%v holds %v; want %v", c.at, got, c.want)
				}
			}
			// The outcome reveals the pile tile.
			var pileFill *Fill
			for i := range out.Fills {
				if out.Fills[i].FromPile {
					pileFill = &out.Fills[i]
				}
			}
			if len(out.Fills) != 3 || pileFill == nil || pileFill.Tile != Sun {
				t.Errorf("outcome fills %+v; want three, the pile one revealed as S", out.Fills)
			}
			wantVillage(t, p.s, 0, tc.gold0, tc.fru0, tc.sun0, 0)
			wantVillage(t, p.s, 1, tc.gold1, tc.fru1, tc.sun1, 0)
			wantDisplay(t, p.s, 0, M3, TempleTile)
		})
	}
}

func TestRuling17_ThreeCellsFewerTiles(t *testing.T) {
	t.Run("one tile left", func(t *testing.T) {
		p := threeCellPos(t, W1111).display(G2).pile()
		p.play(0, Move{Placement: Placement{Tile: W1111, At: xy(2, 1)}, Fills: []Fill{{At: xy(3, 1), Tile: G2}}})
		if jungleOn(p.s, xy(3, 1)) != G2 || p.s.Occupied(xy(2, 0)) || p.s.Occupied(xy(2, 2)) {
			t.Fatalf("want G2 on [3,1] only")
		}
		// Seat 0: E1 at G2; W at M2 sells nothing. Seat 1: [3,0] S and [3,2] N at G2.
		wantVillage(t, p.s, 0, 2, 0, 0, 0)
		wantVillage(t, p.s, 1, 4, 0, 0, 0)
		wantDisplay(t, p.s, 0)
	})
	t.Run("two tiles left", func(t *testing.T) {
		p := threeCellPos(t, W1111).display(G2, P2).pile()
		p.play(0, Move{Placement: Placement{Tile: W1111, At: xy(2, 1)}, Fills: []Fill{{At: xy(2, 2), Tile: P2}, {At: xy(2, 0), Tile: G2}}})
		if jungleOn(p.s, xy(2, 0)) != G2 || jungleOn(p.s, xy(2, 2)) != P2 || p.s.Occupied(xy(3, 1)) {
			t.Fatalf("want G2 on [2,0], P2 on [2,2], [3,1] empty")
		}
		// Seat 0: N G2 +2, S P2 +2 fruit, then M2 sells 1. Seat 1: [3,0] W G2, [3,2] W P2.
		wantVillage(t, p.s, 0, 4, 1, 0, 0)
		wantVillage(t, p.s, 1, 2, 2, 0, 0)
	})
	p := threeCellPos(t, W1111).display(G2).pile()
	p.illegal(0, Move{Placement: Placement{Tile: W1111, At: xy(2, 1)}, Fills: []Fill{}},
		"this placement fills 1 cell(s); the turn names 0")
}

func TestRuling18_DisplayRefilledAtEndOfTurn(t *testing.T) {
	// One cell ([1,-1], see ruling 3): the tile left in the display keeps its
	// place, the refill is appended.
	for _, tc := range []struct {
		use  Jungle
		want []Jungle
	}{{G1, []Jungle{P2, Sun}}, {P2, []Jungle{G1, Sun}}} {
		p := newPos(t, 2, W1111).display(G1, P2).pile(Sun, M3).worker(xy(1, 0), 1, W2101, 0)
		p.play(0, Move{Placement: Placement{Tile: W1111, At: xy(0, -1)}, Fills: []Fill{{At: xy(1, -1), Tile: tc.use}}})
		wantDisplay(t, p.s, 1, tc.want...)
	}
	// Two cells: the second cannot take the pile's top (it is not in the display yet).
	p := twoCellPos(t, W3100).display(G1, P2).pile(Sun, M3, TempleTile)
	p.illegal(0, Move{Placement: Placement{Tile: W3100, At: xy(1, 0)},
		Fills: []Fill{{At: xy(1, -1), Tile: G1}, {At: xy(2, 0), Tile: Sun}}}, "S is not in the display")
	p.play(0, Move{Placement: Placement{Tile: W3100, At: xy(1, 0)}, Fills: []Fill{{At: xy(1, -1), Tile: G1}, {At: xy(2, 0), Tile: P2}}})
	wantDisplay(t, p.s, 1, Sun, M3)
	// Three cells: the display tiles and then the pile's top, in that order.
	q := threeCellPos(t, W1111).display(G2, P2).pile(Sun, M3, TempleTile)
	q.illegal(0, Move{Placement: Placement{Tile: W1111, At: xy(2, 1)},
		Fills: []Fill{{At: xy(2, 0), Tile: G2}, {At: xy(3, 1), Tile: P2}, {At: xy(2, 2), Tile: Sun}}}, "S is not in the display")
}

// ownTilePos: seat 0's 2101 at [1,0], jungle pile and display empty.
func ownTilePos(t *testing.T, sun int) *pos {
	return newPos(t, 2, W1111, W3100).hand(1, W1111).worker(xy(1, 0), 0, W2101, 0).
		display().pile().village(0, 0, 0, sun, 0)
}

func TestRuling19_OverbuildNeedsEmptyDisplay(t *testing.T) {
	ownTilePos(t, 1).display(TempleTile).illegal(0, overbuild(W1111, 0, 1, 0), "overbuilding needs an empty display and pile")
	ownTilePos(t, 1).display(TempleTile, G1).pile(Sun).illegal(0, overbuild(W1111, 0, 1, 0), "overbuilding needs an empty display and pile")
	ownTilePos(t, 1).pile(Sun).illegal(0, overbuild(W1111, 0, 1, 0), "overbuilding needs an empty display and pile")
	p := ownTilePos(t, 1).display(TempleTile)
	if p.s.CanOverbuild() {
		t.Error("CanOverbuild with a tile in the display")
	}
	for _, pl := range p.s.LegalPlacements(nil) {
		if pl.Overbuild {
			t.Fatalf("legal placements offer %+v with a tile in the display", pl)
		}
	}
	// Both empty: legal.
	q := ownTilePos(t, 1)
	q.play(0, overbuild(W1111, 0, 1, 0))
	wantVillage(t, q.s, 0, 2, 0, 0, 0) // 1111: P1 +1 fruit, sold at M2
}

func TestRuling20_OverbuildNeedsSun(t *testing.T) {
	p := ownTilePos(t, 0)
	p.illegal(0, overbuild(W1111, 0, 1, 0), "overbuilding needs a sun token")
	if p.s.CanOverbuild() || len(p.s.OverbuildCells(nil)) != 0 {
		t.Error("overbuilding offered without a sun token")
	}
	q := ownTilePos(t, 1)
	if !q.s.CanOverbuild() || !reflect.DeepEqual(q.s.OverbuildCells(nil), []Cell{xy(1, 0)}) {
		t.Errorf("overbuild cells %v; want [1,0]", q.s.OverbuildCells(nil))
	}
}

func TestRuling21_OverbuildOwnSingleTileOnly(t *testing.T) {
	p := ownTilePos(t, 2).worker(xy(0, 1), 1, W1111, 0)
	p.illegal(0, overbuild(W1111, 0, 0, 1), "you can only overbuild your own tile")
	p.illegal(0, overbuild(W1111, 0, 0, 0), "there is no worker tile at [0,0] to overbuild")
	p.illegal(0, overbuild(W1111, 0, 2, 1), "there is no worker tile at [2,1] to overbuild")
	if cells := p.s.OverbuildCells(nil); !reflect.DeepEqual(cells, []Cell{xy(1, 0)}) {
		t.Errorf("overbuild cells %v; want [1,0] only", cells)
	}
	p.play(0, overbuild(W1111, 0, 1, 0))
	p.play(1, place(W1111, 0, 0, -1)) // nothing left to fill
	p.illegal(0, overbuild(W3100, 0, 1, 0), "that tile is already overbuilt")
	if cells := p.s.OverbuildCells(nil); len(cells) != 0 {
		t.Errorf("overbuild cells %v; want none", cells)
	}
	for _, pl := range p.s.LegalPlacements(nil) {
		if pl.Overbuild {
			t.Fatalf("legal placements offer %+v", pl)
		}
	}
}

func TestRuling22_OverbuildReplacesPlacement(t *testing.T) {
	p := ownTilePos(t, 1).emptyPile(0)
	before := p.s.View(Spectator)
	p.illegal(0, Move{Placement: overbuild(W1111, 0, 1, 0).Placement, Fills: []Fill{{At: xy(1, -1), Tile: G1}}}, "an overbuild fills no cells")
	out := p.play(0, overbuild(W1111, 0, 1, 0))
	if !out.Placement.Overbuild || len(out.Fills) != 0 {
		t.Errorf("outcome %+v; want an overbuild without fills", out)
	}
	after := p.s.View(Spectator)
	cells := func(v View) map[Cell]int {
		m := map[Cell]int{}
		for _, tv := range v.Tiles {
			m[tv.At]++
		}
		return m
	}
	b, a := cells(before), cells(after)
	if len(a) != len(b) || a[xy(1, 0)] != 2 {
		t.Errorf("occupied cells %d -> %d, [1,0] holds %d tiles; want the same cells and a stack of 2", len(b), len(a), a[xy(1, 0)])
	}
	if got := p.s.Player(0).HandTiles(); !reflect.DeepEqual(got, []Worker{W3100}) {
		t.Errorf("hand %v; want [3100]: one tile used", got)
	}
	if p.s.Current() != 1 || p.s.Turns() != 1 || p.s.Player(0).Sun != 0 {
		t.Errorf("current %d turns %d sun %d; want 1 1 0", p.s.Current(), p.s.Turns(), p.s.Player(0).Sun)
	}
	p.illegal(0, place(W3100, 0, 0, 1), "not this seat's turn")
}

func TestRuling23_OverbuiltTileLeavesTemple(t *testing.T) {
	// Temple at [2,0]: seat 0's 3100 turned once at [1,0] has E3 on it, seat
	// 1's 2101 turned three times at [3,0] has W2 on it.
	p := newPos(t, 2, W1111).hand(1, W1111).jungle(xy(2, 0), TempleTile).
		worker(xy(1, 0), 0, W3100, 1).worker(xy(3, 0), 1, W2101, 3).display().pile().village(0, 0, 0, 1, 0)
	r := p.s.Score()
	if len(r.Temples) != 1 || !reflect.DeepEqual(r.Temples[0].Workers, []int{3, 2}) || !reflect.DeepEqual(r.Temples[0].Award, []int{6, 3}) {
		t.Fatalf("before: temples %+v; want workers [3 2] award [6 3]", r.Temples)
	}
	p.play(0, overbuild(W1111, 0, 1, 0))
	r = p.s.Score()
	if len(r.Temples) != 1 || !reflect.DeepEqual(r.Temples[0].Workers, []int{1, 2}) || !reflect.DeepEqual(r.Temples[0].Award, []int{3, 6}) {
		t.Fatalf("after: temples %+v; want workers [1 2] award [3 6]", r.Temples)
	}
	if r.Scores[0].Temples != 3 || r.Scores[1].Temples != 6 {
		t.Errorf("temple scores %d %d; want 3 6", r.Scores[0].Temples, r.Scores[1].Temples)
	}
}

func TestRuling24_OverbuildFiresAgain(t *testing.T) {
	t.Run("edges that fired under it fire again", func(t *testing.T) {
		// Seat 0's 1111 at [1,0] fired at P1 and M2; 2101 turned three times
		// (N1 E0 S1 W2) on top: W2 at P1 +2 fruit, S1 at M2 sells 1.
		p := newPos(t, 2, W2101).worker(xy(1, 0), 0, W1111, 0).display().pile().village(0, 0, 0, 1, 0)
		out := p.play(0, overbuild(W2101, 3, 1, 0))
		wantActs(t, "acts", out.Acts, []Act{{xy(1, 0), W, 2}, {xy(1, 0), S, 1}})
		wantVillage(t, p.s, 0, 2, 1, 0, 0)
		if f := firedSides(p.s, xy(1, 0)); f != [4]bool{S: true, W: true} {
			t.Errorf("fired %v; want S and W", f)
		}
	})
	t.Run("sun paid before the edges resolve", func(t *testing.T) {
		// 3 sun, E3 at a sun site: pay 1 (2 left) then +3, capped: 3.
		p := newPos(t, 2, W3100).jungle(xy(2, 0), Sun).worker(xy(1, 0), 0, W1111, 0).display().pile().village(0, 0, 0, 3, 0)
		out := p.play(0, overbuild(W3100, 1, 1, 0))
		wantActs(t, "acts", out.Acts, []Act{{xy(1, 0), E, 3}, {xy(1, 0), S, 1}})
		wantVillage(t, p.s, 0, 0, 0, 3, 0)
	})
}

func TestRuling25_PlacementAfterJungleRunsOut(t *testing.T) {
	for _, fills := range [][]Fill{nil, {}} {
		p := twoCellPos(t, W3100).display().pile()
		out := p.play(0, Move{Placement: Placement{Tile: W3100, At: xy(1, 0)}, Fills: fills})
		if len(out.Fills) != 0 || p.s.Occupied(xy(1, -1)) || p.s.Occupied(xy(2, 0)) {
			t.Fatalf("fills %v; want [1,-1] and [2,0] left empty", out.Fills)
		}
		// Nothing faced: no gains, the N and E edges stay unfired.
		wantVillage(t, p.s, 0, 0, 0, 0, 0)
		wantVillage(t, p.s, 1, 0, 0, 0, 0)
		if f := firedSides(p.s, xy(1, 0)); f != [4]bool{} {
			t.Errorf("fired %v; want nothing", f)
		}
		if p.s.Turns() != 1 || p.s.Current() != 1 {
			t.Errorf("turn did not pass")
		}
	}
	p := twoCellPos(t, W3100).display().pile()
	p.illegal(0, Move{Placement: Placement{Tile: W3100, At: xy(1, 0)}, Fills: []Fill{{At: xy(1, -1), Tile: G1}}},
		"no jungle tiles are left to fill cells with")
}

func TestRuling26_TempleGivesNothing(t *testing.T) {
	// As ruling 3 with a temple filled on [1,-1]: seat 0's 3100 turned once
	// (E3 on the temple, S1 at P1), seat 1's N2 on the temple.
	p := newPos(t, 2, W3100).display(TempleTile, G1).pile(Sun).worker(xy(1, 0), 1, W2101, 0).village(1, 1, 1, 1, 1)
	out := p.play(0, Move{Placement: Placement{Tile: W3100, Rot: 1, At: xy(0, -1)}, Fills: []Fill{{At: xy(1, -1), Tile: TempleTile}}})
	wantActs(t, "acts", out.Acts, []Act{{xy(0, -1), S, 1}, {xy(0, -1), E, 3}})
	wantVillage(t, p.s, 0, 0, 1, 0, 0)
	wantVillage(t, p.s, 1, 1, 1, 1, 1)
	r := p.s.Score()
	if len(r.Temples) != 1 || !reflect.DeepEqual(r.Temples[0].Award, []int{6, 3}) {
		t.Errorf("temples %+v; want award [6 3] at the end", r.Temples)
	}
	// A new tile laid against an existing temple gains nothing either.
	q := newPos(t, 2, W3100).display(G1, P2).pile(Sun).jungle(xy(2, 0), TempleTile).village(0, 0, 0, 0, 0)
	q.play(0, place(W3100, 1, 1, 0)) // E3 on the temple, S1 at M2 (no fruit)
	wantVillage(t, q.s, 0, 0, 0, 0, 0)
}

func TestRuling27_NegativeWaterSubtracted(t *testing.T) {
	p := newPos(t, 3).village(0, 5, 0, 0, 0).village(1, 0, 0, 0, 1).village(2, 3, 0, 1, 2)
	r := p.s.Score()
	for i, want := range []struct{ water, total int }{{-10, -5}, {-4, -4}, {-1, 3}} {
		if r.Scores[i].Water != want.water || r.Scores[i].Total != want.total {
			t.Errorf("seat %d water %d total %d; want %d %d", i, r.Scores[i].Water, r.Scores[i].Total, want.water, want.total)
		}
	}
	if !reflect.DeepEqual(r.Winners, []int{2}) {
		t.Errorf("winners %v; want [2]", r.Winners)
	}
}

func TestRuling28_FruitScoresNothingButBreaksTies(t *testing.T) {
	p := newPos(t, 3).village(0, 10, 2, 0, 3).village(1, 10, 5, 0, 3).village(2, 9, 5, 1, 3)
	r := p.s.Score()
	for i, want := range []int{10, 10, 10} {
		if r.Scores[i].Total != want {
			t.Errorf("seat %d total %d; want %d (fruit scores nothing)", i, r.Scores[i].Total, want)
		}
	}
	if !reflect.DeepEqual(r.Winners, []int{1, 2}) {
		t.Errorf("winners %v; want [1 2] (most fruit, then shared)", r.Winners)
	}
}

func TestRuling29_EmptyWorkerPile(t *testing.T) {
	t.Run("position", func(t *testing.T) {
		p := newPos(t, 2, W1111, W2101).hand(1, W1111).emptyPile(0).display(G1, P2).pile(TempleTile)
		p.play(0, place(W1111, 0, 0, 1))
		if got := p.s.Player(0).HandTiles(); !reflect.DeepEqual(got, []Worker{W2101}) || p.s.Player(0).PileSize() != 0 {
			t.Fatalf("hand %v pile %d; want [2101] and 0", got, p.s.Player(0).PileSize())
		}
		p.emptyPile(1)
		p.play(1, place(W1111, 0, 1, 0))
		p.play(0, place(W2101, 0, -1, 0))
		if p.s.Player(0).HandSize() != 0 {
			t.Errorf("hand %v; want empty", p.s.Player(0).HandTiles())
		}
	})
	t.Run("whole game", func(t *testing.T) {
		for n := 2; n <= 4; n++ {
			su, _ := NewSetup(n, uint64(10+n))
			s, err := New(su, n-1)
			if err != nil {
				t.Fatal(err)
			}
			tiles := len(su.Workers[0])
			played := make([]int, n)
			for !s.Over() {
				seat := s.Current()
				pl := s.LegalPlacements(nil)
				if len(pl) == 0 {
					t.Fatalf("%d players, turn %d: no legal placement", n, s.Turns())
				}
				if _, err := s.Play(seat, Move{Placement: pl[len(pl)/2], Reactions: map[int][]Act{}}); err != nil {
					t.Fatalf("%d players, turn %d: %v", n, s.Turns(), err)
				}
				played[seat]++
				left := tiles - played[seat]
				p := s.Player(seat)
				if p.HandSize() != min(HandSize, left) || p.PileSize() != max(0, left-HandSize) {
					t.Fatalf("%d players, seat %d after %d tiles: hand %d pile %d; want %d %d",
						n, seat, played[seat], p.HandSize(), p.PileSize(), min(HandSize, left), max(0, left-HandSize))
				}
			}
			if s.Turns() != n*tiles {
				t.Errorf("%d players: %d turns; want %d", n, s.Turns(), n*tiles)
			}
		}
	})
}

func TestRuling30_AlwaysALegalPlacement(t *testing.T) {
	for n := 2; n <= 4; n++ {
		for seed := uint64(1); seed <= 25; seed++ {
			su, _ := NewSetup(n, seed)
			s, err := New(su, int(seed)%n)
			if err != nil {
				t.Fatal(err)
			}
			r := NewRand(seed * 7919)
			for !s.Over() {
				pls := s.LegalPlacements(nil)
				normal := 0
				for _, pl := range pls {
					if !pl.Overbuild {
						normal++
					}
				}
				if normal == 0 || len(s.LegalCells(nil)) == 0 {
					t.Fatalf("%d players seed %d turn %d: no normal placement", n, seed, s.Turns())
				}
				pl := pls[r.Intn(len(pls))]
				m := Move{Placement: pl, Reactions: map[int][]Act{}}
				if !pl.Overbuild {
					if opts := s.FillOptions(pl.At); len(opts) > 0 {
						m.Fills = opts[r.Intn(len(opts))]
					}
				}
				if _, err := s.Play(s.Current(), m); err != nil {
					t.Fatalf("%d players seed %d turn %d: legal placement %+v refused: %v", n, seed, s.Turns(), pl, err)
				}
			}
			if s.Turns() != s.TotalTurns() {
				t.Fatalf("game over after %d turns; want %d", s.Turns(), s.TotalTurns())
			}
		}
	}
	t.Run("no placement left is an error, not a panic", func(t *testing.T) {
		// Every worker cell around the start tiles is taken (not reachable in
		// play; the engine must still answer with an error).
		p := newPos(t, 2, W1111)
		for i, c := range []Cell{xy(0, -1), xy(1, 0), xy(-1, 0), xy(0, 1), xy(2, 1), xy(1, 2)} {
			p.worker(c, i%2, W1111, 0)
		}
		if pls := p.s.LegalPlacements(nil); len(pls) != 0 {
			t.Fatalf("legal placements %v; want none", pls)
		}
		p.illegal(0, place(W1111, 0, 3, 0), "must touch a jungle tile")
		p.illegal(0, place(W1111, 0, 1, 0), "cell [1,0] is already occupied")
	})
}

// --- Section 7: asynchronous play ---

// asyncPos is a 3-player position: seat 2's 2101 at [1,0] (N2 E1 S0 W1) with
// 2 fruit. Seat 0 laying 1111 at [0,-1] fills [1,-1] (facing seat 2's N2);
// seat 1 laying 1111 at [2,1] fills [2,0] (facing seat 2's E1).
func asyncPos(t *testing.T) *pos {
	return newPos(t, 3, W1111).hand(1, W1111).hand(2, W1111).worker(xy(1, 0), 2, W2101, 0).
		display(M3, G2).pile(P1, TempleTile, Sun, G1).village(2, 0, 2, 0, 0)
}

func TestAsyncMarketBatchWaitsWhileOthersPlay(t *testing.T) {
	p := asyncPos(t)
	out, err := p.s.Play(0, Move{Placement: Placement{Tile: W1111, At: xy(0, -1)}, Fills: []Fill{{At: xy(1, -1), Tile: M3}}})
	if err != nil {
		t.Fatal(err)
	}
	// Seat 0: P1 +1 fruit then sells it at M3. Seat 2's market edge waits.
	wantVillage(t, p.s, 0, 3, 0, 0, 0)
	wantVillage(t, p.s, 2, 0, 2, 0, 0)
	if len(out.Resolutions) != 0 {
		t.Errorf("resolutions %+v; want none (seat 2 decides)", out.Resolutions)
	}
	q := p.s.Player(2).Queue()
	wantBatch := Batch{Turn: 0, Owner: 2, Edges: []Edge{{Tile: xy(1, 0), Side: N, Owner: 2, Workers: 2, Jungle: M3}}}
	if len(q) != 1 || !reflect.DeepEqual(q[0], wantBatch) || !p.s.Player(2).NeedsDecision(q[0]) {
		t.Fatalf("seat 2 queue %+v; want %+v needing a decision", q, wantBatch)
	}
	if v := p.s.View(Spectator); v.Seats[2].Pending != 1 || !v.Seats[2].NeedsDecision || !p.s.Pending() {
		t.Errorf("view seat 2 %+v; want one batch needing a decision", v.Seats[2])
	}

	// Seat 1 plays on meanwhile (live), but a record-style turn, which resolves
	// everything at once, is refused while seat 2 still has to choose.
	p.illegal(1, Move{Placement: Placement{Tile: W1111, At: xy(0, 1)}, Reactions: map[int][]Act{}}, "seat 2 still has earlier choices pending")
	if _, err := p.s.Play(1, place(W1111, 0, 0, 1)); err != nil {
		t.Fatalf("seat 1 blocked by seat 2's choice: %v", err)
	}
	wantVillage(t, p.s, 1, 2, 0, 0, 0) // P1 +1, sold at M2

	// Seat 2 must choose before placing.
	p.illegal(2, place(W1111, 0, -1, 0), "resolve your pending choices before placing a tile")
	if pls := p.s.LegalPlacements(nil); len(pls) != 0 {
		t.Errorf("legal placements offered to a seat with a pending choice: %d", len(pls))
	}
	rs, err := p.s.Resolve(2, []Act{{xy(1, 0), N, 1}})
	if err != nil {
		t.Fatal(err)
	}
	want := []Resolution{{Seat: 2, Turn: 0, Acts: []Act{{xy(1, 0), N, 1}}}}
	if !reflect.DeepEqual(rs, want) {
		t.Errorf("resolutions %+v; want %+v", rs, want)
	}
	wantVillage(t, p.s, 2, 3, 1, 0, 0)
	if len(p.s.Player(2).Queue()) != 0 || p.s.Pending() {
		t.Fatal("queue not empty after resolving")
	}
	if _, err := p.s.Play(2, place(W1111, 0, -1, 0)); err != nil {
		t.Fatalf("seat 2 cannot place after resolving: %v", err)
	}
}

func TestAsyncBatchWithoutChoiceResolvesAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fill  Jungle
		fruit int
		gold2 int
	}{
		{"gold mine", G2, 2, 4},
		{"market without fruit", M3, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := asyncPos(t).display(tc.fill, P2).village(2, 0, tc.fruit, 0, 0)
			out, err := p.s.Play(0, Move{Placement: Placement{Tile: W1111, At: xy(0, -1)}, Fills: []Fill{{At: xy(1, -1), Tile: tc.fill}}})
			if err != nil {
				t.Fatal(err)
			}
			want := []Resolution{{Seat: 2, Turn: 0, Acts: []Act{{xy(1, 0), N, 2}}}}
			if !reflect.DeepEqual(out.Resolutions, want) {
				t.Errorf("resolutions %+v; want %+v", out.Resolutions, want)
			}
			wantVillage(t, p.s, 2, tc.gold2, tc.fruit, 0, 0)
			if len(p.s.Player(2).Queue()) != 0 || p.s.Pending() {
				t.Error("batch left in the queue")
			}
		})
	}
}

func TestAsyncMarketAndPlantationNeedChoiceWithoutFruit(t *testing.T) {
	// Seat 1's 2101 turned twice at [2,-1]: W1 faces [1,-1], S2 faces [2,0].
	// Seat 0 fills them with P2 and M3: the order matters even with no fruit.
	p := twoCellPos(t, W3100).display(P2, M3).pile(Sun, G1)
	if _, err := p.s.Play(0, Move{Placement: Placement{Tile: W3100, At: xy(1, 0)}}); err != nil {
		t.Fatal(err)
	}
	q := p.s.Player(1).Queue()
	if len(q) != 1 || !p.s.Player(1).NeedsDecision(q[0]) {
		t.Fatalf("queue %+v; want one batch needing a decision", q)
	}
	// Selling first sells nothing; harvesting first sells 2.
	if _, err := p.s.Resolve(1, []Act{{xy(2, -1), S, 2}, {xy(2, -1), W, 1}}); err != nil {
		t.Fatal(err)
	}
	wantVillage(t, p.s, 1, 0, 2, 0, 0)
}

func TestAsyncQueueIsFIFO(t *testing.T) {
	p := asyncPos(t)
	if _, err := p.s.Play(0, Move{Placement: Placement{Tile: W1111, At: xy(0, -1)}, Fills: []Fill{{At: xy(1, -1), Tile: M3}}}); err != nil {
		t.Fatal(err)
	}
	// Seat 1 fills [2,0] with G2: seat 2's E1 fires. That batch needs no
	// choice but waits behind the market batch.
	out, err := p.s.Play(1, Move{Placement: Placement{Tile: W1111, At: xy(2, 1)}, Fills: []Fill{{At: xy(2, 0), Tile: G2}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Resolutions) != 0 {
		t.Errorf("resolutions %+v; want none", out.Resolutions)
	}
	wantVillage(t, p.s, 1, 2, 0, 0, 0)
	wantVillage(t, p.s, 2, 0, 2, 0, 0)
	q := p.s.Player(2).Queue()
	if len(q) != 2 || q[0].Turn != 0 || q[1].Turn != 1 || q[1].Edges[0].Jungle != G2 {
		t.Fatalf("queue %+v; want the turn 0 batch then the turn 1 batch", q)
	}
	// Resolve answers the head only.
	before := p.s.Clone()
	if _, err := p.s.Resolve(2, []Act{{xy(1, 0), E, 1}}); err == nil || err.Error() != "the edge [1,0] E is not one of this player's activated edges" {
		t.Fatalf("resolving the second batch first: %v", err)
	}
	if !sameState(before, p.s) {
		t.Fatal("refused resolution changed the state")
	}
	rs, err := p.s.Resolve(2, []Act{{xy(1, 0), N, 2}})
	if err != nil {
		t.Fatal(err)
	}
	want := []Resolution{
		{Seat: 2, Turn: 0, Acts: []Act{{xy(1, 0), N, 2}}},
		{Seat: 2, Turn: 1, Acts: []Act{{xy(1, 0), E, 1}}},
	}
	if !reflect.DeepEqual(rs, want) {
		t.Errorf("resolutions %+v; want %+v", rs, want)
	}
	wantVillage(t, p.s, 2, 8, 0, 0, 0) // 2 sold at 3, then G2
	if len(p.s.Player(2).Queue()) != 0 {
		t.Error("queue not empty")
	}
}

func TestAsyncBestValue(t *testing.T) {
	// Seat 1 (5 fruit) gets W1 at P2 and S2 at M3. Harvesting first loses
	// the harvest (5 stays 5), sells 2: gold 6, fruit 3. Selling first: gold
	// 6, fruit 5. Best value: most gold, then most fruit.
	best := []Act{{xy(2, -1), S, 2}, {xy(2, -1), W, 1}}
	start := func(t *testing.T) *pos {
		p := twoCellPos(t, W3100).display(P2, M3).pile(Sun, G1).village(1, 0, 5, 0, 0)
		return p
	}
	play := func(t *testing.T, p *pos) Outcome {
		t.Helper()
		out, err := p.s.Play(0, Move{Placement: Placement{Tile: W3100, At: xy(1, 0)}})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	t.Run("standing policy", func(t *testing.T) {
		p := start(t)
		if rs := p.s.SetAutoDecide(1, true); len(rs) != 0 {
			t.Fatalf("resolutions %v with nothing pending", rs)
		}
		out := play(t, p)
		want := []Resolution{{Seat: 1, Turn: 0, Acts: best}}
		if !reflect.DeepEqual(out.Resolutions, want) {
			t.Errorf("resolutions %+v; want %+v", out.Resolutions, want)
		}
		wantVillage(t, p.s, 1, 6, 5, 0, 0)
		if p.s.Pending() {
			t.Error("batch left pending")
		}
	})
	t.Run("policy set while pending", func(t *testing.T) {
		p := start(t)
		play(t, p)
		if len(p.s.Player(1).Queue()) != 1 {
			t.Fatal("no pending batch")
		}
		rs := p.s.SetAutoDecide(1, true)
		if want := []Resolution{{Seat: 1, Turn: 0, Acts: best}}; !reflect.DeepEqual(rs, want) {
			t.Errorf("resolutions %+v; want %+v", rs, want)
		}
		wantVillage(t, p.s, 1, 6, 5, 0, 0)
	})
	t.Run("ResolveBest", func(t *testing.T) {
		p := start(t)
		play(t, p)
		rs, err := p.s.ResolveBest(1)
		if err != nil {
			t.Fatal(err)
		}
		if want := []Resolution{{Seat: 1, Turn: 0, Acts: best}}; !reflect.DeepEqual(rs, want) {
			t.Errorf("resolutions %+v; want %+v", rs, want)
		}
		wantVillage(t, p.s, 1, 6, 5, 0, 0)
	})
	t.Run("policy off waits", func(t *testing.T) {
		p := start(t)
		p.s.SetAutoDecide(1, true)
		p.s.SetAutoDecide(1, false)
		play(t, p)
		wantVillage(t, p.s, 1, 0, 5, 0, 0)
		if len(p.s.Player(1).Queue()) != 1 {
			t.Error("batch resolved with the policy off")
		}
	})
}

// applyActs plays acts on a copy of p and returns the village.
func applyActs(p Player, edges []Edge, acts []Act) Player {
	for _, a := range acts {
		for _, e := range edges {
			if e.Tile == a.Tile && e.Side == a.Side {
				p.gain(e.Jungle, a.Use)
			}
		}
	}
	return p
}

func TestAsyncBestActs(t *testing.T) {
	a, b := xy(1, 0), xy(3, 0)
	for _, tc := range []struct {
		name         string
		fruit        int
		edges        []Edge
		gold, fruit2 int
		acts         []Act // nil: only the value is checked
	}{
		{"harvest then sell", 1, []Edge{{Tile: a, Side: W, Workers: 1, Jungle: P1}, {Tile: a, Side: S, Workers: 2, Jungle: M3}}, 6, 0,
			[]Act{{a, W, 1}, {a, S, 2}}},
		{"sell then harvest when full", 5, []Edge{{Tile: a, Side: W, Workers: 2, Jungle: P2}, {Tile: a, Side: S, Workers: 1, Jungle: M2}}, 2, 5,
			[]Act{{a, S, 1}, {a, W, 2}}},
		{"best market first", 2, []Edge{{Tile: a, Side: S, Workers: 2, Jungle: M2}, {Tile: b, Side: W, Workers: 1, Jungle: M4}}, 6, 0, nil},
		{"market without fruit", 0, []Edge{{Tile: a, Side: S, Workers: 2, Jungle: M3}}, 0, 0, nil},
		{"mines, water and sun use every worker", 0, []Edge{{Tile: a, Side: N, Workers: 2, Jungle: G2}, {Tile: a, Side: E, Workers: 1, Jungle: WaterTile},
			{Tile: b, Side: N, Workers: 3, Jungle: Sun}, {Tile: b, Side: S, Workers: 1, Jungle: TempleTile}}, 4, 0,
			[]Act{{a, N, 2}, {a, E, 1}, {b, N, 3}, {b, S, 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Player{Fruit: tc.fruit}
			acts := BestActs(p, tc.edges)
			if len(acts) != len(tc.edges) {
				t.Fatalf("acts %v; want one per edge", acts)
			}
			if tc.acts != nil && !reflect.DeepEqual(acts, tc.acts) {
				t.Errorf("acts %v; want %v", acts, tc.acts)
			}
			got := applyActs(p, tc.edges, acts)
			if got.Gold != tc.gold || got.Fruit != tc.fruit2 {
				t.Errorf("gold %d fruit %d; want %d %d", got.Gold, got.Fruit, tc.gold, tc.fruit2)
			}
		})
	}
}

func TestAsyncFinalScoringWaits(t *testing.T) {
	p := asyncPos(t)
	p.s.total = 1 // the next turn is the game's last
	if _, err := p.s.Play(0, Move{Placement: Placement{Tile: W1111, At: xy(0, -1)}, Fills: []Fill{{At: xy(1, -1), Tile: M3}}}); err != nil {
		t.Fatal(err)
	}
	v := p.s.View(Spectator)
	if !v.Over || v.Final {
		t.Fatalf("over %v final %v; want over, not final", v.Over, v.Final)
	}
	p.illegal(1, place(W1111, 0, 0, 1), "the game is over")
	if _, err := p.s.Resolve(2, nil); err != nil {
		t.Fatal(err)
	}
	if v := p.s.View(Spectator); !v.Final || v.Result.Scores[2].Coins != 6 {
		t.Errorf("final %v coins %d; want final with 6 coins for seat 2", v.Final, v.Result.Scores[2].Coins)
	}
}

func TestAsyncResolveErrors(t *testing.T) {
	p := asyncPos(t)
	for _, tc := range []struct {
		seat int
		want string
	}{{0, "you have no pending choice"}, {3, "no such seat"}, {-1, "no such seat"}} {
		if _, err := p.s.Resolve(tc.seat, nil); err == nil || err.Error() != tc.want || !errors.Is(err, ErrIllegal) {
			t.Errorf("Resolve(%d): %v; want %q", tc.seat, err, tc.want)
		}
		if _, err := p.s.ResolveBest(tc.seat); err == nil || err.Error() != "you have no pending choice" {
			t.Errorf("ResolveBest(%d): %v", tc.seat, err)
		}
	}
	if _, err := p.s.Play(0, Move{Placement: Placement{Tile: W1111, At: xy(0, -1)}, Fills: []Fill{{At: xy(1, -1), Tile: M3}}}); err != nil {
		t.Fatal(err)
	}
	before := p.s.Clone()
	for _, acts := range [][]Act{
		{{xy(1, 0), N, 3}},
		{{xy(1, 0), N, 1}, {xy(1, 0), N, 1}},
		{{xy(0, -1), E, 1}},
	} {
		if _, err := p.s.Resolve(2, acts); err == nil {
			t.Errorf("Resolve(2, %v) accepted", acts)
		}
		if !sameState(before, p.s) || len(p.s.Player(2).Queue()) != 1 {
			t.Fatalf("refused Resolve(2, %v) changed the state", acts)
		}
	}
}
