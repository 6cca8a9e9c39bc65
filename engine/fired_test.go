package engine

import (
	"slices"
	"testing"
)

// AppendFired lists the same edges as Fired for every legal move (in its
// own order), and JungleAt shows the jungle tile each edge faces, in random
// games of 2–4 players.
func TestAppendFiredAgreesWithFired(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		n := 2 + int(seed%3)
		su, _ := NewSetup(n, seed)
		s, _ := New(su, 0)
		r := NewRand(seed)
		var buf []Edge
		for !s.Over() {
			legal := s.LegalPlacements(nil)
			for _, pl := range legal {
				opts := [][]Fill{nil}
				if !pl.Overbuild {
					if o := s.FillOptions(pl.At); len(o) > 0 {
						opts = o
					}
				}
				for _, fills := range opts {
					want, err := s.Fired(pl, fills)
					if err != nil {
						t.Fatalf("seed %d: a listed move %+v %v is illegal: %v", seed, pl, fills, err)
					}
					buf = s.AppendFired(pl, fills, buf[:0])
					got := slices.Clone(buf)
					sortEdges(got)
					if !slices.Equal(got, want) {
						t.Fatalf("seed %d: %+v %v fires %v, AppendFired says %v", seed, pl, fills, want, got)
					}
					for _, e := range got {
						if j := s.JungleAt(e.Tile.Step(e.Side)); j != e.Jungle && !slices.ContainsFunc(fills, func(f Fill) bool { return f.At == e.Tile.Step(e.Side) }) {
							t.Fatalf("seed %d: edge %+v faces %v on the board", seed, e, j)
						}
					}
				}
			}
			pl := legal[r.Intn(len(legal))]
			if _, err := s.Play(s.Current(), Move{Placement: pl, Reactions: map[int][]Act{}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if j := (&State{board: new(board)}).JungleAt(Cell{500, 0}); j != NoJungle {
		t.Fatalf("a cell off the grid holds %v", j)
	}
}
