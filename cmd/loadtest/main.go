// Command loadtest measures the site under load, as browsers would use it.
//
//	go run ./cmd/loadtest [-users 200] [-duration 30s] [-seed 1] [-keep DIR]
//
// It builds and starts the real server (cmd/cacao) on loopback with a fresh
// SQLite file, signs up the virtual users, pairs them, and lets each pair
// create games (an open seat and the invite link) and play them to the end
// through HTTP exactly as the pages do: htmx fragment requests with the
// CSRF header, choosing a tile, a cell and confirming the form, answering
// pending choices, and waiting for the game's Server-Sent Events between
// turns. A finished game is followed by a new one.
//
// It prints the committed turns per second, latency percentiles per request
// kind, errors, the server's peak RSS, and the raw SQLite commit rate on the
// same disk (one small row per transaction, same pragmas) for comparison.
// The last line is:
//
//	RESULT turns_per_s=<n> p99_ms=<n> errors=<n> peak_rss_mb=<n> raw_sqlite_tx_per_s=<n>
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sort"
	"strings"
	"time"
)

func main() {
	if dir := os.Getenv(floorEnv); dir != "" {
		os.Exit(serveFloor(dir))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Options is one load run.
type Options struct {
	Users    int
	Duration time.Duration
	Seed     uint64
	Dir      string // work directory: database, server binary, server log
	Server   string // server binary; "" builds ./cmd/cacao
	// Floor: after the run, measure the floor (floor.go) as long again.
	Floor bool
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o Options
	fs.IntVar(&o.Users, "users", 200, "virtual users (paired into two-player games)")
	fs.DurationVar(&o.Duration, "duration", 30*time.Second, "how long to measure")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the users' choices")
	keep := fs.String("keep", "", "work in this directory and keep it (default: a temporary one)")
	fs.StringVar(&o.Server, "server", "", "server binary to run (default: build ./cmd/cacao)")
	fs.BoolVar(&o.Floor, "floor", false, "then measure what HTTP alone costs: the same users and requests per turn against a server that only sends the run's answers again")
	cpuprof := fs.String("cpuprofile", "", "write the load generator's own CPU profile here")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if o.Users < 2 || o.Users%2 != 0 {
		fmt.Fprintln(stderr, "loadtest: -users must be an even number of at least 2")
		return 2
	}
	o.Dir = *keep
	if o.Dir == "" {
		d, err := os.MkdirTemp("", "cacao-load-")
		if err != nil {
			fmt.Fprintln(stderr, "loadtest:", err)
			return 1
		}
		defer os.RemoveAll(d)
		o.Dir = d
	} else if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		fmt.Fprintln(stderr, "loadtest:", err)
		return 1
	}
	if *cpuprof != "" {
		f, err := os.Create(*cpuprof)
		if err != nil {
			fmt.Fprintln(stderr, "loadtest:", err)
			return 1
		}
		defer f.Close()
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	// The generator shares the machine with the server it measures: its
	// own garbage collection runs less often (it holds little: pages in
	// flight and the latencies), leaving the cores to the server.
	debug.SetGCPercent(400)
	ctx := context.Background()
	rep, err := Run(ctx, o, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "loadtest:", err)
		return 1
	}
	rep.Print(stdout)
	return 0
}

// Run does one load run and returns its report; progress goes to log.
func Run(ctx context.Context, o Options, log io.Writer) (*Report, error) {
	if o.Server == "" {
		bin, err := BuildServer(o.Dir)
		if err != nil {
			return nil, err
		}
		o.Server = bin
	}
	fmt.Fprintf(log, "raw SQLite commit rate on %s ...\n", o.Dir)
	raw, err := RawSQLiteRate(filepath.Join(o.Dir, "raw.db"), 2*time.Second)
	if err != nil {
		return nil, err
	}
	srv, err := StartServer(ctx, o.Server, filepath.Join(o.Dir, "load.db"), filepath.Join(o.Dir, "server.log"))
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	fmt.Fprintf(log, "server pid %d on %s; %d users for %s\n", srv.Cmd.Process.Pid, srv.URL, o.Users, o.Duration)
	lt := NewLoad(srv.URL, o.Users, o.Seed)
	if o.Floor {
		lt.Sample(o.Seed)
	}
	if err := lt.Setup(ctx); err != nil {
		return nil, err
	}
	srv0, gen0 := srv.CPUTime(), selfCPU()
	stats := lt.Play(ctx, o.Duration)
	rep := &Report{Stats: stats, Users: o.Users, Duration: o.Duration, RawTxPerS: raw, PeakRSSMB: srv.PeakRSSMB(),
		ServerCPU: spent(srv0, srv.CPUTime()), GenCPU: spent(gen0, selfCPU()), Cores: runtime.NumCPU()}
	if o.Floor {
		srv.Stop()
		rep.Floor, rep.FloorErr = floor(ctx, o, rep, lt.answers, log)
	}
	return rep, nil
}

// floor measures the floor after the run rep, on the answers its users
// kept. A floor that cannot be measured leaves the run's report whole.
func floor(ctx context.Context, o Options, rep *Report, answers *sampler, log io.Writer) (*FloorReport, error) {
	mix := FloorMix(&rep.Stats)
	for kind := range mix {
		if len(answers.bodies[kind]) == 0 {
			delete(mix, kind) // every answer of this kind failed
		}
	}
	if mix["turn"] == 0 {
		return nil, errors.New("the run committed no turn")
	}
	dir := filepath.Join(o.Dir, "floor")
	if err := answers.save(dir); err != nil {
		return nil, err
	}
	// As many users as the run had requests under way: the users of the
	// run who waited for the other's move sent nothing meanwhile.
	users := max(2, int(math.Round(rep.InFlight())))
	fmt.Fprintf(log, "floor: %d users for %s against the run's answers, sent again ...\n", users, o.Duration)
	return RunFloor(ctx, dir, mix, users, o.Seed, o.Duration)
}

// spent is the CPU time between two readings, or -1 when either failed.
func spent(before, after time.Duration) time.Duration {
	if before < 0 || after < 0 {
		return -1
	}
	return after - before
}

// BuildServer builds cmd/cacao into dir and returns the binary's path.
func BuildServer(dir string) (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || strings.TrimSpace(string(out)) == "" || strings.TrimSpace(string(out)) == os.DevNull {
		return "", fmt.Errorf("run loadtest from inside the cacao module: %v", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(out)))
	bin := filepath.Join(dir, "cacao")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/cacao")
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build the server: %v\n%s", err, b)
	}
	return bin, nil
}

