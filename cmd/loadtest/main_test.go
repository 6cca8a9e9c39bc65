package main

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestLoadRunReports: a short run of the command as written plays games
// without errors and ends with the RESULT line other tools read; with
// -floor, the floor's line comes before it.
func TestLoadRunReports(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the server and runs a load: not in -short")
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"-users", "6", "-duration", "3s", "-floor"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut.String(), out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	last := lines[len(lines)-1]
	re := regexp.MustCompile(`^RESULT turns_per_s=(\d+) p99_ms=\d+(\.\d+)? errors=(\d+) peak_rss_mb=\d+(\.\d+)? raw_sqlite_tx_per_s=\d+$`)
	m := re.FindStringSubmatch(last)
	if m == nil {
		t.Fatalf("last line %q does not match %s", last, re)
	}
	if m[1] == "0" || m[3] != "0" {
		t.Fatalf("a run with no turns or with errors: %q\n%s", last, out.String())
	}
	for _, kind := range []string{"page", "select", "turn", "all"} {
		if !regexp.MustCompile(`(?m)^` + kind + ` +\d+`).MatchString(out.String()) {
			t.Fatalf("no latency line for %q:\n%s", kind, out.String())
		}
	}
	// Pages come gzipped: fewer bytes on the wire than read, neither zero.
	for _, kind := range []string{"page", "select", "turn"} {
		m := regexp.MustCompile(`(?m)^` + kind + `(?: +[\d.]+){5} +([\d.]+) +([\d.]+)$`).FindStringSubmatch(out.String())
		if m == nil {
			t.Fatalf("no sizes for %q:\n%s", kind, out.String())
		}
		var wire, body float64
		fmt.Sscan(m[1], &wire)
		fmt.Sscan(m[2], &body)
		if wire <= 0 || body <= wire {
			t.Fatalf("%s answers: %.1f KB on the wire, %.1f KB read; want gzipped pages", kind, wire, body)
		}
	}
	cpu := regexp.MustCompile(`(?m)^CPU over the measured time: server (\d+\.\d) s \((\d+\.\d+) ms per turn, \d+\.\d+ ms per request\), generator \d+\.\d s`).FindStringSubmatch(out.String())
	if cpu == nil || cpu[2] == "0.00" {
		t.Fatalf("no CPU line with the server's time per turn:\n%s", out.String())
	}
	floor := regexp.MustCompile(`(?m)^floor: \d+ users .*: (\d+) turns/s, p99 [\d.]+ ms, 0 errors; CPU per turn: server [\d.]+ ms, generator [\d.]+ ms$`).FindStringSubmatch(out.String())
	if floor == nil || floor[1] == "0" {
		t.Fatalf("no floor line with turns and without errors:\n%s", out.String())
	}
	if code := run([]string{"-users", "3"}, &out, &errOut); code != 2 {
		t.Fatalf("an odd number of users: exit %d", code)
	}
}

// TestStatCPU reads a process's user and system time from its stat line,
// whose command name may hold spaces and parentheses.
func TestStatCPU(t *testing.T) {
	line := "4242 (my (odd) name) S 1 4242 4242 0 -1 4194560 5000 0 0 0 250 75 0 0 20 0 9 0 100 2000000 3000 18446744073709551615"
	if got, want := statCPU(line), 3250*time.Millisecond; got != want {
		t.Fatalf("statCPU = %v, want %v", got, want)
	}
	if got := statCPU("4242 (cut"); got != -1 {
		t.Fatalf("a cut line gives %v, want -1", got)
	}
	if spent(-1, time.Second) != -1 || spent(time.Second, -1) != -1 || spent(time.Second, 3*time.Second) != 2*time.Second {
		t.Fatal("spent does not say -1 when a reading failed")
	}
}
