package engine

import (
	"reflect"
	"testing"
)

// TestTempleAwards: every example of the rules' "Temples" (views/rules/en.html), and the same
// situations with the seats in other orders or absent players.
func TestTempleAwards(t *testing.T) {
	for _, tc := range []struct {
		name    string
		workers []int
		want    []int
	}{
		// The examples of the rules' "Temples".
		{"A3 B2 C1", []int{3, 2, 1}, []int{6, 3, 0}},
		{"A2 B2 C1", []int{2, 2, 1}, []int{3, 3, 0}},
		{"A2 B2 C2", []int{2, 2, 2}, []int{2, 2, 2}},
		{"A1 B1 C1 D1", []int{1, 1, 1, 1}, []int{1, 1, 1, 1}},
		{"A3 B1 C1", []int{3, 1, 1}, []int{6, 1, 1}},
		{"A3 B2 C2 D1", []int{3, 2, 2, 1}, []int{6, 1, 1, 0}},
		{"A4 alone", []int{4}, []int{6}},
		// The same, seats in other orders and with players not taking part.
		{"A4 alone of four", []int{0, 0, 4, 0}, []int{0, 0, 6, 0}},
		{"C3 A2 B1", []int{2, 1, 3}, []int{3, 0, 6}},
		{"B2 C2 A1", []int{1, 2, 2}, []int{0, 3, 3}},
		{"D3 B2 C2 A1", []int{1, 2, 2, 3}, []int{0, 1, 1, 6}},
		{"A1 C1 B0", []int{1, 0, 1}, []int{3, 0, 3}},
		{"A1 B1 C1 D0", []int{1, 1, 1, 0}, []int{2, 2, 2, 0}},
		{"A1 B3", []int{1, 3}, []int{3, 6}},
		{"A5 B5", []int{5, 5}, []int{3, 3}},
		{"A6 B1 C1 D1", []int{6, 1, 1, 1}, []int{6, 1, 1, 1}},
		{"A1 B2 C3 D4", []int{1, 2, 3, 4}, []int{0, 0, 3, 6}},
		{"nobody", []int{0, 0, 0}, []int{0, 0, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]int(nil), tc.workers...)
			got := TempleAwards(in)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("TempleAwards(%v) = %v; want %v", tc.workers, got, tc.want)
			}
			if !reflect.DeepEqual(in, tc.workers) {
				t.Errorf("TempleAwards changed its argument to %v", in)
			}
		})
	}
}

// TestWinners: the highest total wins; a tie goes to the most fruit left;
// still tied, the win is shared (seats in ascending order).
// sc is scores from pairs of total and fruit left, seat by seat.
func sc(totalFruit ...int) []Score {
	var out []Score
	for i := 0; i < len(totalFruit); i += 2 {
		out = append(out, Score{Seat: i / 2, Total: totalFruit[i], Fruit: totalFruit[i+1]})
	}
	return out
}

func TestWinners(t *testing.T) {
	for _, tc := range []struct {
		name   string
		scores []Score
		want   []int
	}{
		{"clear win", sc(10, 0, 12, 0), []int{1}},
		{"clear win despite less fruit", sc(11, 0, 10, 5), []int{0}},
		{"tie broken by fruit", sc(10, 1, 10, 3), []int{1}},
		{"tie broken by fruit, first seat", sc(10, 4, 10, 3, 9, 5), []int{0}},
		{"tie on total and fruit: shared", sc(10, 2, 10, 2, 9, 5), []int{0, 1}},
		{"shared by all four", sc(7, 0, 7, 0, 7, 0, 7, 0), []int{0, 1, 2, 3}},
		{"shared by the last two", sc(3, 5, 8, 1, 8, 1), []int{1, 2}},
		{"leader found late", sc(10, 1, 8, 5, 10, 2), []int{2}},
		{"negative totals", sc(-5, 0, -3, 0), []int{1}},
		{"negative tie broken by fruit", sc(-4, 3, -4, 0, -9, 5), []int{0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Winners(tc.scores); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Winners = %v; want %v", got, tc.want)
			}
			// The winners are the seats in first place.
			var first []int
			for i, p := range Places(tc.scores) {
				if p == 1 {
					first = append(first, i)
				}
			}
			if !reflect.DeepEqual(first, tc.want) {
				t.Errorf("the seats in first place are %v; want %v", first, tc.want)
			}
		})
	}
}

