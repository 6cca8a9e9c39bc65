//go:build long

package main

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestLongLoadRun: a short closed-loop run of the command as written plays
// games without errors and ends with the RESULT line other tools read.
func TestLongLoadRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the server and runs a load: not in -short")
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"-users", "6", "-duration", "3s"}, &out, &errOut); code != 0 {
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
	if code := run([]string{"-users", "3"}, &out, &errOut); code != 2 {
		t.Fatalf("an odd number of users: exit %d", code)
	}
}

// rateLine is the open loop's last line.
var rateLine = regexp.MustCompile(`^RATE offered_turns_per_s=([\d.]+) achieved_turns_per_s=([\d.]+) held=(yes|no) p50_ms=[\d.]+ p95_ms=[\d.]+ p99_ms=([\d.]+) errors=(\d+) peak_rss_mb=[\d.]+ server_cpu_ms_per_turn=([\d.]+) generator_cpu_ms_per_turn=([\d.]+) cpu_ratio=([\d.]+) floor_cpu_ms_per_turn=(-1\.00|[\d.]+) floor_ratio=(-1\.00|[\d.]+)$`)

// openRun runs the command in the open loop and returns its output and
// the fields of its RATE line.
func openRun(t *testing.T, args ...string) (string, []string) {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := run(args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut.String(), out.String())
	}
	m := rateLine.FindStringSubmatch(lastLine(out.String()))
	if m == nil {
		t.Fatalf("last line %q does not match %s", lastLine(out.String()), rateLine)
	}
	return out.String(), m
}

// TestLongOpenLoop: at a rate the server holds easily, the players commit
// the turns offered, no more (the load does not follow the server's
// speed) and no fewer, without errors; every kind of a turn's requests is
// timed, and both sides' CPU per turn is reported.
func TestLongOpenLoop(t *testing.T) {
	out, m := openRun(t, "-rate", "20", "-think", "100ms", "-arrivals", "even", "-duration", "3s")
	achieved, _ := strconv.ParseFloat(m[2], 64)
	if m[1] != "20" || m[3] != "yes" || m[5] != "0" || achieved < 18 || achieved > 22 {
		t.Fatalf("offered %s, achieved %s turns/s, held %s, %s errors; want 20 offered and held, 18 to 22 achieved, no errors:\n%s", m[1], m[2], m[3], m[5], out)
	}
	if m[6] == "0.00" || m[8] == "0.00" {
		t.Fatalf("no CPU per turn or ratio:\n%s", out)
	}
	for _, kind := range []string{"select", "turn", "refetch", "all"} {
		if !regexp.MustCompile(`(?m)^` + kind + ` +[1-9]\d*`).MatchString(out) {
			t.Fatalf("no latency line for %q:\n%s", kind, out)
		}
	}
	// A tile and a cell chosen per turn (give or take the turns at the
	// edges of the measured time): steps are timed, not only the confirms.
	var turns, selects int
	fmt.Sscan(regexp.MustCompile(`(?m)^turn +(\d+)`).FindStringSubmatch(out)[1], &turns)
	fmt.Sscan(regexp.MustCompile(`(?m)^select +(\d+)`).FindStringSubmatch(out)[1], &selects)
	if selects < 2*turns*9/10 {
		t.Fatalf("%d steps for %d turns:\n%s", selects, turns, out)
	}
	if !cpuLine.MatchString(out) || !strings.Contains(out, "turn starts behind the schedule (") {
		t.Fatalf("no CPU line or no start lag:\n%s", out)
	}
}

// TestLongOpenLoopNotHeld: one game cannot offer 500 turns a second: the
// run says so (held=no) rather than reporting what it managed as the rate.
func TestLongOpenLoopNotHeld(t *testing.T) {
	out, m := openRun(t, "-rate", "500", "-users", "2", "-think", "10ms", "-arrivals", "even", "-duration", "2s")
	achieved, _ := strconv.ParseFloat(m[2], 64)
	if m[3] != "no" || achieved >= 475 || achieved == 0 || m[5] != "0" {
		t.Fatalf("achieved %s turns/s of 500 with one game, held %s, %s errors:\n%s", m[2], m[3], m[5], out)
	}
	if !strings.Contains(out, "warning: 1 games are offered a turn each every") {
		t.Fatalf("no warning that the generator is short of games:\n%s", out)
	}
}

