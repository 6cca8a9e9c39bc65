package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// rung is one step of the ladder: a bot and its Elo, found from its match
// against the rung below.
type rung struct {
	name       string
	score      float64 // against the rung below: a win 1, a shared first ½
	games      int
	step, elo  float64
	half       float64 // of elo's 95% confidence interval
	bound      bool    // it won or lost every game: step is a bound
	secPerMove float64
}

// runLadder prints the Elo ladder of c.a, a search, across the iteration
// counts in c.ladder: random (Elo 0, the anchor), greedy, then c.a with each
// count, each rung playing c.games seat-balanced two-player games against
// the rung below it. A line for each rung is printed as it is done, then one
// LADDER line for each, for scripts.
func runLadder(c config, out io.Writer) error {
	if c.players != 2 || c.games < 2 {
		return fmt.Errorf("the ladder is of two-player games, at least 2 a rung")
	}
	names := []string{"random", "greedy"}
	last := 0
	for _, f := range strings.Split(c.ladder, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k <= last {
			return fmt.Errorf("-rungs %q: want rising iteration counts, comma-separated", c.ladder)
		}
		last = k
		names = append(names, fmt.Sprintf("%s@%d", c.a, k))
	}
	for _, n := range names[2:] {
		if _, err := c.newBot(n); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "Elo ladder of %s, 2 players, %d games a rung (seeds from %d), anchored to random = 0\n", c.a, c.games, c.seed)
	fmt.Fprintf(out, "%-16s %7s  %-18s %7s  %-16s %s\n", "rung", "Elo", "95% CI", "step", "against", "score")
	fmt.Fprintf(out, "%-16s %+7.0f  %-18s\n", names[0], 0.0, "(anchor)")
	lines := []string{fmt.Sprintf("LADDER rung=%s elo=0 lo=0 hi=0 step=0 against= score=0 games=0 bound=false s_per_move=0\n", names[0])}
	below := rung{name: names[0]}
	variance := 0.0
	for _, n := range names[1:] {
		m := c
		m.a, m.b = n, below.name
		gs, _, err := match(m)
		if err != nil {
			return err
		}
		r := rung{name: n, games: len(gs)}
		moves, think := 0, time.Duration(0)
		for _, g := range gs {
			switch {
			case g.first[0] && g.shared:
				r.score += 0.5
			case g.first[0]:
				r.score++
			}
			moves += g.moves[0]
			think += g.think[0]
		}
		if moves > 0 {
			r.secPerMove = think.Seconds() / float64(moves)
		}
		var v float64
		r.step, v, r.bound = eloStep(r.score, r.games)
		variance += v
		r.elo = below.elo + r.step
		r.half = 1.96 * math.Sqrt(variance)
		mark := ""
		if r.bound {
			mark = " (all or none: the step is a bound)"
		}
		fmt.Fprintf(out, "%-16s %+7.0f  [%+6.0f, %+6.0f]   %+7.0f  %-16s %g/%d%s\n", r.name, r.elo, r.elo-r.half, r.elo+r.half, r.step, below.name, r.score, r.games, mark)
		lines = append(lines, fmt.Sprintf("LADDER rung=%s elo=%.0f lo=%.0f hi=%.0f step=%.0f against=%s score=%g games=%d bound=%t s_per_move=%.4f\n",
			r.name, r.elo, r.elo-r.half, r.elo+r.half, r.step, below.name, r.score, r.games, r.bound, r.secPerMove))
		below = r
	}
	for _, l := range lines {
		fmt.Fprint(out, l)
	}
	return nil
}

// eloStep is the Elo difference shown by score points of games (a win 1, a
// shared first ½), 400·log10(p/(1−p)) with p the share, and its variance by
// the delta method from the binomial p(1−p)/games. A share of 0 or 1 is
// taken as half a game less (bound true): the step is then at least (or at
// most) what it says.
func eloStep(score float64, games int) (step, variance float64, bound bool) {
	n := float64(games)
	if score <= 0 {
		score, bound = 0.5, true
	} else if score >= n {
		score, bound = n-0.5, true
	}
	p := score / n
	step = 400 * math.Log10(p/(1-p))
	d := 400 / math.Ln10 / (p * (1 - p))
	return step, d * d * p * (1 - p) / n, bound
}
