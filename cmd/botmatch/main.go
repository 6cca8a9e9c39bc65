// Command botmatch plays bots against each other and tells which is
// stronger:
//
//	go run ./cmd/botmatch -a hard -b greedy -games 400 -players 2
//
// Bot a takes one seat, bot b every other. Games come in sets of one deal
// per seat: the same setup is played with a in each seat in turn, so
// neither the deal nor the seat favours a bot. Games run in parallel, one
// per core, each bot thinking on one core. It prints how often a finished
// first (alone or shared) against each b seat, a's mean margin over the
// best b total with its 95% confidence interval, and each bot's moves per
// second, then one RESULT line for scripts.
//
// A search bot named with a count after an @ ("hard@2000", "hard-v1@500")
// makes that many iterations a move, whatever -budget and -iterations say:
// that is how two searches meet at fixed, different or equal, counts. "hard"
// is the current search, "hard-v1" the one before issue 40 (engine/bot).
//
// # The ladder
//
//	go run ./cmd/botmatch -ladder -a hard -rungs 250,500,1000,2000,4000 -games 100
//
// -ladder plays, instead of a match, an Elo ladder of search a (default
// hard) across iteration counts: random is the anchor (Elo 0), greedy plays
// random, a@k (k the first of -rungs, rising, comma-separated) plays greedy,
// and each next count plays the one before, -games seat-balanced two-player
// games a rung (from -seed, as a match). A rung's step is 400·log10(p/(1−p)),
// p its share of points against the rung below (a first place alone 1, a
// shared one ½); a step from a sweep (p 0 or 1) counts half a game less and
// is marked as a bound. The Elo is the sum of the steps below; its 95 %
// interval is ±1.96 √(Σ var) over the steps (delta method from the binomial
// p(1−p)/games), so it widens up the ladder. Output: a title line, a header,
// then one line per rung as it finishes,
//
//	rung  Elo  [lo, hi]  step  against  score/games
//
// and at the end one line per rung for scripts:
//
//	LADDER rung=hard@500 elo=871 lo=731 hi=1011 step=118 against=hard@250 score=33.5 games=50 bound=false s_per_move=0.0262
//
// (s_per_move: the rung's thinking time a move in its match.)
//
// # Figures
//
// Against greedy at 1 s a move (measured 2026-12-07), each match with
// -workers 1 on one core (taskset):
//
//   - Four players, the search as at commit 1854afd, whose four-player
//     playouts weigh 16 random moves a turn (engine/bot, samples), four
//     samples of deals, two at once, each on a core of its own, nothing
//     else running: -players 4 -games 120 with -seed 1, 1001, 2001 and
//     3001: first alone in 106, 113, 112 and 108 of each 120, 1, 1, 1 and 0
//     shared; together 439 of 480 (91.5 %; a share's 95 % interval here
//     is about ±2.5 points); margins +8.2 (+7.1 to +9.4), +9.0 (+8.1 to
//     +10.0), +9.2 (+8.1 to +10.3) and +8.1 (+6.9 to +9.2); 0.98 s a
//     move. The target is 90 %.
//     The search before, six moves a turn (the build of fd20403), on the
//     deals of -seed 1 and 1001: 106 and 98 of each 120 (85.0 % of 240),
//     margins +7.4 (+6.4 to +8.5) and +6.4 (+5.3 to +7.5). Its 93.3 % of
//     120 below, on the deals of -seed 1, was the luck of those deals and
//     of the time each move got.
//   - Three players (-players 3 -games 120), the search as at commit
//     1c8d52b and since (the build of fd20403, the other core running
//     builds and tests): first alone in 115 of 120 (95.8 %), none shared,
//     the greedy seats first in 2 and 3; margin +8.8 (+7.8 to +9.9); 0.98
//     s a move. The target is 90 %.
//   - Two players, the same build, the deals of -games 400 in two halves
//     (-seed 101 -games 200, then -seed 1 -games 200, each on a core
//     shared with this session's builds and tests, which only takes time
//     from the hard bot): first alone in 195 and 194 of each 200, 389 of
//     400 (97.2 %), 1 shared; margin +12.9 and +13.0 (+12.2 to +13.7 and
//     +12.2 to +13.8); 0.94 s a move. The target is 95 %.
//
// Against three hard-v1 at equal time, four players, the search as at
// commit 1854afd (-a hard -b hard-v1 -players 4 -games 120 -workers 2,
// the two cores to the match alone): at 1 s a move (-budget 1s), first
// alone in 71 of 120 (59.2 %), 3 shared, the hard-v1 seats first in 18, 11
// and 22; margin over the best of them +2.0 (+1.1 to +3.0); at 200 ms
// (-budget 200ms), 62 of 120 (51.7 %), 5 shared, the others 18, 17 and
// 24; margin +0.3 (−0.7 to +1.3). The target is 45 %; a share's 95 %
// interval of 120 games is about ±9 points. The figures of two and three
// players below are of the search as it still plays them.
//
// On a quiet machine (2026-12-06): the match alone on one of the two
// cores (taskset -c 1, -workers 1), all else kept on the other.
//
//   - Against hard-v1 at equal time, 200 ms a move (-a hard -b hard-v1
//     -budget 200ms -games 400 -workers 1), the bots as at commit
//     166ad86, whose two-player moves before the solved endgame share the
//     time it leaves (Search.share): hard first alone in 301 of 400 games
//     (75.2 %), 10 shared, hard-v1 first in 99; margin +3.7 points (95 %
//     CI +3.1 to +4.2); 0.194 s a move against hard-v1's 0.196. The
//     target is 70 %; a share's 95 % interval here is about ±4.2 points.
//     Before that change (commit 135e5e7), each move had 200 ms and the
//     solved ones finished early: 274 of 400 (68.5 %), 9 shared, margin
//     +3.3 (+2.7 to +3.9), 0.166 s a move.
//   - Against hard-v1 at equal time, 1 s a move, the bots as at commit
//     b9082ab, in two halves at once, one a core (taskset -c 1 … -seed 1
//     -games 200 and taskset -c 0 … -seed 101 -games 200, -a hard -b
//     hard-v1 -budget 1s -workers 1: together the deals of -games 400):
//     hard first alone in 297 of 400 games (74.2 %; 148 and 149 of each
//     200), 4 shared, hard-v1 first in 103; margin +4.3 and +5.0 points
//     (95 % CI +3.5 to +5.1 and +4.2 to +5.8); 0.94 s a move against
//     hard-v1's 0.98. The target is 70 %.
//   - Three players, against two hard-v1 at equal time, 1 s a move (-a hard
//     -b hard-v1 -budget 1s -players 3 -games 120 -workers 1, taskset -c 1),
//     the bots as at commit 1c8d52b: first alone in 66 of 120 (55.0 %), 4
//     shared, the hard-v1 seats first in 28 and 27; margin over the best of
//     them +0.7 (−0.0 to +1.5); 0.98 s a move each. The target is 45 %.
//     The other core ran the four-player match against hard-v1 below, and
//     this session's builds and tests, pinned to it.
//   - Four players, against three hard-v1 at equal time, 1 s a move (-a
//     hard -b hard-v1 -budget 1s -players 4 -games 120 -workers 1, taskset
//     -c 0), the bots as at commit 1c8d52b: first alone in 69 of 120
//     (57.5 %), 5 shared, the hard-v1 seats first in 18, 19 and 15; margin
//     over the best of them +0.7 (−0.1 to +1.6); 0.98 s a move each. The
//     target is 45 %. Its core also ran this session's builds and tests
//     (go test of a few packages at a time, some 40 minutes in all), which
//     took turns with both bots alike.
//   - Four players, against three greedy at 1 s a move (-a hard -b greedy
//     -budget 1s -players 4 -games 120 -workers 1), the bots as at commit
//     5870a2d: first alone in 112 of 120 (93.3 %), none shared, the greedy
//     seats first in 4, 2 and 2; margin +7.5 (+6.5 to +8.5); 0.98 s a
//     move. The target is 90 %.
//
// Commit b9082ab makes the current search's iterations cheaper without
// changing a move (TestSearchUnchanged checks 42 positions bit for bit):
// the CPU time of go test -bench SearchIteration/version=2 -benchtime
// 3000x -cpu 1 ./engine/bot, the new build against the one before in
// turn, 8 pairs, is 0.81 of what it was (hard-v1's 0.92, from two engine
// changes).
//
// The figures below are of the bots as at commit 135e5e7, measured so:
//
//   - Against greedy at 1 s a move (-a hard -b greedy -budget 1s -games
//     400 -workers 1): first alone in 393 of 400 (98.2 %), margin +12.8
//     (+12.2 to +13.3); 0.80 s a move.
//   - Three players, against two hard-v1 at 200 ms a move (-players 3
//     -games 120): first alone in 64 of 120 (53.3 %), 4 shared, the
//     hard-v1 seats first in 27 and 31; margin over the best of them +0.2
//     (−0.7 to +1.2). Four players, against three (-players 4 -games
//     120): 63 of 120 (52.5 %), 5 shared, the others 21, 20 and 19;
//     margin −0.2 (−1.0 to +0.6). The target is 45 %; the 95 % interval
//     of a share of 120 games is about ±9 points.
//   - Three players, against two greedy at 1 s a move (-a hard -b greedy
//     -budget 1s -players 3 -games 120): first alone in 108 of 120 (90.0 %),
//     2 shared, the greedy seats first in 3 and 9; margin +7.3 (+6.3 to
//     +8.3); 0.98 s a move.
//
// Earlier figures, at commit bd0a0ed unless said, two players unless
// said: small samples, measured on the 2-core machine shared with three
// other engineers' builds and tests (load average 8–13), every run under
// nice -n 19, where a time budget buys each bot a fraction of a core.
//
//   - Against hard-v1 at equal time, 200 ms a move (-a hard -b hard-v1
//     -budget 200ms -games 200): hard first alone in 142 of 200 games
//     (71.0 %), 3 shared, hard-v1 first in 58; margin +3.0 points (95 % CI
//     +2.0 to +3.9); 0.192 s a move against 0.214 s (the exact endgames
//     often finish early). An earlier run at commit 6787343, whose exact
//     endgames could take the whole budget: 119 of 200 (59.5 %), 2 shared,
//     margin +1.4 (+0.3 to +2.5). Between the two lies both that change and
//     the noise of 200 games (a share's 95 % CI is about ±7 points here).
//   - Against hard-v1 at equal iterations (-a hard@1000 -b hard-v1@1000
//     -games 200): 171 of 200 (85.5 %), 3 shared; margin +9.2 (+7.7 to
//     +10.6). An iteration of the current search costs 2–3 times one of
//     hard-v1 (0.246 s a move against 0.090 s here): its playouts weigh
//     six moves a turn. Experiments, not kept, against the kept six at
//     200 ms (-games 160): three moves a turn first alone in 67 games,
//     margin −1.2 (CI −2.3 to −0.1); ten, in 80, margin +0.3 (−0.7 to +1.2).
//   - Against hard-v1 at 1 s a move, a very small sample (-a hard -b
//     hard-v1 -budget 1s -games 40): 28 of 40 (70.0 %), 3 shared, hard-v1
//     first in 12; margin +4.1 (+2.1 to +6.0); 0.895 s a move against 1.026.
//   - Three players, against two hard-v1 at 200 ms a move (-a hard -b
//     hard-v1 -budget 200ms -games 90 -players 3): hard first alone in 49 of
//     90 (54.4 %), 2 shared, the hard-v1 seats first in 22 and 19; margin
//     over the best hard-v1 −0.4 points (−1.4 to +0.7).
//   - Against greedy at 200 ms a move (-a hard -b greedy -budget 200ms
//     -games 200): 172 of 200 (86.0 %), margin +7.9 (+7.0 to +8.9), 0.233 s
//     a move.
//   - The ladder (-ladder -a hard -rungs 250,500,1000,2000 -games 40
//     -workers 1), 40 games a rung: greedy +759 (a sweep of random: a
//     bound), hard@250 +1028 (33 of 40 against greedy), hard@500 +1146
//     (26.5 of 40), hard@1000 +1314 (29), hard@2000 +1412 (25.5); the 95 %
//     intervals are about ±500, most of it the greedy–random sweep.
//   - Endgames: with nothing hidden and 1–4 turns left, a best move in all
//     240 positions of go test -tags long -run TestLongEndgames ./engine/bot
//     (and 12 in TestEndgames), against a plain exact solver.
//
// Before issue 40, the hard bot (now hard-v1) against the
// greedy (medium) one: two players, hard won 358 of 400 (89.5 %), by 7.8 points on
// average (95 % CI 7.2–8.4), at 1.02 s a move; three players (-games 120),
// hard first in 79 % of the games, each greedy seat in 6 % and 15 %; four
// players, hard first in 68 %, the greedy seats in 7, 15 and 12 %, 0.98 s
// a move. On 100 other deals (-games 100 -seed 1001): 90 %, by 9.1 points
// (7.8–10.4). go test -bench SearchIteration -cpu 1 ./engine/bot: about
// 53,000 playouts a second from a two-player start, 43,000 at three,
// 37,000 at four.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"cacao/engine"
	"cacao/engine/bot"
)

