package engine

import (
	"os"
	"path/filepath"
	"testing"
)

// Perft-style tables of legal placement counts. Every expected number below
// is derived by hand from the rules (the derivation is in the comments), and
// the positions are also checked against a brute force over cells written
// here, independent of the engine's incremental frontier.
//
// A normal placement is a (cell, hand tile, distinct rotation) triple: the
// count is cells × Σ over the distinct tiles in hand of their distinct
// rotations. 1111 looks the same in every rotation (1); 2101, 3001 and 3100
// have no rotational symmetry (4 each). Overbuilds add (own single tiles) ×
// the same sum, when the display and the pile are empty and the player has
// a sun token.

// perftSetup returns a valid setup for n players in which seat i's pile
// starts with hands[i] (the starting hand); the rest of each pile and the
// jungle pile are in kind order.
func perftSetup(t *testing.T, n int, hands ...[]Worker) Setup {
	t.Helper()
	su := Setup{Jungle: JungleSet(n)}
	for i := 0; i < n; i++ {
		rest := WorkerSet(n)
		var pile []Worker
		if i < len(hands) {
			for _, w := range hands[i] {
				k := 0
				for rest[k] != w {
					k++
				}
				rest = append(rest[:k], rest[k+1:]...)
				pile = append(pile, w)
			}
		}
		su.Workers = append(su.Workers, append(pile, rest...))
	}
	if err := su.Validate(); err != nil {
		t.Fatal(err)
	}
	return su
}

// perftRots is Σ over the distinct tiles of hand of their distinct rotations,
// counted from the edge patterns rather than the engine's rotation table.
func perftRots(hand [NumWorkerKinds]int) int {
	n := 0
	for w, c := range hand {
		if c == 0 {
			continue
		}
		seen := map[[4]uint8]bool{}
		for r := 0; r < 4; r++ {
			seen[Worker(w).Edges(r)] = true
		}
		n += len(seen)
	}
	return n
}

// perftBrute counts the legal placements of the current player by brute
// force over the cells of the board as View shows it: every empty cell
// (x+y odd) sharing an edge with a jungle tile, plus, when overbuilding is
// allowed, every cell holding exactly one tile, the player's own.
func perftBrute(s *State) (cells, overbuild int) {
	v := s.View(Spectator)
	stack := map[Cell][]TileView{}
	minX, minY, maxX, maxY := 0, 0, 0, 0
	for _, t := range v.Tiles {
		stack[t.At] = append(stack[t.At], t)
		minX, minY = min(minX, t.At.X), min(minY, t.At.Y)
		maxX, maxY = max(maxX, t.At.X), max(maxY, t.At.Y)
	}
	for y := minY - 1; y <= maxY+1; y++ {
		for x := minX - 1; x <= maxX+1; x++ {
			c := Cell{x, y}
			if (x+y)%2 == 0 {
				continue
			}
			if st := stack[c]; len(st) == 1 && st[0].Owner == s.Current() {
				overbuild++
			}
			if len(stack[c]) > 0 {
				continue
			}
			for _, nb := range []Cell{{x, y - 1}, {x + 1, y}, {x, y + 1}, {x - 1, y}} {
				if st := stack[nb]; len(st) > 0 && st[0].Jungle != NoJungle {
					cells++
					break
				}
			}
		}
	}
	if len(v.Display) > 0 || v.JunglePile > 0 || s.Player(s.Current()).Sun == 0 {
		overbuild = 0
	}
	return cells, overbuild
}

// perft counts the move sequences of depth plies, each move played with the
// default fills and reactions resolved at once (as a record does).
func perft(t *testing.T, s *State, depth int) int {
	t.Helper()
	moves := s.LegalPlacements(nil)
	if depth <= 1 {
		return len(moves)
	}
	total := 0
	for _, pl := range moves {
		c := s.Clone()
		if _, err := c.Play(c.Current(), Move{Placement: pl, Reactions: map[int][]Act{}}); err != nil {
			t.Fatalf("legal placement %+v refused: %v", pl, err)
		}
		total += perft(t, c, depth-1)
	}
	return total
}

