package engine

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
	r := Result{Scores: s.Scores(make([]Score, 0, s.n))}
	for i := range s.pieces {
		if t := &s.pieces[i]; t.jungle == TempleTile {
			tr := TempleResult{At: t.at, Workers: make([]int, s.n)}
			s.templeWorkers(t.at, tr.Workers)
			tr.Award = TempleAwards(tr.Workers)
			r.Temples = append(r.Temples, tr)
		}
	}
	r.Winners = Winners(r.Scores)
	return r
}

// Scores is Score's Scores, written over dst (from dst[:0]) and returned:
// with room in dst it allocates nothing, for a search that scores many
// positions.
func (s *State) Scores(dst []Score) []Score {
	dst = dst[:0]
	for i := 0; i < s.n; i++ {
		p := &s.players[i]
		dst = append(dst, Score{Seat: i, Coins: p.Gold, Sun: p.Sun, Water: p.WaterValue(), Fruit: p.Fruit})
	}
	var workers, award [4]int // a seat each, at most 4
	for i := range s.pieces {
		if t := &s.pieces[i]; t.jungle == TempleTile {
			s.templeWorkers(t.at, workers[:s.n])
			awardTemple(workers[:s.n], award[:s.n])
			for k := range dst {
				dst[k].Temples += award[k]
			}
		}
	}
	for i := range dst {
		sc := &dst[i]
		sc.Total = sc.Coins + sc.Temples + sc.Sun + sc.Water
	}
	return dst
}

// templeWorkers writes over workers each seat's workers next to the
// temple at.
func (s *State) templeWorkers(at Cell, workers []int) {
	clear(workers)
	for d := N; d <= W; d++ {
		if q := s.at(at.Step(d)); q != nil && q.isWorker() {
			workers[q.owner] += int(q.edges[d.Opposite()])
		}
	}
}

// TempleAwards splits a temple's gold by workers per seat (the rules page, views/rules/en.html, "Temples"):
// 6 for the most and 3 for the second most; a tie for most splits 6 (rounded
// down) and pays no second place; a tie for second splits 3. Seats with no
// worker take no part.
func TempleAwards(workers []int) []int {
	award := make([]int, len(workers))
	awardTemple(workers, award)
	return award
}

// awardTemple is TempleAwards written over award, as long as workers.
func awardTemple(workers, award []int) {
	clear(award)
	top, nTop := 0, 0 // the most workers of a seat, and how many seats have it
	for _, w := range workers {
		switch {
		case w > top:
			top, nTop = w, 1
		case w > 0 && w == top:
			nTop++
		}
	}
	if nTop > 1 {
		for i, w := range workers {
			if w == top {
				award[i] = TempleFirst / nTop
			}
		}
		return
	}
	second, nSecond := 0, 0 // the most below top, and how many seats have it
	for _, w := range workers {
		switch {
		case w >= top:
		case w > second:
			second, nSecond = w, 1
		case w > 0 && w == second:
			nSecond++
		}
	}
	for i, w := range workers {
		switch {
		case top > 0 && w == top:
			award[i] = TempleFirst
		case second > 0 && w == second:
			award[i] = TempleSecond / nSecond
		}
	}
}

// Ahead reports whether sc ranks ahead of o: a higher total, or the same
// with more fruit left.
func (sc Score) Ahead(o Score) bool {
	return sc.Total > o.Total || sc.Total == o.Total && sc.Fruit > o.Fruit
}

// Places returns each seat's place (1 for the winners): one more than the
// number of seats ahead of it, by total and then by fruit left; seats tied
// on both share a place.
func Places(scores []Score) []int {
	places := make([]int, len(scores))
	for i, a := range scores {
		places[i] = 1
		for _, b := range scores {
			if b.Ahead(a) {
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