type config struct {
	a, b    string
	games   int
	players int
	budget  time.Duration
	iters   int
	seed    uint64
	workers int
	ladder  string // iteration counts of the ladder's rungs, "" for a match
}

func main() {
	var c config
	flag.StringVar(&c.a, "a", "hard", "the bot measured: "+fmt.Sprint(bot.Names()))
	flag.StringVar(&c.b, "b", "greedy", "the bot in every other seat")
	flag.IntVar(&c.games, "games", 400, "games to play (rounded up to whole sets of one deal per seat)")
	flag.IntVar(&c.players, "players", 2, "players a game (2-4)")
	flag.DurationVar(&c.budget, "budget", bot.DefaultBudget, "the hard bot's thinking time a move")
	flag.IntVar(&c.iters, "iterations", 0, "the hard bot's iterations a move instead of a time budget (deterministic)")
	flag.Uint64Var(&c.seed, "seed", 1, "the first deal's seed")
	flag.IntVar(&c.workers, "workers", runtime.GOMAXPROCS(0), "games played at once")
	ladder := flag.Bool("ladder", false, "print an Elo ladder of bot a (a search) across -rungs, anchored to random, instead of a match")
	rungs := flag.String("rungs", "250,500,1000,2000,4000", "the ladder's iteration counts, comma-separated, rising")
	flag.Parse()
	run := run
	if *ladder {
		c.ladder = *rungs
		run = runLadder
	}
	if err := run(c, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "botmatch:", err)
		os.Exit(1)
	}
}

