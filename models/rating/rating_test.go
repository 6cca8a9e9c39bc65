package rating

import (
	"math"
	"testing"
)

// TestGlickmanExample is the worked example of Glickman's "Example of the
// Glicko-2 system": a player rated 1500 (RD 200, volatility 0.06) beats a
// 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300); with
// tau 0.5 the new rating is 1464.06, RD 151.52, volatility 0.05999.
func TestGlickmanExample(t *testing.T) {
	got := Update(Rating{R: 1500, RD: 200, Vol: 0.06}, []Result{
		{Opponent: Rating{R: 1400, RD: 30}, Score: 1},
		{Opponent: Rating{R: 1550, RD: 100}, Score: 0},
		{Opponent: Rating{R: 1700, RD: 300}, Score: 0},
	})
	if math.Abs(got.R-1464.06) > 0.01 || math.Abs(got.RD-151.52) > 0.01 || math.Abs(got.Vol-0.05999) > 0.00001 {
		t.Fatalf("got %.2f RD %.2f vol %.5f; want 1464.06 RD 151.52 vol 0.05999", got.R, got.RD, got.Vol)
	}
}

// TestNoGames: a period without games only widens the deviation.
func TestNoGames(t *testing.T) {
	got := Update(Rating{R: 1600, RD: 50, Vol: 0.06}, nil)
	if got.R != 1600 || math.Abs(got.RD-math.Sqrt(50*50+(0.06*173.7178)*(0.06*173.7178))) > 1e-9 {
		t.Fatalf("got %+v", got)
	}
}

// TestTable: in a game of three new players the winner gains what the
// last loses, the middle one stays put; a tie of two equals changes
// neither's rating. A player who does not count moves nobody, and is
// rated against those who count.
func TestTable(t *testing.T) {
	all := []bool{true, true, true}
	out, rated := Table([]Rating{New, New, New}, []int{1, 2, 3}, all)
	if !(out[0].R > 1500 && out[2].R < 1500) || math.Abs(out[1].R-1500) > 1e-9 || math.Abs((out[0].R-1500)+(out[2].R-1500)) > 1e-9 {
		t.Fatalf("three new players: %+v", out)
	}
	if rated[0] != true || rated[1] != true || rated[2] != true {
		t.Fatalf("three new players, not all rated: %v", rated)
	}
	tie, _ := Table([]Rating{New, New}, []int{1, 1}, all[:2])
	if math.Abs(tie[0].R-1500) > 1e-9 || math.Abs(tie[1].R-1500) > 1e-9 || tie[0].RD >= 350 {
		t.Fatalf("a tie: %+v", tie)
	}
	out, rated = Table([]Rating{New, New, New}, []int{1, 2, 3}, []bool{false, true, false})
	if out[1] != New || rated[1] || !rated[0] || !rated[2] || out[0].R <= 1500 || out[2].R >= 1500 {
		t.Fatalf("the middle player alone counts: %+v, rated %v", out, rated)
	}
}
