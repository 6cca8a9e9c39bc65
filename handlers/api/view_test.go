package api_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"cacao/engine"
	"cacao/engine/bot"
	"cacao/handlers/api"
)

// A seat's view sent as JSON reads back as it was, but for what the JSON
// leaves out; and engine.FromView rebuilds from it a position that shows
// the seat all of it again. Views from every stage of games of 2, 3 and 4
// players, choices waiting included, for each seat and a watcher.
func TestGameReadsBackIntoTheView(t *testing.T) {
	waiting := 0
	for n := 2; n <= 4; n++ {
		for i, s := range played(t, n) {
			for seat := engine.Spectator; seat < n; seat++ {
				where := fmt.Sprintf("%d players, position %d, seat %d", n, i, seat)
				v := s.View(seat)
				body, err := json.Marshal(api.GameOf(v))
				if err != nil {
					t.Fatal(err)
				}
				var g api.Game
				if err := json.Unmarshal(body, &g); err != nil {
					t.Fatal(err)
				}
				got, err := g.View()
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				if want := sent(v); !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: the JSON reads back as\n%+v\nwant\n%+v", where, got, want)
				}
				c, err := engine.FromView(got, engine.NewRand(uint64(i)))
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				if again := c.View(seat); !reflect.DeepEqual(again, v) {
					t.Fatalf("%s: the position rebuilt from the JSON shows\n%+v\nwant\n%+v", where, again, v)
				}
				waiting += len(v.Queue)
			}
		}
	}
	if waiting == 0 {
		t.Fatal("no view had a choice waiting: the choices were not tested")
	}
}

// A game the JSON cannot hold is refused with a sentence, not read wrong.
func TestGameWithUnknownTilesIsRefused(t *testing.T) {
	s := played(t, 2)[5]
	for name, change := range map[string]func(g *api.Game){
		"a tile on the board":             func(g *api.Game) { g.Board[0].Tile = "X9" },
		"a worker tile without its owner": func(g *api.Game) { g.Board[2].Owner = nil },
		"a display tile":                  func(g *api.Game) { g.Display = append(g.Display, "pile") },
		"a hand tile":                     func(g *api.Game) { g.Hand = append(g.Hand, "4000") },
		"an edge's side": func(g *api.Game) {
			g.Choices = []api.Batch{{Turn: 1, Edges: []api.Edge{{Tile: api.Cell{0, 1}, Side: "up", Jungle: "P1"}}}}
		},
	} {
		g := api.GameOf(s.View(0))
		change(&g)
		var p *api.Problem
		if _, err := g.View(); !errors.As(err, &p) {
			t.Errorf("%s: View gives %v, want a *Problem", name, err)
		}
	}
}

// sent is v as the JSON keeps it: no Legal, CanOverbuild, Fired sides or
// temples.
func sent(v engine.View) engine.View {
	v.Legal, v.CanOverbuild, v.Result.Temples = nil, false, nil
	v.Tiles = append([]engine.TileView(nil), v.Tiles...)
	for i := range v.Tiles {
		v.Tiles[i].Fired = [4]bool{}
	}
	return v
}

// played returns the positions of a game of n players between bots, with
// choices left waiting as on the site: each player makes theirs before
// their turn, and now and then earlier.
func played(t *testing.T, n int) []*engine.State {
	t.Helper()
	su, _ := engine.NewSetup(n, uint64(n))
	s, err := engine.New(su, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := engine.NewRand(uint64(n))
	resolve := func(seat int) {
		if _, err := s.Resolve(seat, bot.Greedy{}.Resolve(s, seat, r)); err != nil {
			t.Fatal(err)
		}
	}
	var out []*engine.State
	for !s.Over() {
		for seat := range n {
			if len(s.Player(seat).Queue()) > 0 && (seat == s.Current() || r.Intn(3) == 0) {
				resolve(seat)
			}
		}
		for len(s.Player(s.Current()).Queue()) > 0 {
			resolve(s.Current())
		}
		m, err := bot.Greedy{}.Move(s, r)
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
