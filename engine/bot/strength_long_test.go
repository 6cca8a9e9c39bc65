//go:build long

package bot

import "testing"

// TestLongHardBeatsGreedy: with a fixed 10,000 iterations a move (about a
// quarter of its second here, and the same on every machine), the
// hard bot wins at least three in four of 60 seat-balanced two-player
// games against the greedy (medium) bot. cmd/botmatch measures it at its
// full budget.
func TestLongHardBeatsGreedy(t *testing.T) {
	const games = 60
	wins := matchWins(t, Search{Iterations: 10000}, Greedy{}, games)
	t.Logf("hard won %d of %d games against greedy", wins, games)
	if wins*4 < games*3 {
		t.Fatalf("hard won %d of %d games; want at least three in four", wins, games)
	}
}

// TestLongEndgames: with nothing hidden and up to 4 turns left, the hard bot
// plays a best move in each of 240 two-player positions (60 for each number
// of turns left), checked against a plain exact solver (exact_test.go).
func TestLongEndgames(t *testing.T) {
	checkEndgames(t, endgames(t, 240, 4))
}
