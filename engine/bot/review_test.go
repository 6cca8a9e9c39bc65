package bot

import (
	"errors"
	"reflect"
	"testing"

	"cacao/engine"
)

// quickReview is a review small enough for the tests.
var quickReview = Review{Search: Search{Iterations: 400}, Deals: 12}

// A review judges from what the player's seat saw: two positions that
// differ only in the others' hands and the piles' order get the same
// review of the same move, from the same seed.
func TestReviewSeesOnlyItsSeat(t *testing.T) {
	for _, tc := range []struct{ n, turns int }{{2, 3}, {3, 7}} {
		n := tc.n
		s := midGame(t, n, uint64(n), tc.turns)
		seat := s.Current()
		sp := s.Sampler(seat)
		other := sp.Sample(engine.NewRand(7)).Clone()
		sp.Close()
		if reflect.DeepEqual(hands(s), hands(other)) {
			t.Fatalf("%d players: the positions' hidden hands do not differ", n)
		}
		m, err := (&Random{}).Move(s.Clone(), engine.NewRand(3))
		if err != nil {
			t.Fatal(err)
		}
		a, err := quickReview.Turn(s, m, engine.NewRand(5))
		if err != nil {
			t.Fatal(err)
		}
		b, err := quickReview.Turn(other, m, engine.NewRand(5))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%d players: one position's review %+v, the other's %+v", n, a, b)
		}
	}
}

// The bot's own move, judged, is the best: the same move, the same share.
// A random move is judged on the same deals as the bot's and, over a few
// positions, gives away a share of the wins; the shares are shares.
func TestReviewJudgesMoves(t *testing.T) {
	lost, worst := 0.0, 0.0
	for i := uint64(0); i < 6; i++ {
		s := midGame(t, 2, 40+i, 6+int(i)*3)
		choice, err := quickReview.Search.Think(s.Clone(), engine.NewRand(5))
		if err != nil {
			t.Fatal(err)
		}
		own, err := quickReview.Turn(s, choice.Move, engine.NewRand(5))
		if err != nil {
			t.Fatal(err)
		}
		if !own.Same || own.PlayedWon != own.BestWon || own.Lost() != 0 || !sameLay(own.Best, choice.Move) {
			t.Fatalf("the bot's own move judged: %+v", own)
		}
		m, err := (&Random{}).Move(s.Clone(), engine.NewRand(i))
		if err != nil {
			t.Fatal(err)
		}
		tr, err := quickReview.Turn(s, m, engine.NewRand(5))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []float64{tr.PlayedWon, tr.BestWon} {
			if w < 0 || w > 1 {
				t.Fatalf("a share of %v", w)
			}
		}
		lost += tr.BestWon - tr.PlayedWon
		worst = max(worst, tr.Lost())
	}
	t.Logf("random moves gave away %.2f of a win in all, %.2f at worst", lost, worst)
	if lost <= 0 || worst < 0.2 {
		t.Fatalf("random moves gave away %.2f of a win in all against the bot's, %.2f at worst: the review cannot tell them apart", lost, worst)
	}
}

// A move that is no turn of the position is refused.
func TestReviewRefusesAnIllegalMove(t *testing.T) {
	s := midGame(t, 2, 3, 4)
	m, err := (&Random{}).Move(s.Clone(), engine.NewRand(1))
	if err != nil {
		t.Fatal(err)
	}
	m.At = engine.Cell{X: 900, Y: 900}
	if _, err := quickReview.Turn(s, m, engine.NewRand(1)); !errors.Is(err, ErrNotATurn) {
		t.Fatalf("an illegal move reviewed: %v", err)
	}
}

// BenchmarkReviewTurn is a turn's review as the site makes it (the
// search's 3,000 iterations, DefaultDeals), mid-game, two players.
func BenchmarkReviewTurn(b *testing.B) {
	s := midGame(b, 2, 7, 12)
	m, err := Greedy{}.Move(s.Clone(), engine.NewRand(1))
	if err != nil {
		b.Fatal(err)
	}
	rv := Review{Search: Search{Iterations: 3000}}
	for i := 0; i < b.N; i++ {
		if _, err := rv.Turn(s, m, engine.NewRand(uint64(i))); err != nil {
			b.Fatal(err)
		}
	}
}