// newBot returns the bot called name with the match's search settings. A
// search named with a count after an @ ("hard@2000", "hard-v1@500") makes
// that many iterations a move, whatever -budget and -iterations say.
func (c config) newBot(name string) (bot.Bot, error) {
	iters := c.iters
	base, n, at := strings.Cut(name, "@")
	b, ok := bot.ByName(base)
	if !ok {
		return nil, fmt.Errorf("no bot %q (known: %v)", name, bot.Names())
	}
	sr, search := b.(bot.Search)
	if at {
		k, err := strconv.Atoi(n)
		if err != nil || k <= 0 || !search {
			return nil, fmt.Errorf("bot %q: only a search takes a count of iterations after @", name)
		}
		iters = k
	}
	if search {
		sr.Budget, sr.Iterations = c.budget, iters
		b = sr
	}
	return b, nil
}

// game is one game's outcome, with seats counted from a's: rel[k] is the
// seat k places after a's.
type game struct {
	first  []bool // by relative seat: finished first (alone or shared)
	shared bool   // the first place was shared
	margin int    // a's total minus the best b total
	moves  [2]int
	think  [2]time.Duration
	err    error
}

func run(c config, out io.Writer) error {
	gs, wall, err := match(c)
	if err != nil {
		return err
	}
	return report(c, gs, wall, out)
}

