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

// TestGameClonesShareTheRecordUntilWrite: a game's clone shares its
// record's turns until one of them resolves a choice (which writes into an
// earlier turn); neither's writes reach the other, nor a record taken
// before them; and many goroutines may clone one game at once (-race).
func TestGameClonesShareTheRecordUntilWrite(t *testing.T) {
	su, _ := NewSetup(3, 5)
	g, err := NewGame([]string{"ana", "bob", "cy"}, 0, su)
	if err != nil {
		t.Fatal(err)
	}
	enc := func(r *Record) string {
		b, err := r.Encode()
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// step resolves what waits (best choices) and plays a legal placement,
	// leaving the others' choices pending.
	step := func(x *Game) bool {
		resolved := false
		for i := 0; i < x.State().Players(); i++ {
			for len(x.State().Player(i).Queue()) > 0 {
				if _, err := x.ResolveBest(i); err != nil {
					t.Fatal(err)
				}
				resolved = true
			}
		}
		if st := x.State(); !st.Over() {
			legal := st.LegalPlacements(nil)
			if _, err := x.Play(st.Current(), Move{Placement: legal[len(legal)/2]}); err != nil {
				t.Fatal(err)
			}
		}
		return resolved
	}
	resolved := 0
	for n := 0; n < 80 && !g.State().Over(); n++ {
		rec := g.Record()
		before := enc(rec)
		c := g.Clone()
		if step(c) {
			resolved++
		}
		if enc(g.Record()) != before {
			t.Fatalf("move %d: the clone's moves reached the parent's record", n)
		}
		cBefore := enc(c.Record())
		// Page loads clone the kept game at once and play on their clones.
		var wg sync.WaitGroup
		for k := 0; k < 4; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				d := g.Clone()
				d.ResolveAll()
				if st := d.State(); !st.Over() {
					d.Play(st.Current(), Move{Placement: st.LegalPlacements(nil)[0]})
				}
			}()
		}
		wg.Wait()
		if enc(g.Record()) != before {
			t.Fatalf("move %d: the clones' moves reached the parent's record", n)
		}
		step(g)
		if enc(c.Record()) != cBefore {
			t.Fatalf("move %d: the parent's moves reached its clone's record", n)
		}
		if enc(rec) != before {
			t.Fatalf("move %d: a record taken before changed with the game", n)
		}
	}
	if resolved == 0 {
		t.Fatal("no choice was resolved: the test wrote no earlier turn")
	}
}
