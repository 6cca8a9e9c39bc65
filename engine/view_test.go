package engine

import (
	"reflect"
	"testing"
)

// TestViewHidesHiddenInformation: two games that differ only in what seat 0
// may not see (seat 1's hand and pile order, the jungle pile's order below the
// display) look identical to seat 0 and to a spectator, turn after turn.
func TestViewHidesHiddenInformation(t *testing.T) {
	a, _ := NewSetup(2, 5)
	b, _ := NewSetup(2, 5)
	// Another order of seat 1's pile (hand included) and of the jungle pile
	// after the two display tiles.
	b.Workers[1] = append([]Worker(nil), b.Workers[1]...)
	for i, j := 0, len(b.Workers[1])-1; i < j; i, j = i+1, j-1 {
		b.Workers[1][i], b.Workers[1][j] = b.Workers[1][j], b.Workers[1][i]
	}
	b.Jungle = append([]Jungle(nil), b.Jungle...)
	rest := b.Jungle[2:]
	for i, j := 0, len(rest)-1; i < j; i, j = i+1, j-1 {
		rest[i], rest[j] = rest[j], rest[i]
	}
	if reflect.DeepEqual(a, b) {
		t.Fatal("setups must differ")
	}
	sa, _ := New(a, 0)
	sb, _ := New(b, 0)
	for _, viewer := range []int{0, Spectator} {
		if va, vb := sa.View(viewer), sb.View(viewer); !reflect.DeepEqual(va, vb) {
			t.Fatalf("viewer %d tells the two games apart:\n%+v\n%+v", viewer, va, vb)
		}
	}
	// Seat 0 plays the same first move in both; the views stay equal.
	m := Move{Placement: sa.LegalPlacements(nil)[0]}
	if _, err := sa.Play(0, m); err != nil {
		t.Fatal(err)
	}
	if _, err := sb.Play(0, m); err != nil {
		t.Fatal(err)
	}
	if va, vb := sa.View(0), sb.View(0); !reflect.DeepEqual(va.Hand, vb.Hand) || !reflect.DeepEqual(va.Seats, vb.Seats) || !reflect.DeepEqual(va.Tiles, vb.Tiles) {
		t.Fatal("after the same move seat 0 tells the games apart")
	}
	// Seat 1's view is where their own hand shows, and only there.
	v1 := sa.View(1)
	if !reflect.DeepEqual(v1.Hand, sa.Player(1).HandTiles()) || len(v1.Legal) == 0 {
		t.Fatalf("seat 1's own view lacks their hand or moves: %+v", v1)
	}
	if v := sa.View(0); v.Legal != nil {
		t.Fatal("seat 0 sees legal moves when it is not their turn")
	}
	if v := sa.View(Spectator); v.Hand != nil || v.Queue != nil || v.Legal != nil {
		t.Fatal("a spectator sees a hand, a queue or moves")
	}
}

// TestViewShowsPublicState: counts, villages, the display and the board.
func TestViewShowsPublicState(t *testing.T) {
	su, _ := NewSetup(3, 9)
	s, _ := New(su, 2)
	v := s.View(0)
	if v.Players != 3 || v.Current != 2 || v.TotalTurns != 30 || v.JunglePile != 24 || len(v.Display) != 2 || v.Over {
		t.Fatalf("view %+v", v)
	}
	if len(v.Tiles) != 2 || v.Tiles[0].Jungle != P1 || v.Tiles[1].Jungle != M2 || v.Tiles[1].At != startM2 {
		t.Fatalf("start tiles %+v", v.Tiles)
	}
	for _, sv := range v.Seats {
		if sv.Hand != 3 || sv.Pile != 7 || sv.Water != -10 || sv.Gold != 0 {
			t.Fatalf("seat %+v", sv)
		}
	}
}

// TestGameRecordsLateResolutions: in live play a batch that needs a choice
// waits; when it is resolved later, the record attaches the choice to the
// turn that caused it, and the exported record replays to the same result.
func TestGameRecordsLateResolutions(t *testing.T) {
	waited := 0
	for seed := uint64(1); seed <= 40; seed++ {
		su, _ := NewSetup(3, seed)
		g, err := NewGame([]string{"a", "b", "c"}, 1, su)
		if err != nil {
			t.Fatal(err)
		}
		r := NewRand(seed)
		for !g.State().Over() {
			s := g.State()
			seat := s.Current()
			for len(s.Player(seat).Queue()) > 0 {
				waited++
				b := s.Player(seat).Queue()[0]
				// A random choice: random use per edge, in reverse default order.
				var acts []Act
				for i := len(b.Edges) - 1; i >= 0; i-- {
					e := b.Edges[i]
					acts = append(acts, Act{Tile: e.Tile, Side: e.Side, Use: r.Intn(e.Workers + 1)})
				}
				if _, err := g.Resolve(seat, acts); err != nil {
					t.Fatal(err)
				}
			}
			legal := s.LegalPlacements(nil)
			m := Move{Placement: legal[r.Intn(len(legal))]}
			if !m.Overbuild {
				if opts := s.FillOptions(m.At); len(opts) > 0 {
					m.Fills = opts[r.Intn(len(opts))]
				}
			}
			if _, err := g.Play(seat, m); err != nil {
				t.Fatal(err)
			}
		}
		g.ResolveAll()
		if g.State().Pending() {
			t.Fatal("ResolveAll left batches pending")
		}
		data, err := g.Record().Encode()
		if err != nil {
			t.Fatal(err)
		}
		rec, err := DecodeRecord(data)
		if err != nil {
			t.Fatal(err)
		}
		s2, err := Replay(rec)
		if err != nil {
			t.Fatalf("seed %d: exported record does not replay: %v", seed, err)
		}
		if !reflect.DeepEqual(s2.Score(), g.State().Score()) {
			t.Fatalf("seed %d: replay scores %+v; live %+v", seed, s2.Score().Scores, g.State().Score().Scores)
		}
	}
	if waited < 10 {
		t.Fatalf("only %d batches waited for a choice; the test does not exercise late resolution", waited)
	}
}
