package main

import (
	"fmt"
	"io"
	"sort"
	"time"
)

// printLatencies writes a line per request kind (count, percentiles,
// mean sizes) and one for all requests, and returns all the latencies.
func printLatencies(w io.Writer, lat map[string][]time.Duration, bytes map[string]Size) []time.Duration {
	fmt.Fprintf(w, "%-8s %8s %8s %8s %8s %8s %8s %8s\n", "kind", "count", "p50_ms", "p95_ms", "p99_ms", "max_ms", "wire_kb", "body_kb")
	kinds := make([]string, 0, len(lat))
	for k := range lat {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	var all []time.Duration
	for _, k := range kinds {
		ds := lat[k]
		all = append(all, ds...)
		b := bytes[k]
		fmt.Fprintf(w, "%-8s %8d %8.2f %8.2f %8.2f %8.2f %8.1f %8.1f\n", k, len(ds), ms(pct(ds, 50)), ms(pct(ds, 95)), ms(pct(ds, 99)), ms(pct(ds, 100)),
			kb(b.Wire, len(ds)), kb(b.Body, len(ds)))
	}
	fmt.Fprintf(w, "%-8s %8d %8.2f %8.2f %8.2f %8.2f\n", "all", len(all), ms(pct(all, 50)), ms(pct(all, 95)), ms(pct(all, 99)), ms(pct(all, 100)))
	return all
}

// CPU is the CPU time the server and the generator used over the measured
// time, and the cores they share; a time that could not be read is -1.
type CPU struct {
	Server, Gen time.Duration
	Cores       int
}

// measured says whether both times were read and there are turns to share
// them among.
func (c CPU) measured(turns int) bool { return turns > 0 && c.Server >= 0 && c.Gen > 0 }

// perTurn is d in milliseconds per turn.
func perTurn(d time.Duration, turns int) float64 {
	return float64(d.Microseconds()) / 1000 / float64(turns)
}

// Ratio is the server's CPU over the generator's: on a shared machine the
// steadiest figure of a run, as both see the same turns and the same noise.
func (c CPU) Ratio() float64 { return c.Server.Seconds() / c.Gen.Seconds() }

// print writes the CPU line: each side's time, per turn, and their ratio.
func (c CPU) print(w io.Writer, turns, requests int, elapsed time.Duration) {
	if !c.measured(turns) {
		fmt.Fprintln(w, "CPU over the measured time: not measured (no turns, or a process's time could not be read)")
		return
	}
	fmt.Fprintf(w, "CPU over the measured time: server %.1f s (%.2f ms per turn, %.3f ms per request), generator %.1f s (%.2f ms per turn); %.0f %% of %d cores; server ÷ generator CPU per turn %.2f\n",
		c.Server.Seconds(), perTurn(c.Server, turns), perTurn(c.Server, requests), c.Gen.Seconds(), perTurn(c.Gen, turns),
		100*(c.Server+c.Gen).Seconds()/elapsed.Seconds()/float64(c.Cores), c.Cores, c.Ratio())
}

// kb is the mean of n responses totalling b bytes, in KB.
func kb(b int64, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(b) / float64(n) / 1024
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// pct is the p-th percentile (nearest rank) of ds, which it sorts; 0 for
// none.
func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sort.Slice(ds, func(a, b int) bool { return ds[a] < ds[b] })
	i := (len(ds)*p + 99) / 100
	return ds[min(max(i-1, 0), len(ds)-1)]
}
