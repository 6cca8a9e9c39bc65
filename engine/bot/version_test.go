package bot

import (
	"testing"

	"cacao/engine"
)

// hard-v1 is the hard bot of before issue 40, unchanged: from the same seed
// it chooses the moves, with the figures, it chose then (recorded with
// Search{Iterations: 1500} before the current version was written).
func TestHardV1Unchanged(t *testing.T) {
	v1, ok := ByName("hard-v1")
	if !ok || v1.(Search).Version != 1 {
		t.Fatalf("ByName(hard-v1) = %v, %v", v1, ok)
	}
	for _, tc := range []struct {
		players, turns int
		seed           uint64
		key            uint64
		visits         int
		value          float64
	}{
		{2, 0, 1, 0x10102f, 87, 0.686868},
		{2, 9, 2, 0x550502d, 67, 0.703321},
		{2, 18, 3, 0xf7000, 197, 0.306066}, // nothing hidden: the current version solves it
		{3, 6, 4, 0x103040, 262, 0.370382},
		{4, 12, 5, 0x569d0afc0, 144, 0.367448},
	} {
		s := midGame(t, tc.players, tc.seed, tc.turns)
		c, err := Search{Iterations: 1500, Version: 1}.Think(s, engine.NewRand(tc.seed))
		if err != nil {
			t.Fatal(err)
		}
		if k := keyOf(c.Move.Placement, c.Move.Fills); k != tc.key || c.Visits != tc.visits || c.Value < tc.value-5e-7 || c.Value > tc.value+5e-7 {
			t.Errorf("%d players, turn %d: hard-v1 chose %#x (%d visits, value %.6f); before, %#x (%d, %.6f)",
				tc.players, tc.turns, k, c.Visits, c.Value, tc.key, tc.visits, tc.value)
		}
	}
}
