package main

import (
	"bytes"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

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

// TestStopAfterKill: a server killed is stopped; stopping it again (or
// killing it again) returns at once.
func TestStopAfterKill(t *testing.T) {
	s := &Server{Cmd: exec.Command("sleep", "30"), done: make(chan error, 1)}
	if err := s.Cmd.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	go func() { s.done <- s.Cmd.Wait() }()
	done := make(chan struct{})
	go func() { s.Kill(); s.Stop(); s.Kill(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Stop after Kill hangs")
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// cpuLine is the CPU line both modes print.
var cpuLine = regexp.MustCompile(`(?m)^CPU over the measured time: server (\d+\.\d) s \((\d+\.\d+) ms per turn, \d+\.\d+ ms per request\), generator (\d+\.\d) s \((\d+\.\d+) ms per turn\); \d+ % of \d+ cores; server ÷ generator CPU per turn (\d+\.\d+)$`)

// TestReportsPrint: the closed loop's report ends with the RESULT line as
// other tools read it, the open loop's with the RATE line; both print the
// CPU per turn of each side and their ratio.
func TestReportsPrint(t *testing.T) {
	st := Stats{Elapsed: 10 * time.Second, Turns: 1000, Lat: map[string][]time.Duration{
		"select": {time.Millisecond, 2 * time.Millisecond}, "turn": {4 * time.Millisecond}}}
	cpu := CPU{Server: 3 * time.Second, Gen: 1500 * time.Millisecond, Cores: 2}
	var out bytes.Buffer
	(&Report{Stats: st, Users: 200, RawTxPerS: 9000, PeakRSSMB: 50, CPU: cpu}).Print(&out)
	if !regexp.MustCompile(`^RESULT turns_per_s=100 p99_ms=4\.00 errors=0 peak_rss_mb=50\.0 raw_sqlite_tx_per_s=9000$`).MatchString(lastLine(out.String())) {
		t.Fatalf("closed loop's last line: %q", lastLine(out.String()))
	}
	if m := cpuLine.FindStringSubmatch(out.String()); m == nil || m[2] != "3.00" || m[4] != "1.50" || m[5] != "2.00" {
		t.Fatalf("closed loop's CPU line (want 3.00 and 1.50 ms per turn, ratio 2.00):\n%s", out.String())
	}

	rr := &RateReport{Stats: st, Rate: 100, Offered: 1000, PeakRSSMB: 50, CPU: cpu, Sizing: SizeFor(100, time.Second, 0)}
	rr.StartLag = []time.Duration{0, 0, 3 * time.Millisecond}
	out.Reset()
	rr.Print(&out)
	re := regexp.MustCompile(`^RATE offered_turns_per_s=100 achieved_turns_per_s=100\.0 held=yes p50_ms=2\.00 p95_ms=4\.00 p99_ms=4\.00 errors=0 peak_rss_mb=50\.0 server_cpu_ms_per_turn=3\.00 generator_cpu_ms_per_turn=1\.50 cpu_ratio=2\.00 floor_cpu_ms_per_turn=-1\.00 floor_ratio=-1\.00$`)
	if !re.MatchString(lastLine(out.String())) {
		t.Fatalf("open loop's last line: %q", lastLine(out.String()))
	}
	if !cpuLine.MatchString(out.String()) || !strings.Contains(out.String(), "\nheld: yes (") {
		t.Fatalf("open loop's report:\n%s", out.String())
	}
	// Short of the rate: held says no, on its line and the RATE line.
	rr.Turns, rr.Backlog = 900, 150
	out.Reset()
	rr.Print(&out)
	if !strings.Contains(lastLine(out.String()), " held=no ") || !strings.Contains(out.String(), "\nheld: no (") {
		t.Fatalf("a run 10 %% short held:\n%s", out.String())
	}
}

// TestAbuseLine: the ABUSE line compares the players' p99 and the honest
// players' mean mail delay with the calm run's, and says held=yes only
// when both stay within twice it, every mail came and the attacked run
// held its rate without errors.
func TestAbuseLine(t *testing.T) {
	report := func(p99 time.Duration, mails ...time.Duration) *RateReport {
		return &RateReport{Rate: 100, Offered: 1000, Stats: Stats{Elapsed: 10 * time.Second, Turns: 1000,
			Lat: map[string][]time.Duration{"turn": {time.Millisecond, p99}}},
			Honest:  &Honest{Mails: mails, Logins: 2, LoginsMade: 2, LoginLat: []time.Duration{100 * time.Millisecond, 300 * time.Millisecond}, BotMoves: []time.Duration{time.Second}},
			Attacks: &Attacks{SlowBodies: 8, HashTries: 50, HashRefused: 40, TarpitPosts: 24, BotGames: 22, BotGamesOpened: 20}}
	}
	calm := report(10*time.Millisecond, 400*time.Millisecond, 600*time.Millisecond)
	line := abuseLine(100, []*RateReport{calm}, []*RateReport{report(15*time.Millisecond, 900*time.Millisecond, 1100*time.Millisecond)})
	re := regexp.MustCompile(`^ABUSE rate=100 pairs=1 p99_ms_calm=10\.00 p99_ms_attacked=15\.00 ratio=1\.50 ratios=1\.50 mail_s_calm=0\.50 mail_s_attacked=1\.00 mail_ratio=2\.00 errors=0 rate_held=true held=yes ` +
		`login_ms_calm=100\.00 login_ms_attacked=100\.00 logins_made=2/2 bot_move_s_calm=1\.00 bot_move_s_attacked=1\.00 bot_moves=1/1 ` +
		`slow_bodies=8 streams_refused=0/0 tables_opened=0/0 signups_made=0/0 guests_made=0/0 hash_refused=40/50 tarpit_posts=24 bot_games=20/22 rematches=0/0 unexpected=0 honest_failures=0$`)
	if !re.MatchString(line) {
		t.Fatalf("the line of a run that held:\n%s", line)
	}
	for name, hit := range map[string]*RateReport{
		"mail more than twice as slow": report(15*time.Millisecond, 900*time.Millisecond, 1200*time.Millisecond),
		"p99 more than twice":          report(21*time.Millisecond, 500*time.Millisecond),
		"a mail lost": func() *RateReport {
			r := report(10*time.Millisecond, 500*time.Millisecond)
			r.Honest.MailsLost = 1
			return r
		}(),
		"no mail": report(10 * time.Millisecond),
		"an honest player failed": func() *RateReport {
			r := report(10*time.Millisecond, 500*time.Millisecond)
			r.Honest.Failures = 1
			return r
		}(),
		"the rate not held": func() *RateReport {
			r := report(10*time.Millisecond, 500*time.Millisecond)
			r.Turns = 800
			return r
		}(),
	} {
		if line := abuseLine(100, []*RateReport{calm}, []*RateReport{hit}); !strings.Contains(line, " held=no ") {
			t.Errorf("%s, yet held:\n%s", name, line)
		}
	}
	// Several pairs: the medians of the runs' p99 and mean mail delay are
	// compared, each pair's p99 ratio listed.
	ms := time.Millisecond
	calms := []*RateReport{report(10*ms, 500*ms), report(30*ms, 500*ms), report(12*ms, 500*ms)}
	hits := []*RateReport{report(20*ms, 600*ms), report(22*ms, 700*ms), report(100*ms, 2000*ms)}
	line = abuseLine(100, calms, hits)
	if !strings.Contains(line, " pairs=3 p99_ms_calm=12.00 p99_ms_attacked=22.00 ratio=1.83 ratios=2.00,0.73,8.33 mail_s_calm=0.50 mail_s_attacked=0.70 mail_ratio=1.40 ") ||
		!strings.Contains(line, " held=yes ") {
		t.Errorf("three pairs:\n%s", line)
	}
	hits[1].Honest.MailsLost = 1
	if line := abuseLine(100, calms, hits); !strings.Contains(line, " held=no ") {
		t.Errorf("a mail lost in one of three pairs, yet held:\n%s", line)
	}
}
