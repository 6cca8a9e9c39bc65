package engine_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"cacao/engine"
	"cacao/engine/bot"
)

// positions plays a game of n players from seed as the site does (choices
// wait in their queues: the player to move makes theirs first, the
// others now and then) and returns every position on the way: after each
// turn, and after each choice made once the game is over.
func positions(t *testing.T, n int, seed uint64) []*engine.State {
	t.Helper()
	su, _ := engine.NewSetup(n, seed)
	s, err := engine.New(su, int(seed)%n)
	if err != nil {
		t.Fatal(err)
	}
	r := engine.NewRand(seed)
	bots := []bot.Bot{bot.Greedy{}, &bot.Random{}, bot.Greedy{Noise: bot.EasyNoise}, &bot.Random{}}
	resolve := func(seat int) {
		if _, err := s.Resolve(seat, bots[seat].Resolve(s, seat, r)); err != nil {
			t.Fatal(err)
		}
	}
	out := []*engine.State{s.Clone()}
	for !s.Over() {
		for seat := range n {
			if q := s.Player(seat).Queue(); len(q) > 0 && (seat == s.Current() || r.Intn(3) == 0) {
				resolve(seat)
				out = append(out, s.Clone())
			}
		}
		for len(s.Player(s.Current()).Queue()) > 0 {
			resolve(s.Current())
		}
		m, err := bots[s.Current()].Move(s, r)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Play(s.Current(), m); err != nil {
			t.Fatal(err)
		}
		out = append(out, s.Clone())
	}
	for seat := range n {
		for len(s.Player(seat).Queue()) > 0 {
			resolve(seat)
			out = append(out, s.Clone())
		}
	}
	return out
}

// A position rebuilt from what a seat sees shows that seat exactly what
// the game shows it (its legal placements and the score included); the
// greedy bot's move or choice on it is one the game accepts; and it plays
// on to the end.
func TestFromViewShowsWhatTheSeatSaw(t *testing.T) {
	pending, over := 0, 0
	for n := 2; n <= 4; n++ {
		for seed := uint64(1); seed <= 4; seed++ {
			for i, s := range positions(t, n, seed) {
				where := fmt.Sprintf("%d players, seed %d, position %d", n, seed, i)
				for seat := engine.Spectator; seat < n; seat++ {
					r := engine.NewRand(seed*1000 + uint64(i))
					v := s.View(seat)
					c, err := engine.FromView(v, r)
					if err != nil {
						t.Fatalf("%s, seat %d: %v", where, seat, err)
					}
					if got := c.View(seat); !reflect.DeepEqual(got, v) {
						t.Fatalf("%s, seat %d: the rebuilt position shows\n%+v\nwant\n%+v", where, seat, got, v)
					}
					if seat >= 0 && len(v.Queue) > 0 {
						pending++
						acts := bot.Greedy{}.Resolve(c, seat, r)
						if _, err := s.Clone().Resolve(seat, acts); err != nil {
							t.Fatalf("%s, seat %d: the game refuses the choice made on the rebuilt position: %v", where, seat, err)
						}
					} else if seat == v.Current && !v.Over {
						m, err := bot.Greedy{}.Move(c, r)
						if err != nil {
							t.Fatalf("%s: %v", where, err)
						}
						if _, err := s.Clone().Play(seat, m); err != nil {
							t.Fatalf("%s: the game refuses the move chosen on the rebuilt position: %v", where, err)
						}
					}
					if v.Final {
						over++
					}
					if err := bot.Play(c, []bot.Bot{&bot.Random{}, &bot.Random{}, &bot.Random{}, &bot.Random{}}[:n], r, nil); err != nil {
						t.Fatalf("%s, seat %d: playing on: %v", where, seat, err)
					}
					if !c.View(seat).Final {
						t.Fatalf("%s, seat %d: the rebuilt position did not play to the end", where, seat)
					}
				}
			}
		}
	}
	if pending == 0 || over == 0 {
		t.Fatalf("the games gave %d views with choices waiting and %d of a finished game: the test proves little", pending, over)
	}
}