// Report is what a load run measured.
type Report struct {
	Stats
	Users     int
	Duration  time.Duration
	RawTxPerS float64
	PeakRSSMB float64
	// CPU time used over the measured time by the server and by the
	// generator itself, and the cores they share.
	ServerCPU, GenCPU time.Duration
	Cores             int
	Floor             *FloorReport // with -floor
	FloorErr          error        // why the floor was not measured
}

// TurnsPerS is committed turns per second over the measured time.
func (r *Report) TurnsPerS() float64 { return float64(r.Turns) / r.Elapsed.Seconds() }

// Print writes the report; its last line is the RESULT line.
func (r *Report) Print(w io.Writer) {
	fmt.Fprintf(w, "\n%d users, %s measured: %d turns committed (%.0f/s), %d resolutions, %d games finished, %d requests, %d errors\n",
		r.Users, r.Elapsed.Round(time.Millisecond), r.Turns, r.TurnsPerS(), r.Resolves, r.Finished, r.Requests(), r.Errors)
	fmt.Fprintf(w, "%-8s %8s %8s %8s %8s %8s %8s %8s\n", "kind", "count", "p50_ms", "p95_ms", "p99_ms", "max_ms", "wire_kb", "body_kb")
	kinds := make([]string, 0, len(r.Lat))
	for k := range r.Lat {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var all []time.Duration
	for _, k := range kinds {
		ds := r.Lat[k]
		all = append(all, ds...)
		b := r.Bytes[k]
		fmt.Fprintf(w, "%-8s %8d %8.2f %8.2f %8.2f %8.2f %8.1f %8.1f\n", k, len(ds), ms(pct(ds, 50)), ms(pct(ds, 95)), ms(pct(ds, 99)), ms(pct(ds, 100)),
			kb(b.Wire, len(ds)), kb(b.Body, len(ds)))
	}
	fmt.Fprintf(w, "%-8s %8d %8.2f %8.2f %8.2f %8.2f\n", "all", len(all), ms(pct(all, 50)), ms(pct(all, 95)), ms(pct(all, 99)), ms(pct(all, 100)))
	for _, e := range r.ErrorSamples {
		fmt.Fprintln(w, "error:", e)
	}
	if r.Turns > 0 && r.ServerCPU >= 0 && r.GenCPU >= 0 {
		per := func(d time.Duration, n int) float64 { return float64(d.Microseconds()) / 1000 / float64(n) }
		fmt.Fprintf(w, "CPU over the measured time: server %.1f s (%.2f ms per turn, %.3f ms per request), generator %.1f s (%.2f ms per turn); %.0f %% of %d cores\n",
			r.ServerCPU.Seconds(), per(r.ServerCPU, r.Turns), per(r.ServerCPU, r.Requests()), r.GenCPU.Seconds(), per(r.GenCPU, r.Turns),
			100*(r.ServerCPU+r.GenCPU).Seconds()/r.Elapsed.Seconds()/float64(r.Cores), r.Cores)
	}
	ratio := 0.0
	if r.RawTxPerS > 0 {
		ratio = r.TurnsPerS() / r.RawTxPerS
	}
	if r.Floor != nil {
		r.Floor.Print(w)
	}
	if r.FloorErr != nil {
		fmt.Fprintln(w, "floor: not measured:", r.FloorErr)
	}
	fmt.Fprintf(w, "server peak RSS %.1f MB; raw SQLite %.0f tx/s on the same disk; turns/s ÷ raw tx/s = %.3f\n", r.PeakRSSMB, r.RawTxPerS, ratio)
	fmt.Fprintf(w, "RESULT turns_per_s=%.0f p99_ms=%.2f errors=%d peak_rss_mb=%.1f raw_sqlite_tx_per_s=%.0f\n",
		r.TurnsPerS(), ms(pct(all, 99)), r.Errors, r.PeakRSSMB, r.RawTxPerS)
}

// kb is the mean of n responses totalling b bytes, in KB.
func kb(b int64, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(b) / float64(n) / 1024
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// pct is the p-th percentile (nearest rank) of ds, which it sorts.
func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sort.Slice(ds, func(a, b int) bool { return ds[a] < ds[b] })
	i := (len(ds)*p + 99) / 100
	return ds[min(max(i-1, 0), len(ds)-1)]
}
