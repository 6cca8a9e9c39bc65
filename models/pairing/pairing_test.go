package pairing

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func ids(n int) []uint {
	out := make([]uint, n)
	for i := range out {
		out[i] = uint(10 + i)
	}
	return out
}

// TestSplit: tables of three or four seat everyone but at 1, 2 and 5
// players; tables of two leave one out of an odd count.
func TestSplit(t *testing.T) {
	for _, c := range []struct {
		n      int
		size   Size
		tables []int
		byes   int
	}{
		{2, Two, []int{2}, 0}, {5, Two, []int{2, 2}, 1}, {3, Multi, []int{3}, 0}, {4, Multi, []int{4}, 0},
		{5, Multi, []int{4}, 1}, {6, Multi, []int{3, 3}, 0}, {7, Multi, []int{4, 3}, 0}, {9, Multi, []int{3, 3, 3}, 0},
		{10, Multi, []int{4, 3, 3}, 0}, {13, Multi, []int{4, 3, 3, 3}, 0}, {16, Multi, []int{4, 4, 4, 4}, 0},
	} {
		tables, byes := Split(c.n, c.size)
		if !slices.Equal(tables, c.tables) || byes != c.byes {
			t.Errorf("Split(%d, %d) = %v, %d; want %v, %d", c.n, c.size, tables, byes, c.tables, c.byes)
		}
	}
}

// checkRound: every player of ids sits at exactly one table or has a bye,
// and the tables are the sizes Split says.
func checkRound(t *testing.T, all []uint, size Size, r Round) {
	t.Helper()
	seen := map[uint]int{}
	for _, id := range r.Byes {
		seen[id]++
	}
	var sizes []int
	for _, table := range r.Tables {
		sizes = append(sizes, len(table))
		for _, id := range table {
			seen[id]++
		}
	}
	for _, id := range all {
		if seen[id] != 1 {
			t.Fatalf("player %d is in the round %d times: %+v", id, seen[id], r)
		}
	}
	if len(seen) != len(all) {
		t.Fatalf("the round seats strangers: %+v", r)
	}
	slices.Sort(sizes)
	slices.Reverse(sizes)
	want, byes := Split(len(all), size)
	if !slices.Equal(sizes, want) || len(r.Byes) != byes {
		t.Fatalf("tables %v and %d byes; want %v and %d", sizes, len(r.Byes), want, byes)
	}
}

// checkFirsts: each player sat first within one of half their games.
func checkFirsts(t *testing.T, records []Record) {
	t.Helper()
	for _, r := range records {
		if d := 2*r.Firsts - r.Games; d < -2 || d > 2 {
			t.Fatalf("player %d sat first %d times in %d games", r.ID, r.Firsts, r.Games)
		}
	}
}

// checkByes: nobody has a second bye while another has none (or, at once,
// byes differ by at most one).
func checkByes(t *testing.T, records []Record) {
	t.Helper()
	least, most := records[0].Byes, records[0].Byes
	for _, r := range records {
		least, most = min(least, r.Byes), max(most, r.Byes)
	}
	if most-least > 1 {
		t.Fatalf("byes from %d to %d: %+v", least, most, records)
	}
}

// TestRoundRobinTwo: at tables of two every pair meets exactly once, in
// n−1 rounds (even n) or n rounds with a bye each (odd n); each player
// sits first in half their games, give or take one.
func TestRoundRobinTwo(t *testing.T) {
	for n := 2; n <= 16; n++ {
		all := ids(n)
		rounds := RoundRobin(all, Two)
		if len(rounds) != RoundRobinRounds(n, Two) || len(rounds) != n-1+n%2 {
			t.Fatalf("%d players: %d rounds", n, len(rounds))
		}
		records := make([]Record, n)
		for i, id := range all {
			records[i] = Record{ID: id}
		}
		for _, r := range rounds {
			checkRound(t, all, Two, r)
			Apply(records, r)
		}
		for _, r := range records {
			if r.Byes != n%2 {
				t.Fatalf("%d players: %d has %d byes", n, r.ID, r.Byes)
			}
			for _, other := range all {
				if other != r.ID && r.Met[other] != 1 {
					t.Fatalf("%d players: %d met %d %d times", n, r.ID, other, r.Met[other])
				}
			}
			if d := 2*r.Firsts - r.Games; d < -1 || d > 1 {
				t.Fatalf("%d players: %d sat first %d times in %d games", n, r.ID, r.Firsts, r.Games)
			}
		}
	}
}

// TestRoundRobinMulti: at tables of three or four every player is seated
// or sits out each round, the byes go round (each sits out once at 5),
// and meetings are spread: nobody meets another more than twice, and most
// pairs meet.
func TestRoundRobinMulti(t *testing.T) {
	for n := 3; n <= 16; n++ {
		all := ids(n)
		rounds := RoundRobin(all, Multi)
		if len(rounds) != RoundRobinRounds(n, Multi) || len(rounds) == 0 {
			t.Fatalf("%d players: %d rounds", n, len(rounds))
		}
		records := make([]Record, n)
		for i, id := range all {
			records[i] = Record{ID: id}
		}
		for _, r := range rounds {
			checkRound(t, all, Multi, r)
			Apply(records, r)
			checkByes(t, records)
		}
		never, pairs := 0, 0
		for _, r := range records {
			for _, other := range all {
				if other == r.ID {
					continue
				}
				pairs++
				if r.Met[other] == 0 {
					never++
				}
				if r.Met[other] > 2 && n > 5 {
					t.Fatalf("%d players: %d met %d %d times", n, r.ID, other, r.Met[other])
				}
			}
		}
		if never*4 > pairs {
			t.Fatalf("%d players: %d of %d pairs never met", n, never/2, pairs/2)
		}
	}
}