// match plays c's games.
func match(c config) ([]game, time.Duration, error) {
	if c.players < 2 || c.players > 4 {
		return nil, 0, fmt.Errorf("players must be 2-4")
	}
	for _, n := range []string{c.a, c.b} {
		if _, err := c.newBot(n); err != nil {
			return nil, 0, err
		}
	}
	sets := (c.games + c.players - 1) / c.players
	total := sets * c.players
	results := make([]game, total)
	jobs := make(chan int)
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < max(1, c.workers); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range jobs {
				seed, aSeat := c.deal(g)
				results[g] = c.play(seed, aSeat, uint64(g))
			}
		}()
	}
	for g := range total {
		jobs <- g
	}
	close(jobs)
	wg.Wait()
	for _, g := range results {
		if g.err != nil {
			return nil, 0, g.err
		}
	}
	return results, time.Since(start), nil
}

// deal is game g's: the seed of its setup and a's seat. Games come in
// sets of one deal, a in each seat in turn.
func (c config) deal(g int) (seed uint64, aSeat int) {
	return c.seed + uint64(g/c.players), g % c.players
}

// play plays the deal of seed with a in seat aSeat and b elsewhere.
func (c config) play(seed uint64, aSeat int, rseed uint64) game {
	g := game{first: make([]bool, c.players)}
	su, err := engine.NewSetup(c.players, seed)
	if err != nil {
		return game{err: err}
	}
	s, err := engine.New(su, 0)
	if err != nil {
		return game{err: err}
	}
	bots := make([]bot.Bot, c.players)
	for i := range bots {
		name := c.b
		if i == aSeat {
			name = c.a
		}
		if bots[i], err = c.newBot(name); err != nil {
			return game{err: err}
		}
	}
	timed := make([]bot.Bot, c.players)
	for i := range bots {
		k := 1
		if i == aSeat {
			k = 0
		}
		timed[i] = &clock{Bot: bots[i], moves: &g.moves[k], think: &g.think[k]}
	}
	if err := bot.Play(s, timed, engine.NewRand(rseed*7919+1), nil); err != nil {
		return game{err: err}
	}
	res := s.Score()
	best := math.MinInt
	for i, sc := range res.Scores {
		if i != aSeat {
			best = max(best, sc.Total)
		}
	}
	g.margin = res.Scores[aSeat].Total - best
	g.shared = len(res.Winners) > 1
	for _, w := range res.Winners {
		g.first[(w-aSeat+c.players)%c.players] = true
	}
	return g
}

