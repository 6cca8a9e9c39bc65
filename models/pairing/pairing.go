package pairing

import (
	"cmp"
	"slices"
)

// Size is the size of a tournament's tables: Two, or Multi (three or
// four, as many of four as the count allows).
type Size int

// The sizes of tables.
const (
	Two   Size = 2
	Multi Size = 4
)

// Record is what a player did before the round to pair: how many byes they
// had, how many games they played and in how many of those they sat first,
// and how many times they met each other player (by id).
type Record struct {
	ID     uint
	Byes   int
	Games  int
	Firsts int
	Met    map[uint]int
}

// Round is one round's pairing: its tables, each listing its players in
// play order (the first moves first), and the players who sit out with a
// bye.
type Round struct {
	Tables [][]uint
	Byes   []uint
}

// Split is how n players sit at tables of size: the tables' sizes, largest
// first, and how many players get a bye.
func Split(n int, size Size) (tables []int, byes int) {
	if size == Two {
		for range n / 2 {
			tables = append(tables, 2)
		}
		return tables, n % 2
	}
	for fours := n / 4; fours >= 0; fours-- {
		if rest := n - 4*fours; rest%3 == 0 {
			for range fours {
				tables = append(tables, 4)
			}
			for range rest / 3 {
				tables = append(tables, 3)
			}
			return tables, 0
		}
	}
	// 1, 2 and 5: tables of four and the rest sit out.
	for range n / 4 {
		tables = append(tables, 4)
	}
	return tables, n % 4
}

// Swiss pairs a Swiss round of players, given best first (the standings'
// order), at tables of size; see the package's decisions.
func Swiss(players []Record, size Size) Round {
	tables, byes := Split(len(players), size)
	if size == Two {
		return swissTwo(players, byes)
	}
	return group(players, tables, byes)
}

// byeOrder is the order in which players of ranked take a bye: the fewest
// byes first, then the lowest-ranked.
func byeOrder(ranked []Record) []int {
	idx := make([]int, len(ranked))
	for i := range idx {
		idx[i] = len(ranked) - 1 - i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(ranked[a].Byes, ranked[b].Byes) })
	return idx
}

// searchSteps bounds the backtracking of one Swiss pairing at tables of
// two: at most 64 players are paired, and a history that forces a long
// search is one that leaves few pairings anyway.
const searchSteps = 200_000

// swissTwo pairs players at tables of two, with byes (0 or 1) byes.
func swissTwo(players []Record, byes int) Round {
	type try struct {
		pairs              [][2]int
		bye                int
		rematches, clashes int
	}
	var best *try
	candidates := []int{-1}
	if byes > 0 {
		candidates = byeOrder(players)
		// Only those with the fewest byes may take it.
		least := players[candidates[0]].Byes
		candidates = slices.DeleteFunc(candidates, func(i int) bool { return players[i].Byes > least })
	}
	for _, bye := range candidates {
		free := make([]int, 0, len(players))
		for i := range players {
			if i != bye {
				free = append(free, i)
			}
		}
		pairs, rematches, clashes := pairTwo(players, free)
		if best == nil || rematches < best.rematches || rematches == best.rematches && clashes < best.clashes {
			best = &try{pairs, bye, rematches, clashes}
		}
		if rematches+clashes == 0 {
			break
		}
	}
	var r Round
	if best.bye >= 0 {
		r.Byes = []uint{players[best.bye].ID}
	}
	for _, p := range best.pairs {
		r.Tables = append(r.Tables, seatOrder(players, []int{p[0], p[1]}))
	}
	return r
}

