package bot

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"cacao/engine"
)

var updateSearch = flag.Bool("update-search", false, "write testdata/search-300.txt again from the current search (only when its play is meant to change)")

// searchRecord is where TestSearchUnchanged keeps the current search's
// choices: a line a position (players, seed, turn), then the move's key,
// visits, iterations, the bits of Value and Won, and Solved.
const searchRecord = "testdata/search-300.txt"

// The current search plays as recorded: from the same seed, with 300
// iterations, it chooses the same moves with the same figures, bit for bit,
// in 42 positions of 2, 3 and 4 players, from the first turn to the last
// ones (one solved exactly). A change meant only to make it faster must
// keep this test passing without -update-search.
func TestSearchUnchanged(t *testing.T) {
	var got []string
	for i := 0; i < 42; i++ {
		n := 2 + i%3
		seed := uint64(100 + i)
		total := newGame(t, n, seed).TotalTurns()
		turns := (i/3*13 + n) % (total - 1)
		s := midGame(t, n, seed, turns)
		c, err := Search{Iterations: 300}.Think(s, engine.NewRand(seed))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%d %d %d %#x %d %d %x %x %v", n, seed, turns, keyOf(c.Move.Placement, c.Move.Fills),
			c.Visits, c.Iterations, math.Float64bits(c.Value), math.Float64bits(c.Won), c.Solved))
	}
	if *updateSearch {
		if err := os.WriteFile(searchRecord, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(searchRecord)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(want) != len(got) {
		t.Fatalf("%s holds %d positions, the test plays %d", searchRecord, len(want), len(got))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("position %d: got %s, recorded %s", i, got[i], want[i])
		}
	}
}