// clock counts a bot's moves and thinking time.
type clock struct {
	bot.Bot
	moves *int
	think *time.Duration
}

func (k *clock) Move(s *engine.State, r *engine.Rand) (engine.Move, error) {
	t := time.Now()
	m, err := k.Bot.Move(s, r)
	*k.think += time.Since(t)
	*k.moves++
	return m, err
}

func report(c config, gs []game, wall time.Duration, out io.Writer) error {
	n := len(gs)
	firsts := make([]int, c.players)
	wins, ties := 0, 0
	var moves [2]int
	var think [2]time.Duration
	margins := make([]float64, 0, n)
	for _, g := range gs {
		if g.err != nil {
			return g.err
		}
		for k, f := range g.first {
			if f {
				firsts[k]++
			}
		}
		switch {
		case g.first[0] && g.shared:
			ties++
		case g.first[0]:
			wins++
		}
		margins = append(margins, float64(g.margin))
		for k := range 2 {
			moves[k] += g.moves[k]
			think[k] += g.think[k]
		}
	}
	mean, half := meanCI(margins)
	fmt.Fprintf(out, "%s (a) against %s (b), %d players, %d games in %s on %d workers\n", c.a, c.b, c.players, n, wall.Round(time.Second), c.workers)
	fmt.Fprintf(out, "a first: %d alone (%.1f%%), %d shared; a lost %d\n", wins, pct(wins, n), ties, n-wins-ties)
	for k := 1; k < c.players; k++ {
		fmt.Fprintf(out, "b %d seat(s) after a first: %d (%.1f%%)\n", k, firsts[k], pct(firsts[k], n))
	}
	fmt.Fprintf(out, "a's margin over the best b: %+.1f points, 95%% CI [%+.1f, %+.1f]\n", mean, mean-half, mean+half)
	per := func(k int) (float64, float64) {
		if moves[k] == 0 {
			return 0, 0
		}
		sec := think[k].Seconds() / float64(moves[k])
		return sec, 1 / max(sec, 1e-9)
	}
	as, amps := per(0)
	bs, bmps := per(1)
	fmt.Fprintf(out, "a: %d moves, %.3f s a move (%.1f moves/s); b: %d moves, %.5f s a move (%.0f moves/s)\n", moves[0], as, amps, moves[1], bs, bmps)
	bestB := slices.Max(firsts[1:])
	fmt.Fprintf(out, "RESULT a=%s b=%s players=%d games=%d a_wins=%d ties=%d a_first=%d best_b_first=%d win_rate=%.3f margin=%.2f margin_ci=%.2f a_s_per_move=%.4f b_moves_per_s=%.0f\n",
		c.a, c.b, c.players, n, wins, ties, firsts[0], bestB, float64(wins)/float64(n), mean, half, as, bmps)
	return nil
}

func pct(k, n int) float64 { return 100 * float64(k) / float64(n) }

// meanCI is the mean of xs and the half-width of its 95% confidence
// interval (normal approximation).
func meanCI(xs []float64) (mean, half float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	sd := math.Sqrt(ss / float64(len(xs)-1))
	return mean, 1.96 * sd / math.Sqrt(float64(len(xs)))
}