// checkPerft checks the depth-1 count against want and the brute force.
func checkPerft(t *testing.T, s *State, want int) {
	t.Helper()
	legal := s.LegalPlacements(nil)
	cells, ob := perftBrute(s)
	rots := perftRots(s.Player(s.Current()).Hand)
	if len(legal) != want || (cells+ob)*rots != want {
		t.Fatalf("%d legal placements, brute force %d (%d cells, %d overbuilds, %d rotations); want %d",
			len(legal), (cells+ob)*rots, cells, ob, rots, want)
	}
	// No two placements are the same tile on the same cell.
	type key struct {
		at    Cell
		edges [4]uint8
		ob    bool
	}
	seen := map[key]bool{}
	for _, pl := range legal {
		k := key{pl.At, pl.Tile.Edges(pl.Rot), pl.Overbuild}
		if seen[k] {
			t.Fatalf("placement %+v listed twice", pl)
		}
		seen[k] = true
	}
}

// TestPerftOpening: the opening board holds P1 on [0,0] and M2 on [1,1].
// The worker cells sharing an edge with them are [0,-1], [1,0], [0,1],
// [-1,0] (around P1) and [1,0], [2,1], [1,2], [0,1] (around M2): 6 distinct
// cells. So the count is 6 × the hand's rotation sum.
func TestPerftOpening(t *testing.T) {
	for _, tc := range []struct {
		name     string
		n, first int // the hand is the first player's
		hand     []Worker
		want     int
	}{
		{"2p 1111 1111 1111", 2, 0, []Worker{W1111, W1111, W1111}, 6 * 1},           // one distinct tile: 6
		{"2p 1111 2101 2101", 2, 0, []Worker{W1111, W2101, W2101}, 6 * (1 + 4)},     // duplicates count once: 30
		{"2p 3001 1111 1111", 2, 1, []Worker{W3001, W1111, W1111}, 6 * (4 + 1)},     // 30
		{"2p 2101 3001 3100", 2, 0, []Worker{W2101, W3001, W3100}, 6 * (4 + 4 + 4)}, // mirror images differ: 72
		{"3p 1111 2101 3001", 3, 0, []Worker{W1111, W2101, W3001}, 6 * (1 + 4 + 4)}, // 54
		{"3p 3001 3100 2101", 3, 2, []Worker{W3001, W3100, W2101}, 6 * (4 + 4 + 4)}, // 72
		{"4p 3100 1111 3001", 4, 0, []Worker{W3100, W1111, W3001}, 6 * (4 + 1 + 4)}, // 54
		{"4p 2101 2101 2101", 4, 3, []Worker{W2101, W2101, W2101}, 6 * 4},           // 24
	} {
		t.Run(tc.name, func(t *testing.T) {
			hands := make([][]Worker, tc.n)
			hands[tc.first] = tc.hand
			s, err := New(perftSetup(t, tc.n, hands...), tc.first)
			if err != nil {
				t.Fatal(err)
			}
			checkPerft(t, s, tc.want)
			want := map[Cell]bool{{0, -1}: true, {1, 0}: true, {0, 1}: true, {-1, 0}: true, {2, 1}: true, {1, 2}: true}
			got := s.LegalCells(nil)
			if len(got) != len(want) {
				t.Fatalf("legal cells %v; want the 6 around the start tiles", got)
			}
			for _, c := range got {
				if !want[c] {
					t.Fatalf("legal cells %v; want the 6 around the start tiles", got)
				}
			}
		})
	}
}