// A view of no position is refused with ErrView, whatever is wrong with it.
func TestFromViewRefusesBadViews(t *testing.T) {
	base, seat, other := waitingPosition(t)
	v := base.View(seat)
	far := engine.Cell{X: 40, Y: 40}
	for _, tc := range []struct {
		name   string
		change func(v *engine.View)
	}{
		{"nothing at all", func(v *engine.View) { *v = engine.View{} }},
		{"five players", func(v *engine.View) { v.Players = 5 }},
		{"a village missing", func(v *engine.View) { v.Seats = v.Seats[:len(v.Seats)-1] }},
		{"a viewer of no seat", func(v *engine.View) { v.Viewer = v.Players }},
		{"not the current seat's turn", func(v *engine.View) { v.Current = (v.Current + 1) % v.Players }},
		{"more turns than tiles laid", func(v *engine.View) { v.Turns++; v.Current = (v.Current + 1) % v.Players }},
		{"turns past the end", func(v *engine.View) { v.Turns = 1000; v.Current = (v.First + 1000) % v.Players }},
		{"no tiles", func(v *engine.View) { v.Tiles = nil }},
		{"a tile off the board", func(v *engine.View) { v.Tiles[3].At = engine.Cell{X: 1000, Y: 1} }},
		{"a tile on another", func(v *engine.View) { v.Tiles[3].At = v.Tiles[0].At }},
		{"a worker tile on a jungle cell", func(v *engine.View) { v.Tiles[2].At = far }},
		{"an unknown jungle tile", func(v *engine.View) { v.Tiles[0].Jungle = 200 }},
		{"an unknown worker tile", func(v *engine.View) { v.Tiles[2].Worker = 9 }},
		{"a worker tile of no seat", func(v *engine.View) { v.Tiles[2].Owner = 7 }},
		{"a rotation of 4", func(v *engine.View) { v.Tiles[2].Rot = 4 }},
		{"workers not the tile's", func(v *engine.View) { v.Tiles[2].Edges[0]++ }},
		{"a tile covered by nothing", func(v *engine.View) { v.Tiles[2].Covered = true }},
		{"one jungle tile too many", func(v *engine.View) {
			v.Tiles = append(v.Tiles, engine.TileView{At: far, Jungle: engine.M4, Owner: -1})
		}},
		{"three display tiles", func(v *engine.View) { v.Display = []engine.Jungle{engine.P1, engine.P1, engine.P1} }},
		{"an empty display tile", func(v *engine.View) { v.Display = []engine.Jungle{engine.NoJungle} }},
		{"a jungle pile too high", func(v *engine.View) { v.JunglePile++ }},
		{"a tile in hand too many", func(v *engine.View) { v.Hand = append(v.Hand, engine.W3001, engine.W3001) }},
		{"an unknown tile in hand", func(v *engine.View) { v.Hand[0] = 9 }},
		{"a hand smaller than shown", func(v *engine.View) { v.Hand = v.Hand[1:] }},
		{"a pile too high", func(v *engine.View) { v.Seats[other].Pile++ }},
		{"water past the track", func(v *engine.View) { v.Seats[other].WaterField = 9 }},
		{"debts", func(v *engine.View) { v.Seats[other].Gold = -1 }},
		{"six fruit", func(v *engine.View) { v.Seats[other].Fruit = 6 }},
		{"four sun tokens", func(v *engine.View) { v.Seats[other].Sun = 4 }},
		{"water worth another value", func(v *engine.View) { v.Seats[other].Water++ }},
		{"a choice waiting on nothing", func(v *engine.View) { v.Seats[other].NeedsDecision = false }},
		{"more choices than turns", func(v *engine.View) { v.Seats[other].Pending = 1 << 30 }},
		{"a choice of another seat", func(v *engine.View) { v.Queue[0].Owner = other }},
		{"a choice on an edge not fired", func(v *engine.View) { v.Queue[0].Edges[0].Side = (v.Queue[0].Edges[0].Side + 1) % 4 }},
		{"a choice on an unknown side", func(v *engine.View) { v.Queue[0].Edges[0].Side = 7 }},
		{"a choice with more workers", func(v *engine.View) { v.Queue[0].Edges[0].Workers++ }},
		{"a choice shown and not counted", func(v *engine.View) { v.Queue = append(v.Queue, v.Queue[0]) }},
		{"over too soon", func(v *engine.View) { v.Over = true }},
	} {
		bad := cloneView(v)
		tc.change(&bad)
		if _, err := engine.FromView(bad, engine.NewRand(1)); !errors.Is(err, engine.ErrView) {
			t.Errorf("%s: FromView gives %v, want ErrView", tc.name, err)
		}
	}
	if _, err := engine.FromView(v, engine.NewRand(1)); err != nil {
		t.Fatalf("the view itself: %v", err)
	}
	// After the first turn the next seat has laid no tile: no choice can
	// wait for it.
	first := positions(t, 3, 1)[1]
	v = first.View(first.First())
	v.Seats[v.Current].Pending, v.Seats[v.Current].NeedsDecision = 1, true
	if _, err := engine.FromView(v, engine.NewRand(1)); !errors.Is(err, engine.ErrView) {
		t.Errorf("a choice waiting for a seat with no tile: FromView gives %v, want ErrView", err)
	}
}

