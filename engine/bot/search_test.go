package bot

import (
	"reflect"
	"testing"
	"time"

	"cacao/engine"
)

// midGame plays k turns of an n-player game with the greedy bots, leaving
// batches in their queues as the site does.
func midGame(t testing.TB, n int, seed uint64, k int) *engine.State {
	t.Helper()
	s := newGame(t, n, seed)
	r := engine.NewRand(seed)
	for s.Turns() < k {
		seat := s.Current()
		if err := drain(s, seat, Greedy{}, r); err != nil {
			t.Fatal(err)
		}
		m, err := Greedy{}.Move(s, r)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Play(seat, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := drain(s, s.Current(), Greedy{}, r); err != nil {
		t.Fatal(err)
	}
	return s
}

// The search cannot tell apart two positions that differ only in what its
// seat cannot see (the others' hands, every pile's order): from the same
// seed it chooses the same move, with the same figures, in both.
func TestSearchSeesOnlyItsSeat(t *testing.T) {
	for _, tc := range []struct{ n, turns int }{{2, 3}, {3, 7}, {4, 10}} {
		s := midGame(t, tc.n, uint64(tc.n), tc.turns)
		seat := s.Current()
		sp := s.Sampler(seat)
		other := sp.Sample(engine.NewRand(42)).Clone()
		sp.Close()
		if reflect.DeepEqual(hands(s), hands(other)) {
			t.Fatalf("%d players: the positions' hidden hands do not differ", tc.n)
		}
		a, err := Search{Iterations: 3000}.Think(s, engine.NewRand(9))
		if err != nil {
			t.Fatal(err)
		}
		b, err := Search{Iterations: 3000}.Think(other, engine.NewRand(9))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%d players: the search chose %+v in one position and %+v in the other", tc.n, a, b)
		}
		// And a position that differs in what it can see is another search.
		c, err := Search{Iterations: 3000}.Think(midGame(t, tc.n, uint64(tc.n)+100, tc.turns), engine.NewRand(9))
		if err != nil {
			t.Fatal(err)
		}
		if reflect.DeepEqual(a, c) {
			t.Fatalf("%d players: two different positions gave the same search", tc.n)
		}
	}
}

func hands(s *engine.State) [][engine.NumWorkerKinds]int {
	var out [][engine.NumWorkerKinds]int
	for i := 0; i < s.Players(); i++ {
		out = append(out, s.Player(i).Hand)
	}
	return out
}

// With a fixed number of iterations the search is deterministic, and its
// move is legal.
func TestSearchDeterministic(t *testing.T) {
	s := midGame(t, 3, 5, 4)
	a, err := Search{Iterations: 2000}.Think(s, engine.NewRand(1))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Search{Iterations: 2000}.Think(s, engine.NewRand(1))
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("the same seed gave %+v, then %+v", a, b)
	}
	if a.Iterations != 2000 || a.Visits < 2000/50 || a.Value < 0 || a.Value > 1 {
		t.Fatalf("figures out of range: %+v", a)
	}
	if _, err := s.Clone().Play(s.Current(), a.Move); err != nil {
		t.Fatalf("the search chose an illegal move: %v", err)
	}
}

// A stopped search ends early, with a legal move: on a budget of a minute,
// or of a million iterations, it answers at once.
func TestSearchStops(t *testing.T) {
	s := midGame(t, 4, 3, 6)
	stop := make(chan struct{})
	close(stop)
	for _, sr := range []Search{{Budget: time.Minute, Stop: stop}, {Iterations: 1_000_000, Stop: stop}} {
		start := time.Now()
		c, err := sr.Think(s, engine.NewRand(1))
		if took := time.Since(start); err != nil || took > 5*time.Second || c.Iterations > 1000 {
			t.Fatalf("a stopped search (%+v) took %v and %d iterations: %v", sr, took, c.Iterations, err)
		}
		if _, err := s.Clone().Play(s.Current(), c.Move); err != nil {
			t.Fatalf("the stopped search chose an illegal move: %v", err)
		}
	}
}

// matchWins plays games seat-balanced 2-player games of a against b and
// returns a's wins (a shared first place is not one).
func matchWins(t *testing.T, a, b Bot, games int) int {
	t.Helper()
	wins := 0
	for g := 0; g < games; g++ {
		s := newGame(t, 2, uint64(g/2))
		aSeat := g % 2
		bots := []Bot{b, b}
		bots[aSeat] = a
		if err := Play(s, bots, engine.NewRand(uint64(g)), nil); err != nil {
			t.Fatal(err)
		}
		if w := s.Score().Winners; len(w) == 1 && w[0] == aSeat {
			wins++
		}
	}
	return wins
}

// The levels are in order: the hard bot beats the medium one, which beats
// the easy one. (Deterministic: fixed seeds and iterations. The strength
// at full budget is cmd/botmatch's to measure.)
func TestLevelsInOrder(t *testing.T) {
	easy, _ := ByName("easy")
	medium, _ := ByName("medium")
	if w := matchWins(t, medium, easy, 60); w < 36 {
		t.Errorf("medium won %d of 60 games against easy; want at least 36", w)
	}
	games := 8
	if testing.Short() {
		games = 4
	}
	if w := matchWins(t, Search{Iterations: 1500}, medium, games); w*4 < games*3 {
		t.Errorf("hard (1500 iterations a move) won %d of %d games against medium; want three in four", w, games)
	}
}

// A two-player seat's moves before its solved endgame share the time the
// solved ones leave: a seat of n moves gets (n − 1½) budgets for its first
// n − 3 (its last three have nothing hidden), and a full budget wherever nothing will be solved (three and four
// players, or a position with nothing hidden).
func TestShare(t *testing.T) {
	const b = 200 * time.Millisecond
	s := midGame(t, 2, 3, 0)
	n := s.TotalTurns() / 2
	var before time.Duration
	for !known(s) {
		before += Search{}.share(s, b)
		s = midGame(t, 2, 3, s.Turns()+2)
	}
	if left := s.Player(s.Current()).HandSize(); before != b*time.Duration(2*n-3)/2 || left != 3 {
		t.Errorf("the first %d of %d moves share %v (want %v), %d moves left", n-3, n, before, b*time.Duration(2*n-3)/2, left)
	}
	if got := (Search{}).share(s, b); got != b {
		t.Errorf("nothing hidden: %v, want %v", got, b)
	}
	for _, p := range []int{3, 4} {
		if got := (Search{}).share(midGame(t, p, 3, 0), b); got != b {
			t.Errorf("%d players: %v, want %v", p, got, b)
		}
	}
}