func TestPlaces(t *testing.T) {
	for _, tc := range []struct {
		name   string
		scores []Score
		want   []int
	}{
		{"in seat order", sc(10, 0, 8, 0, 6, 0), []int{1, 2, 3}},
		{"in reverse", sc(6, 0, 8, 0, 10, 0), []int{3, 2, 1}},
		{"a tie broken by fruit", sc(10, 1, 10, 3, 4, 9), []int{2, 1, 3}},
		{"a shared second place", sc(12, 0, 10, 2, 10, 2, 3, 0), []int{1, 2, 2, 4}},
		{"a shared win", sc(9, 1, 9, 1), []int{1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Places(tc.scores)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Places = %v; want %v", got, tc.want)
			}
			for i := range got {
				n := 0
				for _, p := range got {
					if p == got[i] {
						n++
					}
				}
				if SharedPlace(got, i) != (n > 1) {
					t.Errorf("SharedPlace(%v, %d) = %v", got, i, SharedPlace(got, i))
				}
			}
		})
	}
}

// TestScoreBoard: temple majorities from the board (top tiles only; an edge
// counts whether it fired or not) and total = coins + temples + sun + water,
// with a negative water field subtracting.
func TestScoreBoard(t *testing.T) {
	// Temple A at [2,0]: seat 0's 3100 turned once at [1,0] (E3), seat 1's
	// 2101 turned three times at [3,0] (W2), seat 2's 1111 at [2,1] (N1).
	// Temple B at [0,2]: seat 2's 1111 at [1,2] (W1), laid before the temple
	// so its edge never fired.
	p := newPos(t, 3, W1111).
		jungle(xy(2, 0), TempleTile).
		worker(xy(1, 0), 0, W3100, 1).
		worker(xy(3, 0), 1, W2101, 3).
		worker(xy(2, 1), 2, W1111, 0).
		worker(xy(1, 2), 2, W1111, 0).
		jungle(xy(0, 2), TempleTile).
		display().pile().
		village(0, 4, 0, 1, 1). // water -4
		village(1, 2, 3, 2, 0). // water -10
		village(2, 0, 0, 3, 8)  // water 16
	if firedSides(p.s, xy(1, 2))[W] {
		t.Fatal("setup: [1,2] W should not have fired")
	}
	temples := func() map[Cell]TempleResult {
		m := map[Cell]TempleResult{}
		for _, tr := range p.s.Score().Temples {
			m[tr.At] = tr
		}
		return m
	}
	before := temples()
	if len(before) != 2 {
		t.Fatalf("%d temples scored; want 2", len(before))
	}
	if a := before[xy(2, 0)]; !reflect.DeepEqual(a.Workers, []int{3, 2, 1}) || !reflect.DeepEqual(a.Award, []int{6, 3, 0}) {
		t.Errorf("temple A %+v; want workers [3 2 1] award [6 3 0]", a)
	}
	if b := before[xy(0, 2)]; !reflect.DeepEqual(b.Workers, []int{0, 0, 1}) || !reflect.DeepEqual(b.Award, []int{0, 0, 6}) {
		t.Errorf("temple B %+v; want workers [0 0 1] award [0 0 6]", b)
	}

	// Seat 0 overbuilds [1,0] with 1111: E1 on temple A. Its W edge harvests
	// 1 at P1 and its S edge sells it at M2: +2 gold; the sun token is paid.
	p.play(0, overbuild(W1111, 0, 1, 0))
	after := temples()
	if a := after[xy(2, 0)]; !reflect.DeepEqual(a.Workers, []int{1, 2, 1}) || !reflect.DeepEqual(a.Award, []int{1, 6, 1}) {
		t.Errorf("temple A after overbuild %+v; want workers [1 2 1] award [1 6 1]", a)
	}
	r := p.s.Score()
	want := []Score{
		{Seat: 0, Coins: 6, Temples: 1, Sun: 0, Water: -4, Total: 3, Fruit: 0},
		{Seat: 1, Coins: 2, Temples: 6, Sun: 2, Water: -10, Total: 0, Fruit: 3},
		{Seat: 2, Coins: 0, Temples: 7, Sun: 3, Water: 16, Total: 26, Fruit: 0},
	}
	if !reflect.DeepEqual(r.Scores, want) {
		t.Errorf("scores\n %+v\nwant\n %+v", r.Scores, want)
	}
	if !reflect.DeepEqual(r.Winners, []int{2}) {
		t.Errorf("winners %v; want [2]", r.Winners)
	}
}

