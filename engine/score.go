package engine

import "sort"

// Score is one seat's total with its parts: coins, temple awards, sun tokens
// and the water field's value. Fruit left scores nothing but breaks ties.
type Score struct {
	Seat    int
	Coins   int
	Temples int
	Sun     int
	Water   int
	Total   int
	Fruit   int
}

// TempleResult is one temple's majority: each seat's workers next to it and
// the gold each seat is awarded.
type TempleResult struct {
	At      Cell
	Workers []int
	Award   []int
}

// Result is the standing of a game: a score per seat, each temple's award and
// the winning seats in ascending order (all tied seats share a win).
type Result struct {
	Scores  []Score
	Temples []TempleResult
	Winners []int
}

// Score computes the totals as the game stands now. Once Over and no batch is
// pending this is the final result.
func (s *State) Score() Result {
	var r Result
	r.Scores = make([]Score, s.n)
	for i := range r.Scores {
		p := &s.players[i]
		r.Scores[i] = Score{Seat: i, Coins: p.Gold, Sun: p.Sun, Water: p.WaterValue(), Fruit: p.Fruit}
	}
	for i := range s.pieces {
		t := &s.pieces[i]
		if t.jungle != TempleTile {
			continue
		}
		tr := TempleResult{At: t.at, Workers: make([]int, s.n)}
		for d := N; d <= W; d++ {
			if q := s.at(t.at.Step(d)); q != nil && q.isWorker() {
				tr.Workers[q.owner] += int(q.edges[d.Opposite()])
			}
		}
		tr.Award = TempleAwards(tr.Workers)
		for k, a := range tr.Award {
			r.Scores[k].Temples += a
		}
		r.Temples = append(r.Temples, tr)
	}
	for i := range r.Scores {
		sc := &r.Scores[i]
		sc.Total = sc.Coins + sc.Temples + sc.Sun + sc.Water
	}
	r.Winners = Winners(r.Scores)
	return r
}

// TempleAwards splits a temple's gold by workers per seat (RULES.md section 5):
// 6 for the most and 3 for the second most; a tie for most splits 6 (rounded
// down) and pays no second place; a tie for second splits 3. Seats with no
// worker take no part.
func TempleAwards(workers []int) []int {
	award := make([]int, len(workers))
	var counts []int
	for _, w := range workers {
		if w > 0 {
			counts = append(counts, w)
		}
	}
	if len(counts) == 0 {
		return award
	}
	sort.Sort(sort.Reverse(sort.IntSlice(counts)))
	top := counts[0]
	nTop := 0
	for _, c := range counts {
		if c == top {
			nTop++
		}
	}
	if nTop > 1 {
		for i, w := range workers {
			if w == top {
				award[i] = TempleFirst / nTop
			}
		}
		return award
	}
	second, nSecond := 0, 0
	for _, c := range counts[1:] {
		if second == 0 {
			second = c
		}
		if c == second {
			nSecond++
		}
	}
	for i, w := range workers {
		switch {
		case w == top:
			award[i] = TempleFirst
		case second > 0 && w == second:
			award[i] = TempleSecond / nSecond
		}
	}
	return award
}

// Places returns each seat's place (1 for the winners): one more than the
// number of seats ahead of it, by total and then by fruit left; seats tied
// on both share a place.
func Places(scores []Score) []int {
	places := make([]int, len(scores))
	for i, a := range scores {
		places[i] = 1
		for _, b := range scores {
			if b.Total > a.Total || b.Total == a.Total && b.Fruit > a.Fruit {
				places[i]++
			}
		}
	}
	return places
}

// SharedPlace reports whether another seat has seat i's place.
func SharedPlace(places []int, i int) bool {
	for j, p := range places {
		if j != i && p == places[i] {
			return true
		}
	}
	return false
}

// Winners returns the seats with the highest total, ties broken by the most
// fruit left; seats still tied share the win.
func Winners(scores []Score) []int {
	var w []int
	for i, p := range Places(scores) {
		if p == 1 {
			w = append(w, i)
		}
	}
	return w
}
