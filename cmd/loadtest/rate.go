package main

import (
	"fmt"
	"io"
	"time"
)

// RateReport is what an open-loop run measured over its measured time.
type RateReport struct {
	Stats
	Rate  float64 // turns per second offered
	Even  bool    // evenly spaced starts rather than Poisson arrivals
	Think time.Duration
	Sizing
	Users, Accounts int
	// Offered counts the turn starts offered in the measured time;
	// Backlog those offered and not begun at its end, PeakBacklog the most
	// at any moment of it.
	Offered, Backlog, PeakBacklog int
	PeakRSSMB                     float64
	CPU
	Attacks *Attacks // what the attackers met, in an abuse run
	Honest  *Honest  // what the honest players met, in an abuse run
	Floor   *Floor   // the floor at the run's rate (-floor)
	samples *sampler // the answers the floor sends again
}

// Achieved is committed turns per second over the measured time.
func (r *RateReport) Achieved() float64 { return float64(r.Turns) / r.Elapsed.Seconds() }

// Held says whether the run held its rate (see Held).
func (r *RateReport) Held() bool { return Held(r.Offered, r.Turns, r.Backlog, r.Rate) }

// Print writes the report; its last line is the RATE line.
func (r *RateReport) Print(w io.Writer) {
	fmt.Fprintf(w, "\nopen loop: %.4g turns/s offered (%s arrivals) over %d games, %d players on %d accounts, thinking %s on average; each game offered a turn every %s; %s warm-up, %s measured\n",
		r.Rate, arrivalsName(r.Even), r.Games, r.Users, r.Accounts, r.Think, r.Interval.Round(time.Millisecond), r.Warmup.Round(time.Millisecond), r.Elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "%d turns committed (%.1f/s) of %d offered (%.1f/s); %d choices, %d games finished, %d requests, %d errors\n",
		r.Turns, r.Achieved(), r.Offered, float64(r.Offered)/r.Elapsed.Seconds(), r.Resolves, r.Finished, r.Requests(), r.Errors)
	all := printLatencies(w, r.Lat, r.Bytes)
	lag := r.StartLag
	fmt.Fprintf(w, "turn starts behind the schedule (a turn not begun: until the end): p50 %.2f ms, p99 %.2f ms, max %.2f ms; turns waiting to begin: %d at the end, %d at most\n",
		ms(pct(lag, 50)), ms(pct(lag, 99)), ms(pct(lag, 100)), r.Backlog, r.PeakBacklog)
	for _, e := range r.ErrorSamples {
		fmt.Fprintln(w, "error:", e)
	}
	r.CPU.print(w, r.Turns, r.Requests(), r.Elapsed)
	held := "no"
	if r.Held() {
		held = "yes"
	}
	fmt.Fprintf(w, "held: %s (held = at least %.0f %% of the offered turns committed, and less than one second of offered turns waiting at the end)\n", held, 100*heldShare)
	fmt.Fprintf(w, "server peak RSS %.1f MB\n", r.PeakRSSMB)
	if r.Attacks != nil {
		r.Attacks.Print(w)
	}
	if r.Honest != nil {
		r.Honest.Print(w)
	}
	if r.Floor != nil {
		r.Floor.print(w)
	}
	sCPU, gCPU, ratio := -1.0, -1.0, -1.0
	if r.CPU.measured(r.Turns) {
		sCPU, gCPU, ratio = perTurn(r.Server, r.Turns), perTurn(r.Gen, r.Turns), r.Ratio()
	}
	floor, floorRatio := r.Floor.perTurn(), -1.0
	if floor > 0 && sCPU >= 0 {
		floorRatio = sCPU / floor
	}
	fmt.Fprintf(w, "RATE offered_turns_per_s=%.4g achieved_turns_per_s=%.1f held=%s p50_ms=%.2f p95_ms=%.2f p99_ms=%.2f errors=%d peak_rss_mb=%.1f server_cpu_ms_per_turn=%.2f generator_cpu_ms_per_turn=%.2f cpu_ratio=%.2f floor_cpu_ms_per_turn=%.2f floor_ratio=%.2f\n",
		r.Rate, r.Achieved(), held, ms(pct(all, 50)), ms(pct(all, 95)), ms(pct(all, 99)), r.Errors, r.PeakRSSMB, sCPU, gCPU, ratio, floor, floorRatio)
}
