package main

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func TestArrivalsEven(t *testing.T) {
	got := Arrivals(10, time.Second, true, nil)
	if len(got) != 10 {
		t.Fatalf("%d starts in a second at 10/s, want 10", len(got))
	}
	for i, at := range got {
		if want := time.Duration(i) * 100 * time.Millisecond; at != want {
			t.Fatalf("start %d at %v, want %v", i, at, want)
		}
	}
	if len(Arrivals(0, time.Second, true, nil)) != 0 {
		t.Fatal("a rate of 0 offers turns")
	}
}

// TestArrivalsPoisson: the rate asked on average, in order, with gaps as
// irregular as independent players' (exponential: their spread is their
// mean), not evenly spaced.
func TestArrivalsPoisson(t *testing.T) {
	got := Arrivals(1000, 10*time.Second, false, rand.New(rand.NewPCG(1, 2)))
	if n := len(got); n < 9700 || n > 10300 {
		t.Fatalf("%d starts in 10 s at 1000/s", n)
	}
	var sum, sq float64
	for i := 1; i < len(got); i++ {
		if got[i] < got[i-1] {
			t.Fatalf("start %d before start %d", i, i-1)
		}
		g := (got[i] - got[i-1]).Seconds()
		sum, sq = sum+g, sq+g*g
	}
	n := float64(len(got) - 1)
	mean := sum / n
	sd := math.Sqrt(sq/n - mean*mean)
	if math.Abs(mean-0.001) > 0.00005 || math.Abs(sd/mean-1) > 0.05 {
		t.Fatalf("gaps: mean %.6f s, spread/mean %.3f; want 0.001 s and 1", mean, sd/mean)
	}
	if last := got[len(got)-1]; last >= 10*time.Second {
		t.Fatalf("a start at %v, after the run", last)
	}
}

// TestScheduleDealsStarts: each game gets every games-th start, in order;
// the backlog is the starts due and not begun, whatever game they are of.
func TestScheduleDealsStarts(t *testing.T) {
	s := NewSchedule(Arrivals(10, time.Second, true, nil), 3)
	var got []time.Duration
	for {
		at, ok := s.Next(1)
		if !ok {
			break
		}
		got = append(got, at)
	}
	if want := []time.Duration{100 * time.Millisecond, 400 * time.Millisecond, 700 * time.Millisecond}; len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("game 1 is offered %v, want %v", got, want)
	}
	if at, ok := s.Next(0); !ok || at != 0 {
		t.Fatalf("game 0's first start %v %v, want 0", at, ok)
	}
	if s.Due(0) != 1 || s.Due(250*time.Millisecond) != 3 || s.Due(time.Hour) != 10 {
		t.Fatalf("due %d %d %d, want 1 3 10", s.Due(0), s.Due(250*time.Millisecond), s.Due(time.Hour))
	}
	s.Start(0)
	s.Start(1)
	if b := s.Backlog(450 * time.Millisecond); b != 3 {
		t.Fatalf("backlog %d with 5 due and 2 begun, want 3", b)
	}
	if b := s.Backlog(0); b != 0 {
		t.Fatalf("backlog %d with more begun than due, want 0", b)
	}
	// Not begun by 450 ms: game 2's start at 200 ms, game 0's at 300 ms,
	// game 1's at 400 ms; the one at 200 ms is before the window.
	got = s.Waiting(250*time.Millisecond, 450*time.Millisecond)
	if len(got) != 2 || got[0] != 150*time.Millisecond || got[1] != 50*time.Millisecond {
		t.Fatalf("waiting %v, want [150ms 50ms]", got)
	}
}

func TestHeld(t *testing.T) {
	for _, c := range []struct {
		offered, committed, backlog int
		rate                        float64
		want                        bool
	}{
		{100, 100, 0, 100, true},
		{100, 95, 0, 100, true},
		{100, 94, 0, 100, false},    // short of 95 %
		{100, 100, 99, 100, true},   // less than a second waiting
		{100, 100, 100, 100, false}, // a second of turns waiting: the queue grows
		{10, 10, 0, 0.5, true},
		{10, 10, 1, 0.5, false}, // below 1/s, any turn waiting
		{0, 0, 0, 10, true},
	} {
		if got := Held(c.offered, c.committed, c.backlog, c.rate); got != c.want {
			t.Errorf("Held(offered %d, committed %d, backlog %d, rate %v) = %v, want %v", c.offered, c.committed, c.backlog, c.rate, got, c.want)
		}
	}
}

func TestPct(t *testing.T) {
	ds := []time.Duration{5, 1, 4, 2, 3, 10, 9, 8, 7, 6}
	for _, c := range []struct {
		p    int
		want time.Duration
	}{{50, 5}, {95, 10}, {99, 10}, {100, 10}, {10, 1}, {11, 2}, {0, 1}} {
		if got := pct(ds, c.p); got != c.want {
			t.Errorf("p%d = %d, want %d", c.p, got, c.want)
		}
	}
	if pct(nil, 99) != 0 {
		t.Error("the percentile of nothing is not 0")
	}
}

// TestSizeFor: the rate spread over enough games that each is offered a
// turn every turnsApart think times; with users given, their games take it.
func TestSizeFor(t *testing.T) {
	z := SizeFor(300, time.Second, 0)
	if z.Games != 1500 || z.Interval != 5*time.Second || z.Warmup != 7*time.Second {
		t.Fatalf("300/s thinking 1 s: %+v, want 1500 games a turn each every 5 s, 7 s warm-up", z)
	}
	z = SizeFor(20, 100*time.Millisecond, 0)
	if z.Games != 10 || z.Interval != 500*time.Millisecond || z.Warmup != time.Second {
		t.Fatalf("20/s thinking 100 ms: %+v", z)
	}
	z = SizeFor(20, time.Second, 10)
	if z.Games != 5 || z.Interval != 250*time.Millisecond {
		t.Fatalf("20/s on 10 users: %+v, want 5 games each every 250 ms", z)
	}
}

func TestOptionsCheck(t *testing.T) {
	for _, c := range []struct {
		o        Options
		arrivals string
		ok       bool
	}{
		{Options{Duration: time.Second}, "poisson", true},
		{Options{Users: 3, Duration: time.Second}, "poisson", false},
		{Options{Rate: 10, Duration: time.Second}, "poisson", false}, // no think, no users
		{Options{Rate: 10, Users: 4, Duration: time.Second}, "even", true},
		{Options{Rate: 10, Think: time.Second, Duration: time.Second}, "bursts", false},
		{Options{Rate: -1, Duration: time.Second}, "poisson", false},
		{Options{Duration: time.Second, Instances: 2}, "poisson", false}, // two on SQLite
		{Options{Duration: time.Second, Instances: 2, DB: "postgres://cacao@127.0.0.1/load"}, "poisson", true},
	} {
		o := c.o
		if msg := o.check(c.arrivals); (msg == "") != c.ok {
			t.Errorf("%+v %s: %q", c.o, c.arrivals, msg)
		}
	}
	o := Options{Duration: time.Second}
	o.check("even")
	if o.Users != closedUsers || !o.Even || o.Instances != 1 {
		t.Errorf("defaults: %+v", o)
	}
	o = Options{Rate: 5, Think: time.Second, Duration: time.Second}
	if o.check("poisson"); o.Users != 0 {
		t.Errorf("the open loop's users were not left to the rate: %d", o.Users)
	}
}
