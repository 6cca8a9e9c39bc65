package engine

import (
	"sync"
	"testing"
)

// TestClonesShareBoardUntilWrite: a clone shares its parent's board until
// one of them lays a tile; then each sees only its own tiles, whichever
// writes first, and a preview's recycled board never reaches another state.
func TestClonesShareBoardUntilWrite(t *testing.T) {
	su, _ := NewSetup(2, 7)
	s, _ := New(su, 0)
	c := s.Clone()
	if c.board != s.board {
		t.Fatal("a fresh clone copied the board")
	}
	grid := s.board.cells
	legal := c.LegalPlacements(nil)
	if _, err := c.Play(c.Current(), Move{Placement: legal[0], Reactions: map[int][]Act{}}); err != nil {
		t.Fatal(err)
	}
	if s.board.cells != grid || c.board == s.board {
		t.Fatal("the clone's tile reached the parent's board")
	}
	// Now the parent writes first, with its own clone looking on.
	d := s.Clone()
	for _, pl := range s.LegalPlacements(nil) {
		if _, err := s.Preview(s.Current(), Move{Placement: pl}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Play(s.Current(), Move{Placement: legal[len(legal)-1], Reactions: map[int][]Act{}}); err != nil {
		t.Fatal(err)
	}
	if d.board.cells != grid {
		t.Fatal("the parent's tile (or a preview's) reached its clone's board")
	}
	if s.board.cells == grid || s.board.get(legal[len(legal)-1].At) == 0 {
		t.Fatal("the parent's own tile is not on its board")
	}
}

// TestClonesOfOneStateInParallel: many goroutines clone one kept position
// and play on their clones, as concurrent page loads do (run with -race).
func TestClonesOfOneStateInParallel(t *testing.T) {
	su, _ := NewSetup(3, 11)
	kept, _ := New(su, 0)
	grid := kept.board.cells
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				c := kept.Clone()
				legal := c.LegalPlacements(nil)
				pl := legal[(g*20+i)%len(legal)]
				if _, err := c.Preview(c.Current(), Move{Placement: pl}); err != nil {
					t.Error(err)
					return
				}
				if _, err := c.Play(c.Current(), Move{Placement: pl, Reactions: map[int][]Act{}}); err != nil {
					t.Error(err)
					return
				}
				if c.board.get(pl.At) == 0 {
					t.Error("a clone lost its own tile")
				}
			}
		}()
	}
	wg.Wait()
	if kept.board.cells != grid {
		t.Fatal("the kept position changed")
	}
}
