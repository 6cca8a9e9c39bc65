package engine_test

import (
	"testing"

	"cacao/engine"
)

// TestRulesCannotBeChangedFromOutside: what the engine hands out about its
// tile tables are copies; writing to them leaves the legal moves as they were.
func TestRulesCannotBeChangedFromOutside(t *testing.T) {
	su, err := engine.NewSetup(2, 1)
	if err != nil {
		t.Fatal(err)
	}
	s, err := engine.New(su, 0)
	if err != nil {
		t.Fatal(err)
	}
	before := len(s.LegalPlacements(nil))

	for w := engine.Worker(0); int(w) < engine.NumWorkerKinds; w++ {
		r := w.Rotations()
		for i := range r {
			r[i] = 0
		}
		k := w.Kind()
		k.Edges = [4]uint8{}
		k.PerPlayer = [3]int{}
	}
	for j := engine.P1; j <= engine.TempleTile; j++ {
		k := j.Kind()
		k.Value, k.Count = 0, 0
	}

	if got := engine.W2101.Rotations(); len(got) != 4 || got[1] != 1 || got[3] != 3 {
		t.Fatalf("2101's rotations after a caller wrote to a copy: %v", got)
	}
	if e := engine.W3001.Edges(0); e != [4]uint8{3, 0, 0, 1} {
		t.Fatalf("3001's edges after a caller wrote to a copy: %v", e)
	}
	if after := len(s.LegalPlacements(nil)); after != before {
		t.Fatalf("%d legal placements after, %d before", after, before)
	}
	if n := len(engine.JungleSet(2)); n != 19 {
		t.Fatalf("%d jungle tiles for two players after a caller wrote to a copy, want 19", n)
	}
}
