// Package rating is the Glicko-2 rating system (Mark Glickman, "Example
// of the Glicko-2 system", 2012), applied to multiplayer games through
// the pairwise results of their final ranking: each game is a rating
// period of its own, in which a player met every other rated player of
// the table once, winning against those ranked below, losing against
// those above and drawing with those tied.
package rating

import "math"

// Rating is a player's Glicko-2 rating on the Glicko scale: R, its
// deviation RD and its volatility.
type Rating struct {
	R, RD, Vol float64
}

// New is a new player's rating.
var New = Rating{R: 1500, RD: 350, Vol: 0.06}

// Tau constrains how fast the volatility changes (the system constant).
const Tau = 0.5

// Provisional is how many rated games a rating needs before it counts as
// established.
const Provisional = 10

// scale converts between the Glicko and the Glicko-2 scales.
const scale = 173.7178

// Result is one game against one opponent: their rating before the game
// and the score (1 a win, 0.5 a draw, 0 a loss).
type Result struct {
	Opponent Rating
	Score    float64
}

func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func expect(mu, muj, phij float64) float64 { return 1 / (1 + math.Exp(-g(phij)*(mu-muj))) }

// Update is r after a rating period with results (none: only its
// deviation grows).
func Update(r Rating, results []Result) Rating {
	mu, phi := (r.R-1500)/scale, r.RD/scale
	if len(results) == 0 {
		return Rating{R: r.R, RD: math.Sqrt(phi*phi+r.Vol*r.Vol) * scale, Vol: r.Vol}
	}
	var vinv, sum float64
	for _, res := range results {
		muj, phij := (res.Opponent.R-1500)/scale, res.Opponent.RD/scale
		e := expect(mu, muj, phij)
		vinv += g(phij) * g(phij) * e * (1 - e)
		sum += g(phij) * (res.Score - e)
	}
	v := 1 / vinv
	delta := v * sum
	vol := volatility(phi, v, delta, r.Vol)
	star := math.Sqrt(phi*phi + vol*vol)
	phi2 := 1 / math.Sqrt(1/(star*star)+1/v)
	mu2 := mu + phi2*phi2*sum
	return Rating{R: mu2*scale + 1500, RD: phi2 * scale, Vol: vol}
}

// volatility is step 5 of the system: the new volatility, found by the
// Illinois algorithm.
func volatility(phi, v, delta, sigma float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(Tau*Tau)
	}
	const eps = 0.000001
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*Tau) < 0 {
			k++
		}
		B = a - k*Tau
	}
	fA, fB := f(A), f(B)
	for math.Abs(B-A) > eps {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

// Table rates one game: ratings[i] is player i's rating before it, ranks[i]
// their place (1 first; equal places tie) and counts[i] whether others
// meet them in their rating period. It returns each player's rating after
// the game, and whether it was rated: a player who met no counted
// opponent keeps their rating.
func Table(ratings []Rating, ranks []int, counts []bool) ([]Rating, []bool) {
	out, rated := make([]Rating, len(ratings)), make([]bool, len(ratings))
	for i := range ratings {
		var results []Result
		for j := range ratings {
			if i == j || !counts[j] {
				continue
			}
			score := 0.5
			switch {
			case ranks[i] < ranks[j]:
				score = 1
			case ranks[i] > ranks[j]:
				score = 0
			}
			results = append(results, Result{Opponent: ratings[j], Score: score})
		}
		out[i], rated[i] = ratings[i], len(results) > 0
		if rated[i] {
			out[i] = Update(ratings[i], results)
		}
	}
	return out, rated
}