// TestScoreNegativeTotal: a total may be negative and still win.
func TestScoreNegativeTotal(t *testing.T) {
	p := newPos(t, 2).village(0, 3, 5, 0, 0).village(1, 1, 0, 2, 1)
	r := p.s.Score()
	if r.Scores[0].Total != -7 || r.Scores[1].Total != -1 {
		t.Errorf("totals %d %d; want -7 -1", r.Scores[0].Total, r.Scores[1].Total)
	}
	if !reflect.DeepEqual(r.Winners, []int{1}) {
		t.Errorf("winners %v; want [1]", r.Winners)
	}
}

// TestScoreSampleGames: finished sample games score to the known totals, and
// every total is the sum of its parts.
func TestScoreSampleGames(t *testing.T) {
	for _, tc := range []struct {
		file    string
		totals  []int
		temples []int
		winners []int
	}{
		{"testdata/sample-2p.json", []int{55, 40}, []int{12, 18}, []int{0}},
		{"testdata/sample-3p.json", []int{28, 35, 33}, []int{6, 12, 18}, []int{1}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			s := replaySample(t, tc.file)
			if !s.Over() || s.Pending() {
				t.Fatalf("over %v pending %v; want a finished game", s.Over(), s.Pending())
			}
			r := s.Score()
			awarded := make([]int, s.Players())
			for _, tr := range r.Temples {
				for k, a := range tr.Award {
					awarded[k] += a
				}
				if !reflect.DeepEqual(tr.Award, TempleAwards(tr.Workers)) {
					t.Errorf("temple %v award %v; TempleAwards says %v", tr.At, tr.Award, TempleAwards(tr.Workers))
				}
			}
			for i, sc := range r.Scores {
				p := s.Player(i)
				if sc.Coins != p.Gold || sc.Sun != p.Sun || sc.Water != p.WaterValue() || sc.Fruit != p.Fruit || sc.Temples != awarded[i] {
					t.Errorf("seat %d score %+v does not match the village %+v / temples %d", i, sc, *p, awarded[i])
				}
				if sc.Total != sc.Coins+sc.Temples+sc.Sun+sc.Water {
					t.Errorf("seat %d total %d is not coins+temples+sun+water", i, sc.Total)
				}
				if sc.Total != tc.totals[i] || sc.Temples != tc.temples[i] {
					t.Errorf("seat %d total %d temples %d; want %d %d", i, sc.Total, sc.Temples, tc.totals[i], tc.temples[i])
				}
			}
			if !reflect.DeepEqual(r.Winners, tc.winners) {
				t.Errorf("winners %v; want %v", r.Winners, tc.winners)
			}
		})
	}
}

// TestScoresIsScoresScores: Scores gives Score's scores at every turn of
// random games of 2 to 4 players, and allocates nothing given room.
func TestScoresIsScoresScores(t *testing.T) {
	for n := 2; n <= 4; n++ {
		su, _ := NewSetup(n, uint64(10+n))
		s, _ := New(su, 0)
		r := NewRand(uint64(n))
		buf := make([]Score, 0, 4)
		for !s.Over() {
			if got, want := s.Scores(buf), s.Score().Scores; !reflect.DeepEqual(got, want) {
				t.Fatalf("%d players, turn %d: Scores %+v; Score %+v", n, s.Turns(), got, want)
			}
			playRandom(t, s, 1, r)
		}
		if a := testing.AllocsPerRun(100, func() { buf = s.Scores(buf) }); a != 0 {
			t.Errorf("Scores allocated %.0f times a call", a)
		}
	}
}
