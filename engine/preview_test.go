package engine

import (
	"reflect"
	"testing"
)

// TestPreviewMatchesCommit: for every legal opening move of a few games, the
// preview's gains are what committing the move gives, and the preview changes
// nothing.
func TestPreviewMatchesCommit(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		su, _ := NewSetup(3, seed)
		s, _ := New(su, 0)
		// Play a few turns so fills and older tiles are involved.
		r := NewRand(seed)
		for turn := 0; turn < 12; turn++ {
			seat := s.Current()
			legal := s.LegalPlacements(nil)
			for _, pl := range legal {
				for _, fills := range append(s.FillOptions(pl.At), nil) {
					if pl.Overbuild && fills != nil {
						continue
					}
					pileFill := false
					for _, f := range fills {
						pileFill = pileFill || f.FromPile
					}
					m := Move{Placement: pl, Fills: fills}
					before := s.Clone()
					pv, err := s.Preview(seat, m)
					if err != nil {
						t.Fatalf("preview %+v: %v", pl, err)
					}
					if !sameState(before, s) {
						t.Fatal("preview changed the state")
					}
					if pileFill {
						for _, f := range pv.Fills {
							if f.FromPile && f.Tile != NoJungle {
								t.Fatal("preview reveals the pile tile")
							}
						}
						continue
					}
					c := s.Clone()
					if _, err := c.Play(seat, Move{Placement: pl, Fills: fills, Reactions: map[int][]Act{}}); err != nil {
						t.Fatal(err)
					}
					for i, g := range pv.Gains {
						a, b := s.Player(i), c.Player(i)
						want := Gain{Seat: i, Gold: b.Gold - a.Gold, Fruit: b.Fruit - a.Fruit, Sun: b.Sun - a.Sun,
							WaterSteps: b.Water - a.Water, Water: b.WaterValue() - a.WaterValue()}
						if g != want {
							t.Fatalf("seed %d turn %d %+v: preview gain %+v; commit gives %+v", seed, turn, pl, g, want)
						}
					}
					// The gains split by tile add up to each seat's gain
					// (but for the sun an overbuild pays), each from a
					// jungle tile the move's workers face.
					sum := make([]Gain, len(pv.Gains))
					for i := range sum {
						sum[i].Seat = i
					}
					if pl.Overbuild {
						sum[seat].Sun--
					}
					for _, tg := range pv.Tiles {
						g, k := tg.Gain, &sum[tg.Gain.Seat]
						k.Gold, k.Fruit, k.Sun, k.WaterSteps, k.Water = k.Gold+g.Gold, k.Fruit+g.Fruit, k.Sun+g.Sun, k.WaterSteps+g.WaterSteps, k.Water+g.Water
						faced := false
						for _, e := range pv.Fired {
							faced = faced || e.Tile.Step(e.Side) == tg.At && e.Owner == g.Seat
						}
						if !faced {
							t.Fatalf("seed %d turn %d %+v: a gain from %v, which no fired edge of seat %d faces", seed, turn, pl, tg.At, g.Seat)
						}
					}
					if !reflect.DeepEqual(sum, pv.Gains) {
						t.Fatalf("seed %d turn %d %+v: tiles' gains add up to %+v, the move's are %+v", seed, turn, pl, sum, pv.Gains)
					}
					if !reflect.DeepEqual(pv.After, c.Score()) {
						t.Fatal("preview's standing differs from the committed one")
					}
				}
			}
			pl := legal[r.Intn(len(legal))]
			if _, err := s.Play(seat, Move{Placement: pl}); err != nil {
				t.Fatal(err)
			}
			for k := 0; k < s.Players(); k++ {
				for len(s.Player(k).Queue()) > 0 {
					if _, err := s.ResolveBest(k); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
}

// TestPreviewHidesPileTile: a three-cell fill takes the third tile from the
// pile; the preview names the cell but not the tile, and the edges facing it
// are listed with an unknown tile. Committing reveals it.
func TestPreviewHidesPileTile(t *testing.T) {
	// Seat 0 lays 1111 on (2,1), next to M2. Its empty neighbours (2,0),
	// (3,1) and (2,2) each touch one of seat 1's tiles on (1,0), (3,0), (1,2).
	p := newPos(t, 2, W1111).display(G1, G2).pile(TempleTile, P2)
	p.worker(Cell{1, 0}, 1, W1111, 0)
	p.jungle(Cell{4, 0}, P1).worker(Cell{3, 0}, 1, W1111, 0)
	p.worker(Cell{1, 2}, 1, W1111, 0)
	m := Move{Placement: Placement{Tile: W1111, At: Cell{2, 1}}}
	if got := p.s.FillCells(m.At, nil); !reflect.DeepEqual(got, []Cell{{2, 0}, {3, 1}, {2, 2}}) {
		t.Fatalf("fill cells %v", got)
	}
	pv, err := p.s.Preview(0, m)
	if err != nil {
		t.Fatal(err)
	}
	want := []Fill{{At: Cell{2, 0}, Tile: G1}, {At: Cell{3, 1}, Tile: G2}, {At: Cell{2, 2}, FromPile: true}}
	if !reflect.DeepEqual(pv.Fills, want) {
		t.Fatalf("preview fills %+v; want %+v", pv.Fills, want)
	}
	unknown := 0
	for _, e := range pv.Fired {
		if e.Tile.Step(e.Side) == (Cell{2, 2}) {
			if e.Jungle != NoJungle {
				t.Fatalf("edge facing the pile cell shows its tile: %+v", e)
			}
			unknown++
		}
	}
	if unknown != 2 { // seat 0's S edge and seat 1's E edge on (1,2)
		t.Fatalf("%d edges face the unknown tile; want 2 (%+v)", unknown, pv.Fired)
	}
	// Seat 0: G1 (N edge, 1 gold) + G2 (E edge, 2 gold) + M2 (W edge, no fruit).
	if g := pv.Gains[0]; g.Gold != 3 || g.Fruit != 0 {
		t.Fatalf("seat 0 gain %+v; want 3 gold", g)
	}
	out := p.play(0, m)
	if out.Fills[2].Tile != TempleTile || !out.Fills[2].FromPile {
		t.Fatalf("committed fills %+v: the pile's top (T) goes on (2,2)", out.Fills)
	}
	if p.s.Player(0).Gold != 3 {
		t.Fatalf("seat 0 has %d gold; want 3", p.s.Player(0).Gold)
	}
}

// TestPreviewerMatchesPreview: a Previewer gives, move after move on its one
// scratch copy, what Preview gives on a fresh copy each time (refusals
// too), sets its board back after each, and changes nothing.
func TestPreviewerMatchesPreview(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		n := 2 + int(seed%3)
		su, _ := NewSetup(n, seed)
		s, _ := New(su, 0)
		r := NewRand(seed)
		previews := 0
		for !s.Over() {
			seat := s.Current()
			legal := s.LegalPlacements(nil)
			before := s.Clone()
			p := s.Previewer()
			for _, pl := range legal {
				opts := append(s.FillOptions(pl.At), nil, []Fill{{At: pl.At}})
				for _, fills := range opts {
					var acts []Act
					if edges, err := s.Fired(pl, fills); err == nil {
						var mine []Edge
						for _, e := range edges {
							if e.Owner == seat && e.Jungle != NoJungle {
								mine = append(mine, e)
							}
						}
						acts = BestActs(*s.Player(seat), mine)
					}
					for _, who := range []int{seat, (seat + 1) % n, seat} {
						m := Move{Placement: pl, Fills: fills}
						if who == seat && previews%2 == 1 {
							m.Acts = acts // the acts a greedy bot would choose
						}
						want, werr := s.Preview(who, m)
						got, gerr := p.Preview(who, m)
						if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
							t.Fatalf("seed %d %+v by %d: Previewer says %v, Preview %v", seed, m, who, gerr, werr)
						}
						if !reflect.DeepEqual(got, want) {
							t.Fatalf("seed %d %+v by %d: Previewer gives %+v, Preview %+v", seed, m, who, got, want)
						}
						if p.board.cells != s.board.cells {
							t.Fatalf("seed %d %+v: the Previewer's board was not set back", seed, m)
						}
						previews++
					}
				}
			}
			p.Close()
			if !sameState(before, s) {
				t.Fatal("previews changed the state")
			}
			if _, err := s.Play(seat, Move{Placement: legal[r.Intn(len(legal))]}); err != nil {
				t.Fatal(err)
			}
			for k := 0; k < s.Players(); k++ {
				for len(s.Player(k).Queue()) > 0 {
					if _, err := s.ResolveBest(k); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		if previews < 1000 {
			t.Fatalf("seed %d: only %d previews", seed, previews)
		}
	}
}
