package bot

import (
	"fmt"
	"reflect"
	"testing"

	"cacao/engine"
)

func newGame(tb testing.TB, n int, seed uint64) *engine.State {
	tb.Helper()
	su, err := engine.NewSetup(n, seed)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := engine.New(su, int(seed%uint64(n)))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// TestGreedyBeatsRandom: greedy must win at least 90% of 200 two-player games
// against random (a shared win does not count as a win).
func TestGreedyBeatsRandom(t *testing.T) {
	wins := 0
	const games = 200
	for g := 0; g < games; g++ {
		s := newGame(t, 2, uint64(g))
		greedySeat := g % 2
		bots := []Bot{&Random{}, &Random{}}
		bots[greedySeat] = Greedy{}
		if err := Play(s, bots, engine.NewRand(uint64(1000+g)), nil); err != nil {
			t.Fatalf("game %d: %v", g, err)
		}
		r := s.Score()
		if len(r.Winners) == 1 && r.Winners[0] == greedySeat {
			wins++
		}
	}
	t.Logf("greedy won %d of %d games against random", wins, games)
	if wins*100 < games*90 {
		t.Fatalf("greedy won %d of %d games; want at least 90%%", wins, games)
	}
}

func TestByName(t *testing.T) {
	for _, n := range Names() {
		b, ok := ByName(n)
		if !ok || b.Name() != n {
			t.Errorf("ByName(%q) = %v, %v", n, b, ok)
		}
	}
	if _, ok := ByName("nobody"); ok {
		t.Error("ByName accepted an unknown bot")
	}
}

// BenchmarkRandomGame plays full random games on one State reused with
// Reset, the way a simulation would (target: at most 50 µs a game).
func BenchmarkRandomGame(b *testing.B) { benchRandomGames(b, true) }

// BenchmarkRandomGameNew is the same with a new State (and board) per game.
func BenchmarkRandomGameNew(b *testing.B) { benchRandomGames(b, false) }

func randomBots(n int) []Bot {
	bots := make([]Bot, n)
	for i := range bots {
		bots[i] = &Random{}
	}
	return bots
}

func benchRandomGames(b *testing.B, reuse bool) {
	for n := 2; n <= 4; n++ {
		b.Run(fmt.Sprintf("players=%d", n), func(b *testing.B) {
			su, _ := engine.NewSetup(n, 1)
			bots, r := randomBots(n), engine.NewRand(7)
			s, _ := engine.New(su, 0)
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if reuse {
					err = s.Reset(su, 0)
				} else {
					s, err = engine.New(su, 0)
				}
				if err != nil {
					b.Fatal(err)
				}
				if err := Play(s, bots, r, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestResetPlaysLikeNew: games played on a reused State end exactly as the
// same games on fresh ones.
func TestResetPlaysLikeNew(t *testing.T) {
	var reused *engine.State
	for g := 0; g < 60; g++ {
		n := 2 + g%3
		su, _ := engine.NewSetup(n, uint64(g))
		bots := randomBots(n)
		fresh, _ := engine.New(su, g%n)
		if err := Play(fresh, bots, engine.NewRand(uint64(g)), nil); err != nil {
			t.Fatal(err)
		}
		if reused == nil {
			reused, _ = engine.New(su, g%n)
		} else if err := reused.Reset(su, g%n); err != nil {
			t.Fatal(err)
		}
		if err := Play(reused, bots, engine.NewRand(uint64(g)), nil); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fresh.Score(), reused.Score()) || !reflect.DeepEqual(fresh.View(0), reused.View(0)) {
			t.Fatalf("game %d: a reset state ends differently from a new one", g)
		}
	}
	if err := reused.Reset(engine.Setup{}, 0); err == nil {
		t.Fatal("Reset accepted an empty setup")
	}
}

// BenchmarkSearchIteration is one iteration of the hard bot's search, the
// current one and hard-v1, from the first move of a 2-, 3- and 4-player
// game and from a mid-game position (turn 8 of a 2-player game, 12 of a
// 3- and 4-player one): a deal, the walk down the tree, a playout and the
// credit (the search's playouts per second is its inverse). With a fixed
// -benchtime (3000x) every run searches the same tree.
func BenchmarkSearchIteration(b *testing.B) {
	for _, v := range []int{2, 1} {
		for n := 2; n <= 4; n++ {
			b.Run(fmt.Sprintf("version=%d/players=%d", v, n), func(b *testing.B) { benchSearch(b, v, n, 0) })
		}
		for n := 2; n <= 4; n++ {
			turn := map[int]int{2: 8, 3: 12, 4: 12}[n]
			b.Run(fmt.Sprintf("version=%d/players=%d/turn=%d", v, n, turn), func(b *testing.B) { benchSearch(b, v, n, turn) })
		}
	}
}

func benchSearch(b *testing.B, version, n, turn int) {
	s := newGame(b, n, 1)
	if turn > 0 {
		s = midGame(b, n, 1, turn)
	}
	r := engine.NewRand(1)
	b.ReportAllocs()
	b.ResetTimer()
	c, err := Search{Iterations: b.N, Version: version}.Think(s, r)
	if err != nil || c.Iterations != b.N {
		b.Fatal(err, c.Iterations)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
}
