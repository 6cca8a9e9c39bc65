package main

import (
	"math"
	"math/rand/v2"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// The open loop offers turns on a schedule fixed before the run: when the
// server is slow, turns start late and wait, but no start moves, so the
// load offered never depends on the server's latency.

// Arrivals returns the times, from the run's start, at which turns are
// offered over d at rate per second, in order: a Poisson process
// (independent players; exponential gaps drawn from r) or, with even, one
// every 1/rate seconds.
func Arrivals(rate float64, d time.Duration, even bool, r *rand.Rand) []time.Duration {
	if rate <= 0 {
		return nil
	}
	out := make([]time.Duration, 0, int(rate*d.Seconds())+1)
	for t := 0.0; ; {
		if even {
			t = float64(len(out)) / rate
		} else {
			t += r.ExpFloat64() / rate
		}
		at := time.Duration(t * float64(time.Second))
		if at >= d {
			return out
		}
		out = append(out, at)
	}
}

// Schedule deals the offered turn starts out to games in turn (start i to
// game i mod games), so each game is offered a turn every games/rate
// seconds on average, and counts the turns started.
type Schedule struct {
	all   []time.Duration
	games int
	mu    sync.Mutex
	next  []int // per game, the index in all of its next start
	// begun counts per game the starts begun: a game's turns begin in
	// order, so they are its first begun[g].
	begun   []int
	started atomic.Int64
}

// NewSchedule deals the starts all (in order) out to games games.
func NewSchedule(all []time.Duration, games int) *Schedule {
	s := &Schedule{all: all, games: games, next: make([]int, games), begun: make([]int, games)}
	for g := range s.next {
		s.next[g] = g
	}
	return s
}

// Next hands game g its next turn start, or false when the schedule has
// none left for it.
func (s *Schedule) Next(g int) (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.next[g]
	if i >= len(s.all) {
		return 0, false
	}
	s.next[g] = i + s.games
	return s.all[i], true
}

// Start counts a turn of game g begun (at or after its start).
func (s *Schedule) Start(g int) {
	s.mu.Lock()
	s.begun[g]++
	s.mu.Unlock()
	s.started.Add(1)
}

// Waiting returns, for each start offered after from and by at but not
// begun, how long it has waited by at.
func (s *Schedule) Waiting(from, at time.Duration) []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []time.Duration
	for g := range s.games {
		for i := g + s.begun[g]*s.games; i < len(s.all) && s.all[i] <= at; i += s.games {
			if s.all[i] > from {
				out = append(out, at-s.all[i])
			}
		}
	}
	return out
}

// Due counts the turns offered by at.
func (s *Schedule) Due(at time.Duration) int {
	return sort.Search(len(s.all), func(i int) bool { return s.all[i] > at })
}

// Backlog counts the turns offered by at and not begun: the players'
// queue when the server falls behind.
func (s *Schedule) Backlog(at time.Duration) int {
	return max(0, s.Due(at)-int(s.started.Load()))
}

// heldShare is the share of the offered turns that must commit for the
// rate to count as held.
const heldShare = 0.95

// Held says whether an open-loop run held its rate: at least heldShare of
// the turns offered in the measured time committed in it, and at its end
// fewer than one second of offered turns (none, below one turn a second)
// were waiting to begin, so the players' queue was not growing.
func Held(offered, committed, backlog int, rate float64) bool {
	return float64(committed) >= heldShare*float64(offered) && float64(backlog) < max(1, rate)
}

// turnsApart is how many mean think times apart each game is offered its
// turns: a turn takes two (tile to cell, cell to confirm), a pending
// choice one more; the rest leaves room for the server's latency, so that
// a turn starts late only when the server is slow.
const turnsApart = 5

// maxAccounts bounds the accounts the open loop signs up (each costs a
// password hash at bcrypt's cost); beyond
// it, players share accounts, as one person with several games open. A
// shared account is not the same load: its pages count and read the
// notices of all its games.
const maxAccounts = 1000

// Sizing is how the open loop spreads its rate over games.
type Sizing struct {
	Games    int           // games played at once (two players each)
	Interval time.Duration // between the turn starts each game is offered
	Warmup   time.Duration // before the measured time: every game has begun
}

// SizeFor spreads rate turns per second over games whose players think think
// on average between steps: enough games that each is offered a turn every
// turnsApart think times, or users/2 games when users is not 0.
func SizeFor(rate float64, think time.Duration, users int) Sizing {
	var z Sizing
	if users > 0 {
		z.Games = users / 2
	} else {
		z.Games = max(1, int(math.Ceil(rate*turnsApart*think.Seconds())))
	}
	z.Interval = time.Duration(float64(z.Games) / rate * float64(time.Second))
	z.Warmup = max(time.Second, z.Interval+2*think)
	return z
}
