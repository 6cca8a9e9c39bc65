package views

import (
	"fmt"

	"cacao/engine"
)

// ReplayVM is a game as it was after Step of its Last log entries: the
// board, the villages and the log to there (each entry linked to its
// step), and the hands the viewer may see: their own as it was while the
// game runs, every hand once it is over (or in a record). A stored game
// steps by links (Base); a record (Record, its text) by forms that send it
// again.
type ReplayVM struct {
	Game       GameVM
	Step, Last int
	Base       string
	Record     string
	Hands      []ReplayHand
	// Review is the viewer's review of the turn that follows the step
	// shown, when they asked for one (nil: none).
	Review *TurnReviewCard
}

// ReplayHand is one seat's hand at the step shown.
type ReplayHand struct {
	Seat  int
	Name  string
	Tiles []engine.Worker
}

// At is the address of step n of a stored game.
func (vm ReplayVM) At(n int) string { return fmt.Sprintf("%s%d", vm.Base, n) }

func (vm ReplayVM) board() Board {
	b := NewBoard(vm.Game.View, nil)
	b.Names = vm.Game.Names()
	b.Arrived = vm.Game.Arrived
	if vm.Review != nil && vm.Review.Ghost != nil {
		g := vm.Review.Ghost
		b.Ghost = &engine.TileView{At: g.At, Edges: edgesOf(g.Tile, g.Rot), Owner: g.Seat, Jungle: engine.NoJungle}
		for _, f := range g.Fills {
			b.GhostFills = append(b.GhostFills, engine.TileView{At: f.At, Jungle: f.Tile})
		}
	}
	return b
}
