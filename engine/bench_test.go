package engine

import "testing"

// benchMidGame returns the position after 12 turns of a fixed 4-player game
// whose moves are drawn uniformly from LegalPlacements (default fills,
// reactions resolved at once), so the board is a typical mid-game one.
func benchMidGame(tb testing.TB) *State {
	tb.Helper()
	su, err := NewSetup(4, 2024)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := New(su, 0)
	if err != nil {
		tb.Fatal(err)
	}
	r := NewRand(99)
	for s.Turns() < 12 {
		legal := s.LegalPlacements(nil)
		if len(legal) == 0 {
			tb.Fatalf("no legal placement after %d turns", s.Turns())
		}
		pl := legal[r.Intn(len(legal))]
		if _, err := s.Play(s.Current(), Move{Placement: pl, Reactions: map[int][]Act{}}); err != nil {
			tb.Fatal(err)
		}
	}
	return s
}

// BenchmarkLegalPlacements lists the legal placements of a mid-game position
// into a reused buffer. The target is at most 5 µs/op and no allocation.
func BenchmarkLegalPlacements(b *testing.B) {
	s := benchMidGame(b)
	buf := s.LegalPlacements(nil)
	if len(buf) == 0 {
		b.Fatal("no legal placement in the benchmark position")
	}
	b.ReportAllocs()
	for b.Loop() {
		buf = s.LegalPlacements(buf[:0])
	}
	b.ReportMetric(float64(len(buf)), "placements")
}