// Views changed at random never make FromView panic, and what it accepts
// it shows back.
func TestFromViewTakesAnyChange(t *testing.T) {
	base, seat, _ := waitingPosition(t)
	v := base.View(seat)
	r := engine.NewRand(9)
	accepted := 0
	for range 3000 {
		bad := cloneView(v)
		ints := []*int{&bad.Turns, &bad.Current, &bad.First, &bad.JunglePile, &bad.Viewer, &bad.Players}
		for i := range bad.Seats {
			sv := &bad.Seats[i]
			ints = append(ints, &sv.Gold, &sv.Fruit, &sv.Sun, &sv.WaterField, &sv.Water, &sv.Hand, &sv.Pile, &sv.Pending)
		}
		for i := range bad.Tiles {
			tv := &bad.Tiles[i]
			ints = append(ints, &tv.At.X, &tv.At.Y, &tv.Owner, &tv.Rot)
		}
		for i := range bad.Queue[0].Edges {
			e := &bad.Queue[0].Edges[i]
			ints = append(ints, &e.Tile.X, &e.Workers)
		}
		for range 1 + r.Intn(2) {
			*ints[r.Intn(len(ints))] += r.Intn(5) - 2
		}
		if r.Intn(4) == 0 {
			bad.Tiles[r.Intn(len(bad.Tiles))].Jungle = engine.Jungle(r.Intn(12))
		}
		c, err := engine.FromView(bad, r)
		if err != nil {
			if !errors.Is(err, engine.ErrView) {
				t.Fatalf("FromView fails with %v, not ErrView", err)
			}
			continue
		}
		accepted++
		if got := kept(c.View(bad.Viewer)); !reflect.DeepEqual(got, kept(bad)) {
			t.Fatalf("FromView accepts a view it does not show back:\n%+v\nwant\n%+v", got, kept(bad))
		}
	}
	if accepted == 0 {
		t.Fatal("no change was accepted: the changes are too crude to test what FromView shows back")
	}
}

// waitingPosition is a position of 3 players from the middle of a game in
// which seat has a choice waiting and so has other.
func waitingPosition(t *testing.T) (s *engine.State, seat, other int) {
	t.Helper()
	for seed := uint64(1); seed < 50; seed++ {
		for _, s := range positions(t, 3, seed) {
			var waiting []int
			for k := range 3 {
				if len(s.Player(k).Queue()) > 0 {
					waiting = append(waiting, k)
				}
			}
			if len(waiting) >= 2 && s.Turns() < s.TotalTurns()-3 {
				return s, waiting[0], waiting[1]
			}
		}
	}
	t.Fatal("no game of 3 players had two choices waiting at once")
	return nil, 0, 0
}

// cloneView copies v deeply enough to change any of it.
func cloneView(v engine.View) engine.View {
	v.Tiles = append([]engine.TileView(nil), v.Tiles...)
	v.Seats = append([]engine.SeatView(nil), v.Seats...)
	v.Display = append([]engine.Jungle(nil), v.Display...)
	v.Hand = append([]engine.Worker(nil), v.Hand...)
	q := v.Queue
	v.Queue = nil
	for _, b := range q {
		b.Edges = append([]engine.Edge(nil), b.Edges...)
		v.Queue = append(v.Queue, b)
	}
	return v
}

// kept is what FromView reads of a view (see its doc).
func kept(v engine.View) engine.View {
	v = cloneView(v)
	v.Legal, v.CanOverbuild, v.Result = nil, false, engine.Result{}
	for i := range v.Tiles {
		v.Tiles[i].Fired = [4]bool{}
	}
	if len(v.Display) == 0 {
		v.Display = nil
	}
	if len(v.Hand) == 0 {
		v.Hand = nil
	}
	return v
}