// perftSample is the first nine turns of the sample record
// testdata/records/13-partial.json (2 players, seat 1 first).
const perftSample = `{"format":"cacao-record/1","players":["p0","p1"],"first":1,"setup":{
 "jungle":["P1","W","M3","S","T","G2","T","P2","M3","M2","M3","M4","P2","P1","P1","W","T","T","G1"],
 "workers":[["3001","1111","2101","1111","3100","2101","1111","2101","2101","1111","2101"],
            ["1111","2101","1111","2101","2101","1111","2101","3100","3001","2101","1111"]]},
 "turns":[
  {"p":1,"tile":"2101","rot":0,"at":[0,-1]},
  {"p":0,"tile":"2101","rot":3,"at":[1,0],"fills":[{"at":[1,-1],"tile":"P1"}]},
  {"p":1,"tile":"1111","rot":2,"at":[-1,0],"fills":[{"at":[-1,-1],"tile":"W"}]},
  {"p":0,"tile":"1111","rot":1,"at":[0,1],"fills":[{"at":[-1,1],"tile":"S"}]},
  {"p":1,"tile":"1111","rot":3,"at":[2,-1],"fills":[{"at":[2,0],"tile":"T"}]},
  {"p":0,"tile":"1111","rot":0,"at":[1,-2],"fills":[{"at":[0,-2],"tile":"G2"},{"at":[2,-2],"tile":"M3"}]},
  {"p":1,"tile":"2101","rot":0,"at":[3,-2]},
  {"p":0,"tile":"3100","rot":0,"at":[-2,1],"fills":[{"at":[-2,0],"tile":"M3"}]},
  {"p":1,"tile":"2101","rot":2,"at":[2,-3],"fills":[{"at":[1,-3],"tile":"P2"},{"at":[3,-3],"tile":"M2"}]}]}`

