package engine_test

import (
	"fmt"

	"cacao/engine"
)

// The worked example of the package documentation, played for real.
func Example() {
	su, _ := engine.NewSetup(2, 1)
	// Put M3 and T on top of the jungle pile so they form the display.
	su.Jungle = moveToTop(su.Jungle, engine.M3, engine.TempleTile)
	// Ana needs 1111 and Bo 2101 in hand.
	su.Workers[0] = moveWorkerToTop(su.Workers[0], engine.W1111)
	su.Workers[1] = moveWorkerToTop(su.Workers[1], engine.W2101)
	s, _ := engine.New(su, 0)
	fmt.Println("display:", s.Display())

	out, err := s.Play(0, engine.Move{Placement: engine.Placement{Tile: engine.W1111, At: engine.Cell{X: 1, Y: 0}}})
	fmt.Println(err, "fills:", len(out.Fills), "acts:", out.Acts)
	ana := s.Player(0)
	fmt.Println("Ana: gold", ana.Gold, "fruit", ana.Fruit)

	fills := s.FillOptions(engine.Cell{X: 2, Y: 1})
	fmt.Println("Bo's fill options at (2,1):", fills)
	out, err = s.Play(1, engine.Move{
		Placement: engine.Placement{Tile: engine.W2101, Rot: 3, At: engine.Cell{X: 2, Y: 1}},
		Fills:     []engine.Fill{{At: engine.Cell{X: 2, Y: 0}, Tile: engine.M3}},
	})
	fmt.Println(err, "Bo's acts:", out.Acts)
	for _, r := range out.Resolutions {
		fmt.Println("seat", r.Seat, "resolved", r.Acts)
	}
	fmt.Println("display after refill has", len(s.Display()), "tiles; Bo holds", s.Player(1).HandSize())
	// Output:
	// display: [M3 T]
	// <nil> fills: 0 acts: [{[1,0] W 1} {[1,0] S 1}]
	// Ana: gold 2 fruit 0
	// Bo's fill options at (2,1): [[{[2,0] M3 false}] [{[2,0] T false}]]
	// <nil> Bo's acts: [{[2,1] N 1} {[2,1] W 2}]
	// seat 0 resolved [{[1,0] E 1}]
	// display after refill has 2 tiles; Bo holds 3
}

func moveToTop(pile []engine.Jungle, top ...engine.Jungle) []engine.Jungle {
	rest := append([]engine.Jungle(nil), pile...)
	for _, t := range top {
		for i, j := range rest {
			if j == t {
				rest = append(rest[:i], rest[i+1:]...)
				break
			}
		}
	}
	return append(append([]engine.Jungle(nil), top...), rest...)
}

func moveWorkerToTop(pile []engine.Worker, w engine.Worker) []engine.Worker {
	rest := append([]engine.Worker(nil), pile...)
	for i, x := range rest {
		if x == w {
			rest = append(rest[:i], rest[i+1:]...)
			break
		}
	}
	return append([]engine.Worker{w}, rest...)
}