// pairTwo pairs free (indexes of players, an even count, in rank order)
// with the fewest rematches it finds, then the fewest clashes of seats
// (clash): it allows none, then one, and so on, each time the highest
// free player taking the highest partner the allowance lets them.
func pairTwo(players []Record, free []int) (pairs [][2]int, rematches, clashes int) {
	steps := 0
	for allowed := 0; ; allowed++ {
		for _, c := range []int{0, 1, 2, len(free)} {
			if pairs, ok := searchTwo(players, free, allowed, c, &steps); ok {
				return pairs, allowed, c
			}
		}
		if allowed > len(free) {
			// Beyond the bound of steps: pair in order.
			var pairs [][2]int
			n := 0
			for i := 0; i+1 < len(free); i += 2 {
				pairs = append(pairs, [2]int{free[i], free[i+1]})
				n += players[free[i]].Met[players[free[i+1]].ID]
			}
			return pairs, n, len(free)
		}
	}
}

// lean is how far a player leans to the first seat: 2×firsts − games.
func lean(r Record) int { return 2*r.Firsts - r.Games }

// clash reports whether p and q lean the same way by two or more: one of
// them would lean by three after their game.
func clash(p, q Record) bool {
	a, b := lean(p), lean(q)
	return a >= 2 && b >= 2 || a <= -2 && b <= -2
}

// searchTwo looks for a pairing of free with at most rematches rematches
// and clashes clashes, counting its steps in steps (past searchSteps it
// gives up).
func searchTwo(players []Record, free []int, rematches, clashes int, steps *int) ([][2]int, bool) {
	var pairs [][2]int
	used := make([]bool, len(players))
	var dfs func(left, clashLeft int) bool
	dfs = func(left, clashLeft int) bool {
		*steps++
		p := -1
		for _, i := range free {
			if !used[i] {
				p = i
				break
			}
		}
		if p < 0 {
			return true
		}
		if *steps > searchSteps {
			return false
		}
		used[p] = true
		for _, q := range free {
			if used[q] {
				continue
			}
			cost, c := players[p].Met[players[q].ID], 0
			if clash(players[p], players[q]) {
				c = 1
			}
			if cost > left || c > clashLeft {
				continue
			}
			used[q] = true
			pairs = append(pairs, [2]int{p, q})
			if dfs(left-cost, clashLeft-c) {
				return true
			}
			pairs = pairs[:len(pairs)-1]
			used[q] = false
		}
		used[p] = false
		return false
	}
	return pairs, dfs(rematches, clashes)
}

// group seats players (in rank order) at tables of the given sizes, byes
// of them sitting out: each table is opened by the highest free player and
// filled with those who met its players the fewest times, the nearest in
// rank first.
func group(players []Record, tables []int, byes int) Round {
	var r Round
	out := make([]bool, len(players))
	for _, i := range byeOrder(players)[:byes] {
		out[i] = true
		r.Byes = append(r.Byes, players[i].ID)
	}
	var tables2 [][]int
	for _, size := range tables {
		var table []int
		for i := range players {
			if !out[i] {
				table, out[i] = append(table, i), true
				break
			}
		}
		for len(table) < size {
			best, bestCost := -1, 0
			for i := range players {
				if out[i] {
					continue
				}
				cost := 0
				for _, j := range table {
					cost += players[i].Met[players[j].ID]
				}
				if best < 0 || cost < bestCost {
					best, bestCost = i, cost
				}
			}
			table, out[best] = append(table, best), true
		}
		tables2 = append(tables2, table)
	}
	improve(players, tables2)
	for _, table := range tables2 {
		r.Tables = append(r.Tables, seatOrder(players, table))
	}
	return r
}

// improve swaps players between tables (indexes of players) while a swap
// lowers their cost: repeated meetings first (squared, so that a third
// meeting weighs more than two second ones), then the spread of rank at
// each table.
func improve(players []Record, tables [][]int) {
	cost := func(table []int) int {
		c := 0
		for a := range table {
			for b := a + 1; b < len(table); b++ {
				m := players[table[a]].Met[players[table[b]].ID]
				c += 1000*m*m + abs(table[a]-table[b])
			}
		}
		return c
	}
	for pass := 0; pass < 50; pass++ {
		better := false
		for x := range tables {
			for y := x + 1; y < len(tables); y++ {
				for i := range tables[x] {
					for j := range tables[y] {
						before := cost(tables[x]) + cost(tables[y])
						tables[x][i], tables[y][j] = tables[y][j], tables[x][i]
						if cost(tables[x])+cost(tables[y]) < before {
							better = true
							continue
						}
						tables[x][i], tables[y][j] = tables[y][j], tables[x][i]
					}
				}
			}
		}
		if !better {
			return
		}
	}
}

