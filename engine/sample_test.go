package engine

import (
	"fmt"
	"reflect"
	"testing"
)

// playRandom plays k random legal turns on s (default fills; batches join
// their queues, as on the site, and wait there until the next turn).
func playRandom(t *testing.T, s *State, k int, r *Rand) {
	t.Helper()
	for i := 0; i < k && !s.Over(); i++ {
		s.ResolveAll()
		legal := s.LegalPlacements(nil)
		if _, err := s.Play(s.Current(), Move{Placement: legal[r.Intn(len(legal))]}); err != nil {
			t.Fatal(err)
		}
	}
}

// hidden is everything a seat may not see: the jungle pile in order, every
// hand and every pile.
func hidden(s *State) (jungle []Jungle, hands [][NumWorkerKinds]int, piles [][]Worker) {
	jungle = append(jungle, s.jungle[s.jpos:]...)
	for i := range s.players {
		p := &s.players[i]
		hands = append(hands, p.Hand)
		piles = append(piles, append([]Worker{}, p.pile[p.ppos:]...))
	}
	return
}

// A sample shows the seat exactly what the position shows it, however
// it is played afterwards, and its hidden parts keep every tile count.
func TestSampleAgreesWithWhatTheSeatSees(t *testing.T) {
	for n := 2; n <= 4; n++ {
		su, _ := NewSetup(n, uint64(n))
		s, _ := New(su, 0)
		r := NewRand(5)
		playRandom(t, s, 3*n+1, r)
		for seat := 0; seat < n; seat++ {
			want := s.View(seat)
			sp := s.Sampler(seat)
			dealt := map[string]bool{}
			for k := 0; k < 40; k++ {
				c := sp.Sample(r)
				if got := c.View(seat); !reflect.DeepEqual(got, want) {
					t.Fatalf("%d players, seat %d, sample %d: the seat sees %+v, want %+v", n, seat, k, got, want)
				}
				j, hands, piles := hidden(c)
				tj, thands, tpiles := hidden(s)
				if !reflect.DeepEqual(sorted(j), sorted(tj)) {
					t.Fatalf("the sampled jungle pile holds other tiles: %v, want %v", j, tj)
				}
				for i := range hands {
					if len(piles[i]) != len(tpiles[i]) || c.players[i].HandSize() != s.players[i].HandSize() {
						t.Fatalf("seat %d's hand or pile changed size", i)
					}
					all := append(c.players[i].HandTiles(), piles[i]...)
					tall := append(s.players[i].HandTiles(), tpiles[i]...)
					if !reflect.DeepEqual(sorted(all), sorted(tall)) {
						t.Fatalf("seat %d's unplayed tiles changed: %v, want %v", i, all, tall)
					}
					if i == seat && hands[i] != thands[i] {
						t.Fatalf("the seat's own hand changed")
					}
				}
				dealt[sampleKey(j, hands, piles)] = true
				playRandom(t, c, 1000, r) // the next sample starts from s again
			}
			sp.Close()
			if len(dealt) < 10 {
				t.Fatalf("%d players, seat %d: 40 samples gave only %d deals", n, seat, len(dealt))
			}
		}
	}
}

func sampleKey(j []Jungle, hands [][NumWorkerKinds]int, piles [][]Worker) string {
	return fmt.Sprint(j, hands, piles)
}

// Two positions that differ only in what seat 0 cannot see give seat 0
// the same samples from the same Rand: nothing hidden reaches them.
func TestSampleIgnoresHiddenParts(t *testing.T) {
	su, _ := NewSetup(3, 11)
	s, _ := New(su, 0)
	playRandom(t, s, 7, NewRand(3))
	// other is s with every hidden part dealt otherwise.
	sp := s.Sampler(0)
	other := sp.Sample(NewRand(99)).Clone()
	sp.Close()
	j1, h1, p1 := hidden(s)
	j2, h2, p2 := hidden(other)
	if reflect.DeepEqual(j1, j2) && reflect.DeepEqual(h1, h2) && reflect.DeepEqual(p1, p2) {
		t.Fatal("the two positions do not differ")
	}
	// other shares the closed Sampler's board: new samples must not
	// write it.
	seen := other.View(0)
	for k := 0; k < 5; k++ {
		sp := s.Sampler(1)
		playRandom(t, sp.Sample(NewRand(uint64(k))), 100, NewRand(1))
		sp.Close()
	}
	if !reflect.DeepEqual(other.View(0), seen) {
		t.Fatal("a clone of a sample changed after its Sampler closed")
	}
	a, b := s.Sampler(0), other.Sampler(0)
	ra, rb := NewRand(7), NewRand(7)
	for k := 0; k < 20; k++ {
		ja, ha, pa := hidden(a.Sample(ra))
		jb, hb, pb := hidden(b.Sample(rb))
		if !reflect.DeepEqual(ja, jb) || !reflect.DeepEqual(ha, hb) || !reflect.DeepEqual(pa, pb) {
			t.Fatalf("sample %d differs between positions seat 0 cannot tell apart", k)
		}
	}
}

// BenchmarkSample deals a mid-game position for seat 0 and plays it out at
// random, as one iteration of a search does.
func BenchmarkSample(b *testing.B) {
	s := benchMidGame(b)
	sp := s.Sampler(0)
	defer sp.Close()
	r := NewRand(1)
	b.ReportAllocs()
	for b.Loop() {
		sp.Sample(r)
	}
}
