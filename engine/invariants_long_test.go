//go:build long

package engine_test

import (
	"fmt"
	"testing"
)

// longGames is the number of games per player count of TestLongRandomGames.
const longGames = 10_000

// TestLongRandomGames plays 10,000 random games per player count, in chunks
// that run in parallel so that both cores stay busy to the end.
func TestLongRandomGames(t *testing.T) {
	const chunk = 1000
	for n := 2; n <= 4; n++ {
		for from := uint64(1_000_000); from < 1_000_000+longGames; from += chunk {
			t.Run(fmt.Sprintf("players=%d,seeds=%d-%d", n, from, from+chunk-1), func(t *testing.T) {
				t.Parallel()
				for seed := from; seed < from+chunk; seed++ {
					playChecked(t, n, seed, false)
				}
			})
		}
	}
}
