package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"time"
)

// Run does one closed-loop run (every user plays as fast as the server
// answers) and returns its report; progress goes to log.
func Run(ctx context.Context, o Options, log io.Writer) (*Report, error) {
	if o.Server == "" {
		bin, err := BuildServer(o.Dir)
		if err != nil {
			return nil, err
		}
		o.Server = bin
	}
	var raw float64 // on PostgreSQL, not measured
	if o.DB == "" {
		fmt.Fprintf(log, "raw SQLite commit rate on %s ...\n", o.Dir)
		var err error
		if raw, err = RawSQLiteRate(filepath.Join(o.Dir, "raw.db"), 2*time.Second); err != nil {
			return nil, err
		}
	}
	// Players who never think open a game every second or so: the limit
	// on games a player opens is off.
	srv, err := startSite(ctx, o, nil, "-games-per-hour", "0")
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	fmt.Fprintf(log, "%s; %d users for %s\n", srv, o.Users, o.Duration)
	lt := NewLoad(srv.URLs(), o.Users, o.Seed)
	if err := lt.Setup(ctx); err != nil {
		return nil, err
	}
	srv0, gen0 := srv.CPUTime(), selfCPU()
	stats := lt.Play(ctx, o.Duration)
	return &Report{Stats: stats, Users: o.Users, Duration: o.Duration, RawTxPerS: raw, PeakRSSMB: srv.PeakRSSMB(),
		CPU: CPU{Server: spent(srv0, srv.CPUTime()), Gen: spent(gen0, selfCPU()), Cores: runtime.NumCPU()}}, nil
}

// spent is the CPU time between two readings, or -1 when either failed.
func spent(before, after time.Duration) time.Duration {
	if before < 0 || after < 0 {
		return -1
	}
	return after - before
}

// Report is what a closed-loop run measured.
type Report struct {
	Stats
	Users     int
	Duration  time.Duration
	RawTxPerS float64
	PeakRSSMB float64
	CPU       // over the measured time
}

// TurnsPerS is committed turns per second over the measured time.
func (r *Report) TurnsPerS() float64 { return float64(r.Turns) / r.Elapsed.Seconds() }

// Print writes the report; its last line is the RESULT line.
func (r *Report) Print(w io.Writer) {
	fmt.Fprintf(w, "\n%d users, %s measured: %d turns committed (%.0f/s), %d resolutions, %d games finished, %d requests, %d errors\n",
		r.Users, r.Elapsed.Round(time.Millisecond), r.Turns, r.TurnsPerS(), r.Resolves, r.Finished, r.Requests(), r.Errors)
	all := printLatencies(w, r.Lat, r.Bytes)
	for _, e := range r.ErrorSamples {
		fmt.Fprintln(w, "error:", e)
	}
	r.CPU.print(w, r.Turns, r.Requests(), r.Elapsed)
	ratio := 0.0
	if r.RawTxPerS > 0 {
		ratio = r.TurnsPerS() / r.RawTxPerS
	}
	fmt.Fprintf(w, "server peak RSS %.1f MB; raw SQLite %.0f tx/s on the same disk; turns/s ÷ raw tx/s = %.3f\n", r.PeakRSSMB, r.RawTxPerS, ratio)
	fmt.Fprintf(w, "RESULT turns_per_s=%.0f p99_ms=%.2f errors=%d peak_rss_mb=%.1f raw_sqlite_tx_per_s=%.0f\n",
		r.TurnsPerS(), ms(pct(all, 99)), r.Errors, r.PeakRSSMB, r.RawTxPerS)
}
