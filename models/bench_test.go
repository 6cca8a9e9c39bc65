package models

import (
	"path/filepath"
	"testing"
)

// BenchmarkCommit commits the moves of two people playing, one move (a
// turn or a pending choice) per iteration, through the store on a WAL file
// as the server does, with a turn limit so that clocks and notices are
// written too. Each finished game is followed by a new one, untimed.
func BenchmarkCommit(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	ana, bob := mustUser(b, s, "ana"), mustUser(b, s, "bob")
	users := map[uint]*User{ana.ID: ana, bob.ID: bob}
	newGame := func() *Loaded { return twoPlayerGame(b, s, ana, bob) }
	l := newGame()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if l.Game.Status != StatusActive {
			b.StopTimer()
			l = newGame()
			b.StartTimer()
		}
		l = playNext(b, s, l, users)
	}
}