// matchable reports whether players but bye can be paired with no two who
// met.
func matchable(players []Record, used []bool) bool { return match(players, used, false) }

// match is matchable, also without two who would clash for the first seat
// when noClash.
func match(players []Record, used []bool, noClash bool) bool {
	p := slices.IndexFunc(used, func(u bool) bool { return !u })
	if p < 0 {
		return true
	}
	used[p] = true
	defer func() { used[p] = false }()
	for q := p + 1; q < len(players); q++ {
		if !used[q] && players[p].Met[players[q].ID] == 0 && !(noClash && clash(players[p], players[q])) {
			used[q] = true
			ok := match(players, used, noClash)
			used[q] = false
			if ok {
				return true
			}
		}
	}
	return false
}

// avoidable reports whether a round without a rematch exists, the bye
// going to one of those with the fewest byes.
func avoidable(players []Record) bool { return avoid(players, false) }

// avoid is avoidable, also without a clash for the first seat when
// noClash.
func avoid(players []Record, noClash bool) bool {
	used := make([]bool, len(players))
	if len(players)%2 == 0 {
		return match(players, used, noClash)
	}
	least := players[0].Byes
	for _, p := range players {
		least = min(least, p.Byes)
	}
	for i, p := range players {
		if p.Byes == least {
			used[i] = true
			ok := match(players, used, noClash)
			used[i] = false
			if ok {
				return true
			}
		}
	}
	return false
}

// standings orders records by points, best first (ties by id).
func standings(records []Record, points map[uint]float64) []Record {
	out := slices.Clone(records)
	slices.SortStableFunc(out, func(a, b Record) int {
		if points[a.ID] != points[b.ID] {
			if points[a.ID] > points[b.ID] {
				return -1
			}
			return 1
		}
		return int(a.ID) - int(b.ID)
	})
	return out
}

// TestSwissTwo plays Swiss tournaments of random results at tables of two:
// each round seats everyone once but the bye; no two players meet again
// while a round without a rematch exists; no second bye while someone has
// had none; each sits first within one of half their games while every
// round could be paired so (no two meet who sat first, or second, two
// games more than the other); and the
// leaders meet when they have not met (and may).
func TestSwissTwo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 2; n <= 14; n++ {
		for trial := range 20 {
			t.Run(fmt.Sprintf("%d-%d", n, trial), func(t *testing.T) {
				all := ids(n)
				records := make([]Record, n)
				for i, id := range all {
					records[i] = Record{ID: id, Met: map[uint]int{}}
				}
				points := map[uint]float64{}
				clean := true // every round so far could be paired without a rematch or a clash
				for round := 0; round < RoundRobinRounds(n, Two); round++ {
					ranked := standings(records, points)
					clean = clean && avoid(ranked, true)
					r := Swiss(ranked, Two)
					checkRound(t, all, Two, r)
					if avoidable(ranked) {
						for _, table := range r.Tables {
							if m := ranked[slices.IndexFunc(ranked, func(x Record) bool { return x.ID == table[0] })].Met[table[1]]; m > 0 {
								t.Fatalf("round %d: %d meets %d again though it was avoidable: %+v", round+1, table[0], table[1], r)
							}
						}
					}
					if n > 2 && ranked[0].Met[ranked[1].ID] == 0 && len(r.Byes) == 0 {
						top := r.Tables[slices.IndexFunc(r.Tables, func(tb []uint) bool { return slices.Contains(tb, ranked[0].ID) })]
						if !slices.Contains(top, ranked[1].ID) && !clash(ranked[0], ranked[1]) && avoidableWith(ranked, 0, 1) {
							t.Fatalf("round %d: the leaders %d and %d did not meet: %+v", round+1, ranked[0].ID, ranked[1].ID, r)
						}
					}
					Apply(records, r)
					checkByes(t, records)
					if clean {
						checkFirsts(t, records)
					}
					for _, table := range r.Tables {
						points[table[rng.IntN(2)]]++
					}
					for _, id := range r.Byes {
						points[id]++
					}
				}
			})
		}
	}
}

// avoidableWith reports whether the players of ranked but a and b can be
// paired without a rematch (a and b meeting).
func avoidableWith(ranked []Record, a, b int) bool {
	used := make([]bool, len(ranked))
	used[a], used[b] = true, true
	return matchable(ranked, used)
}

// TestSwissMulti plays Swiss tournaments of random places at tables of
// three or four: each round seats everyone once but the byes, the byes go
// round, and nobody meets another in every round of several when others
// were there to meet.
func TestSwissMulti(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 3; n <= 16; n++ {
		all := ids(n)
		records := make([]Record, n)
		for i, id := range all {
			records[i] = Record{ID: id, Met: map[uint]int{}}
		}
		points := map[uint]float64{}
		const rounds = 4
		for range rounds {
			r := Swiss(standings(records, points), Multi)
			checkRound(t, all, Multi, r)
			Apply(records, r)
			checkByes(t, records)
			for _, table := range r.Tables {
				for place, k := range rng.Perm(len(table)) {
					points[table[k]] += float64(len(table) - 1 - place)
				}
			}
		}
		if n < 9 {
			continue
		}
		for _, r := range records {
			for other, m := range r.Met {
				if m > 2 {
					t.Fatalf("%d players: %d met %d %d times in %d rounds", n, r.ID, other, m, rounds)
				}
			}
		}
	}
}