// perftSampleState replays the first k turns of perftSample.
func perftSampleState(t *testing.T, k int) *State {
	t.Helper()
	rec, err := DecodeRecord([]byte(perftSample))
	if err != nil {
		t.Fatal(err)
	}
	rec.Turns = rec.Turns[:k]
	s, err := Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPerftSample counts the legal placements after k turns of the sample.
// Hands: seat 0 starts with 3001 1111 2101, seat 1 with 1111 2101 1111; each
// draws the next tile of their pile after each turn. W cells (x+y odd) next
// to a jungle tile are listed per k.
func TestPerftSample(t *testing.T) {
	for _, tc := range []struct {
		k, want int
	}{
		// k=0, seat 1 (1111 2101 1111 → 1+4): the 6 opening cells → 6×5.
		{0, 30},
		// k=1, seat 0 (3001 1111 2101 → 4+1+4 = 9): [0,-1] taken; no fill
		// (its empty neighbours touch no other worker tile): 5 cells → 5×9.
		{1, 45},
		// k=2, seat 1 (played 2101, drew 2101: 1111 1111 2101 → 5): [1,0]
		// taken, P1 filled on [1,-1] (touches [0,-1] and [1,0]), adding
		// [1,-2] and [2,-1]: [0,1] [-1,0] [2,1] [1,2] [1,-2] [2,-1] → 6×5.
		{2, 30},
		// k=3, seat 0 (played 2101, drew 1111: 3001 1111 1111 → 5): [-1,0]
		// taken, W on [-1,-1] adds [-1,-2] [-2,-1]: 7 cells → 7×5.
		{3, 35},
		// k=4, seat 1 (played 1111, drew 2101: 1111 2101 2101 → 5): [0,1]
		// taken, S on [-1,1] adds [-1,2] [-2,1]: 8 cells → 8×5.
		{4, 40},
		// k=5, seat 0 (played 1111, drew 3100: 3001 1111 3100 → 9): [2,-1]
		// taken, T on [2,0] adds [3,0] ([2,1] was there): 8 cells → 8×9.
		{5, 72},
		// k=6, seat 1 (played 1111, drew 1111: 1111 2101 2101 → 5): [1,-2]
		// taken, G2 on [0,-2] adds [0,-3] [-1,-2](known), M3 on [2,-2] adds
		// [2,-3] [3,-2]: [2,1] [1,2] [-1,-2] [-2,-1] [-1,2] [-2,1] [3,0]
		// [0,-3] [2,-3] [3,-2] → 10×5.
		{6, 50},
	} {
		s := perftSampleState(t, tc.k)
		checkPerft(t, s, tc.want)
	}
	// Every later position of the sample agrees with the brute force.
	for k := 7; k <= 9; k++ {
		s := perftSampleState(t, k)
		cells, ob := perftBrute(s)
		checkPerft(t, s, (cells+ob)*perftRots(s.Player(s.Current()).Hand))
	}
}

// TestPerftDepth2 counts every legal first move with default fills times the
// legal replies. The replying seat's hand does not change on the mover's
// turn, so depth 2 = Σ over first moves of (cells after it) × (replier's
// rotation sum).
func TestPerftDepth2(t *testing.T) {
	t.Run("opening", func(t *testing.T) {
		// Seat 0 holds 1111 2101 2101 (5) and seat 1 2101 3001 3100 (12).
		// No first move fills anything (a needy cell would need a second
		// worker tile), so each leaves the other 5 cells: 30 first moves ×
		// 5 cells × 12 = 1800.
		s, err := New(perftSetup(t, 2, []Worker{W1111, W2101, W2101}, []Worker{W2101, W3001, W3100}), 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := perft(t, s, 1); got != 30 {
			t.Fatalf("depth 1: %d; want 30", got)
		}
		if got := perft(t, s, 2); got != 1800 {
			t.Fatalf("depth 2: %d; want 1800", got)
		}
	})
	t.Run("sample after 6 turns", func(t *testing.T) {
		// Seat 1 moves with 1111 2101 2101 (5 per cell) on the 10 cells of
		// TestPerftSample k=6; seat 0 replies with 3001 3100 2101 (12). The
		// display is T P2; each default fill puts T on the needy cell:
		//   [2,1]:  no needy cell              → 10-1     = 9 cells
		//   [1,2]:  T on [0,2] adds [0,3]      → 10-1+1   = 10
		//   [-1,-2]: no needy cell             → 9
		//   [-2,-1]: T on [-2,0] adds [-3,0]   → 10
		//   [-1,2]: T on [0,2] adds [0,3]      → 10
		//   [-2,1]: T on [-2,0] adds [-3,0]    → 10
		//   [3,0]:  T on [3,-1] adds [4,-1]    → 10
		//   [0,-3]: T on [1,-3] adds [1,-4]    → 10
		//   [2,-3]: T on [1,-3] adds [1,-4]    → 10
		//   [3,-2]: T on [3,-1] adds [4,-1]    → 10
		// Σ = 98 cells; depth 2 = 5 × 98 × 12 = 5880.
		s := perftSampleState(t, 6)
		if got := perft(t, s, 1); got != 50 {
			t.Fatalf("depth 1: %d; want 50", got)
		}
		if got := perft(t, s, 2); got != 5880 {
			t.Fatalf("depth 2: %d; want 5880", got)
		}
	})
}

// TestPerftSampleGames walks every finished sample record and, before each
// turn, compares the engine's count with the brute force, overbuilds
// included, and checks that the recorded move is one of the legal ones.
func TestPerftSampleGames(t *testing.T) {
	files, _ := filepath.Glob("testdata/records/*-full.json")
	if len(files) == 0 {
		t.Skip("no sample records")
	}
	positions, withOverbuild := 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := DecodeRecord(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		s, err := New(rec.Setup, rec.First)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for k, tn := range rec.Turns {
			cells, ob := perftBrute(s)
			rots := perftRots(s.Player(s.Current()).Hand)
			legal := s.LegalPlacements(nil)
			if len(legal) != (cells+ob)*rots {
				t.Fatalf("%s turn %d: %d legal placements; brute force %d cells + %d overbuilds × %d rotations",
					f, k, len(legal), cells, ob, rots)
			}
			positions++
			if ob > 0 {
				withOverbuild++
			}
			found := false
			pl := tn.Move.Placement
			for _, l := range legal {
				if l.At == pl.At && l.Overbuild == pl.Overbuild && l.Tile == pl.Tile && l.Tile.Edges(l.Rot) == pl.Tile.Edges(pl.Rot) {
					found = true
				}
			}
			if !found {
				t.Fatalf("%s turn %d: the recorded move %+v is not among the legal placements", f, k, pl)
			}
			m := tn.Move
			if m.Reactions == nil {
				m.Reactions = map[int][]Act{}
			}
			if _, err := s.Play(tn.Seat, m); err != nil {
				t.Fatalf("%s turn %d: %v", f, k, err)
			}
		}
	}
	if withOverbuild == 0 {
		t.Fatalf("none of %d positions allowed an overbuild: the overbuild count is untested", positions)
	}
	t.Logf("%d positions, %d with overbuilds", positions, withOverbuild)
}