func abs(n int) int { return max(n, -n) }

// seatOrder is the play order of a table (indexes of players): who sat
// first the least for their games first (2×firsts − games, lowest first),
// then by rank.
func seatOrder(players []Record, table []int) []uint {
	slices.SortStableFunc(table, func(a, b int) int {
		return cmp.Or(cmp.Compare(lean(players[a]), lean(players[b])), cmp.Compare(a, b))
	})
	ids := make([]uint, len(table))
	for i, j := range table {
		ids[i] = players[j].ID
	}
	return ids
}

// Apply adds round to the records (by id): the byes, the games, who sat
// first, who met whom. Records of players not in round are left alone.
func Apply(records []Record, round Round) {
	at := map[uint]*Record{}
	for i := range records {
		at[records[i].ID] = &records[i]
		if records[i].Met == nil {
			records[i].Met = map[uint]int{}
		}
	}
	for _, id := range round.Byes {
		if r := at[id]; r != nil {
			r.Byes++
		}
	}
	for _, t := range round.Tables {
		for k, id := range t {
			r := at[id]
			if r == nil {
				continue
			}
			r.Games++
			if k == 0 {
				r.Firsts++
			}
			for _, other := range t {
				if other != id {
					r.Met[other]++
				}
			}
		}
	}
}

// RoundRobinRounds is how many rounds a round robin of n players at tables
// of size has.
func RoundRobinRounds(n int, size Size) int {
	if n < 2 {
		return 0
	}
	if size == Two {
		return n - 1 + n%2
	}
	tables, byes := Split(n, size)
	if byes > 0 || len(tables) == 0 {
		return n
	}
	least := slices.Min(tables)
	return (n - 1 + least - 2) / (least - 1)
}

// RoundRobin is the whole schedule of a round robin of players (ids, in
// the order they are seeded) at tables of size: RoundRobinRounds rounds.
func RoundRobin(ids []uint, size Size) []Round {
	n := len(ids)
	records := make([]Record, n)
	for i, id := range ids {
		records[i] = Record{ID: id, Met: map[uint]int{}}
	}
	rounds := make([]Round, 0, RoundRobinRounds(n, size))
	if size != Two {
		for range RoundRobinRounds(n, size) {
			r := Swiss(records, size)
			Apply(records, r)
			rounds = append(rounds, r)
		}
		return rounds
	}
	// The circle method: the first stays, the others turn; with an odd
	// count, whoever meets the empty place (-1) has the bye.
	circle := make([]int, 0, n+1)
	for i := range n {
		circle = append(circle, i)
	}
	if n%2 == 1 {
		circle = append(circle, -1)
	}
	m := len(circle)
	for range RoundRobinRounds(n, size) {
		var r Round
		for i := range m / 2 {
			a, b := circle[i], circle[m-1-i]
			switch {
			case a < 0:
				r.Byes = append(r.Byes, ids[b])
			case b < 0:
				r.Byes = append(r.Byes, ids[a])
			default:
				// i sits first against j > i when i+j is odd: each
				// sits first in half their games, give or take one.
				if (a+b)%2 == 1 == (a > b) {
					a, b = b, a
				}
				r.Tables = append(r.Tables, []uint{ids[a], ids[b]})
			}
		}
		Apply(records, r)
		rounds = append(rounds, r)
		last := circle[m-1]
		copy(circle[2:], circle[1:m-1])
		circle[1] = last
	}
	return rounds
}