// TestLongAbuseRun: a short abuse run plays, then plays again under the
// bounded attacks, which the site refuses past its limits (slow bodies
// held, streams and tables and sign-ups and guests refused, most of the hashing
// flood refused, the hard bots' games held to the games a player opens
// in a row) while the tarpit takes the posts meant for it, with no
// unexpected answer; the honest players log in and get their
// confirmation mails in both runs; the last line is the ABUSE line.
func TestLongAbuseRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the server and runs a load: not in -short")
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"-rate", "20", "-duration", "8s", "-abuse"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut.String(), out.String())
	}
	last := lastLine(out.String())
	re := regexp.MustCompile(`^ABUSE rate=20 pairs=1 p99_ms_calm=[\d.]+ p99_ms_attacked=[\d.]+ ratio=[\d.]+ ratios=[\d.]+ mail_s_calm=([\d.]+) mail_s_attacked=([\d.]+) mail_ratio=[\d.]+ errors=(\d+) rate_held=\w+ held=\w+ ` +
		`login_ms_calm=[\d.]+ login_ms_attacked=[\d.]+ logins_made=(\d+)/(\d+) bot_move_s_calm=[\d.]+ bot_move_s_attacked=[\d.]+ bot_moves=\d+/\d+ ` +
		`slow_bodies=8 streams_refused=(\d+)/(\d+) tables_opened=(\d+)/(\d+) signups_made=(\d+)/(\d+) guests_made=(\d+)/(\d+) hash_refused=(\d+)/(\d+) tarpit_posts=(\d+) bot_games=(\d+)/(\d+) rematches=(\d+)/\d+ unexpected=(\d+) honest_failures=(\d+)$`)
	m := re.FindStringSubmatch(last)
	if m == nil {
		t.Fatalf("last line %q does not match %s\n%s", last, re, out.String())
	}
	num := func(i int) int { n, _ := strconv.Atoi(m[i]); return n }
	if num(3) != 0 || num(20) != 0 || num(21) != 0 {
		t.Fatalf("players' errors, unexpected attack answers or honest players' failures: %q\n%s", last, out.String())
	}
	if num(7)-num(6) > 8 || num(8) > 10 || num(10) > 5 || num(6) == 0 || num(9) <= 10 || num(11) <= 5 {
		t.Fatalf("the attacks were not held to the limits (8 streams, 10 tables, 5 sign-ups): %q", last)
	}
	// An address makes 10 guests in a row, the rest refused (saying why:
	// else an unexpected answer).
	if num(12) == 0 || num(12) > 10 || num(13) <= 10 {
		t.Fatalf("the guest flood was not held to 10 guests an address: %q", last)
	}
	// Two addresses get 20 password checks each at once, then one every
	// three seconds; a player opens 10 games in a row and no rematch more.
	if num(14) == 0 || num(15)-num(14) > 2*(20+4) || num(17) != 2*10 || num(18) <= num(17) || num(19) != 0 {
		t.Fatalf("the hashing flood or the hard bots' games were not held to the limits: %q", last)
	}
	if num(16) < attackHookAccounts {
		t.Fatalf("the tarpit took %d posts; want one at least for each of its %d accounts: %q", num(16), attackHookAccounts, last)
	}
	if num(4) == 0 || num(4) != num(5) {
		t.Fatalf("the honest players' log-ins under the hashing flood: %s/%s made: %q", m[4], m[5], last)
	}
	for _, s := range m[1:3] {
		if d, _ := strconv.ParseFloat(s, 64); d == 0 || d > 10 {
			t.Fatalf("a mean mail delay of %s s: %q", s, last)
		}
	}
}

// TestLongScaleTools: -fill makes a small database of the asked size and
// -scale measures its pages and the worker's reads, ending with the SCALE
// line, again on the same file (its first run moved some games on).
func TestLongScaleTools(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the server: not in -short")
	}
	db := t.TempDir() + "/scale.db"
	var out, errOut bytes.Buffer
	if code := run([]string{"-fill", db, "-fill-users", "100", "-fill-finished", "300", "-fill-running", "60"}, &out, &errOut); code != 0 {
		t.Fatalf("fill: exit %d: %s\n%s", code, errOut.String(), out.String())
	}
	if !regexp.MustCompile(`(?m)^FILL users=100 finished=300 running=60 seconds=\d+ size_mb=\d+$`).MatchString(out.String()) {
		t.Fatalf("no FILL line:\n%s", out.String())
	}
	for round := 1; round <= 2; round++ {
		out.Reset()
		if code := run([]string{"-scale", db}, &out, &errOut); code != 0 {
			t.Fatalf("scale %d: exit %d: %s\n%s", round, code, errOut.String(), out.String())
		}
		if !regexp.MustCompile(`(?m)^SCALE db=scale.db home_ms=[\d.]+ game_ms=[\d.]+ notices_ms=[\d.]+ profile_ms=[\d.]+ games_ms=[\d.]+ move_ms=[\d.]+ worker_ms=[\d.]+ \(medians of 20 players\)$`).MatchString(out.String()) {
			t.Fatalf("scale %d: no SCALE line:\n%s", round, out.String())
		}
	}
}
