package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary be the floor's server too, as the
// loadtest binary is (RunFloor starts its own executable).
func TestMain(m *testing.M) {
	if dir := os.Getenv(floorEnv); dir != "" {
		os.Exit(serveFloor(dir))
	}
	os.Exit(m.Run())
}

// TestSamplerKeepsAUniformSample: at most samplesPerKind answers per kind,
// drawn from the whole run, not its first ones; saved as the floor reads them.
func TestSamplerKeepsAUniformSample(t *testing.T) {
	s := newSampler(1)
	const n = 10_000
	for i := 0; i < n; i++ {
		s.add("select", fmt.Sprint(i))
	}
	s.add("turn", "only")
	got := s.bodies["select"]
	if len(got) != samplesPerKind {
		t.Fatalf("%d select answers kept, want %d", len(got), samplesPerKind)
	}
	late := 0
	for _, b := range got {
		var i int
		fmt.Sscan(b, &i)
		if i >= n/2 {
			late++
		}
	}
	// A uniform sample has about half from the second half of the run.
	if late < samplesPerKind/4 || late > 3*samplesPerKind/4 {
		t.Fatalf("%d of %d kept answers are from the second half of the run", late, samplesPerKind)
	}
	dir := t.TempDir()
	// An earlier run's answers, in a kept work directory, go.
	os.WriteFile(filepath.Join(dir, "turn-9.html"), []byte("old"), 0o644)
	if err := s.save(dir); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.html"))
	if len(files) != samplesPerKind+1 {
		t.Fatalf("%d files saved, want %d", len(files), samplesPerKind+1)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "turn-0.html")); string(b) != "only" {
		t.Fatalf("turn-0.html holds %q", b)
	}
}

// TestFloorMix: requests of each kind per committed turn.
func TestFloorMix(t *testing.T) {
	st := &Stats{Turns: 4, Lat: map[string][]time.Duration{"select": make([]time.Duration, 9), "turn": make([]time.Duration, 4), "signup": make([]time.Duration, 2)}}
	mix := FloorMix(st)
	if len(mix) != 2 || mix["select"] != 2.25 || mix["turn"] != 1 {
		t.Fatalf("mix %v, want select 2.25 and turn 1 (sign-ups are not replayed)", mix)
	}
	if len(FloorMix(&Stats{})) != 0 {
		t.Fatal("a run without turns has a mix")
	}
}

// TestInFlight is Little's law: summed latencies over the time measured.
func TestInFlight(t *testing.T) {
	st := &Stats{Elapsed: 2 * time.Second, Lat: map[string][]time.Duration{"a": {time.Second, 2 * time.Second}, "b": {3 * time.Second}}}
	if got := st.InFlight(); math.Abs(got-3) > 1e-9 {
		t.Fatalf("InFlight = %v, want 3", got)
	}
}

// TestFloorReplaysTheAnswers: the floor's server sends each recorded
// answer again, gzipped when the site would gzip it, and the floor's users
// read them without errors.
func TestFloorReplaysTheAnswers(t *testing.T) {
	dir := t.TempDir()
	big := `<div id="game-main" data-shown="1.5.en">` + strings.Repeat(`<a class="cell" hx-get="/games/1?at=1,0">x</a>`, 60) + `</div>`
	s := newSampler(1)
	s.add("select", big)
	s.add("turn", `<div id="game-main" data-shown="1.6.en"></div>`)
	if err := s.save(dir); err != nil {
		t.Fatal(err)
	}
	rep, err := RunFloor(context.Background(), dir, map[string]float64{"select": 1.5, "turn": 1}, 4, 1, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors != 0 || rep.Turns < 10 {
		t.Fatalf("%d turns, %d errors: %v", rep.Turns, rep.Errors, rep.ErrorSamples)
	}
	// Half a select more per turn on average: between 1 and 2 each.
	if sel := float64(len(rep.Lat["select"])) / float64(rep.Turns); sel < 1.3 || sel > 1.7 {
		t.Fatalf("%.2f selects per turn, want about 1.5", sel)
	}
	sel, turn := rep.Bytes["select"], rep.Bytes["turn"]
	if n := int64(len(rep.Lat["select"])); sel.Body != n*int64(len(big)) || sel.Wire >= sel.Body/4 {
		t.Fatalf("select answers: %d bytes read, %d on the wire for %d answers of %d bytes; want them whole and gzipped", sel.Body, sel.Wire, n, len(big))
	}
	if turn.Wire != turn.Body {
		t.Fatalf("short turn answers gzipped: %d on the wire, %d read", turn.Wire, turn.Body)
	}
	var out bytes.Buffer
	rep.Print(&out)
	if !regexp.MustCompile(`^floor: 4 users .*: \d+ turns/s, p99 [\d.]+ ms, 0 errors; CPU per turn: server [\d.]+ ms, generator [\d.]+ ms\n$`).MatchString(out.String()) {
		t.Fatalf("floor line: %q", out.String())
	}
}

// TestFloorNeedsTurns: a run without a committed turn (or whose turns'
// answers all failed) has no floor; its report says so and stays whole.
func TestFloorNeedsTurns(t *testing.T) {
	o := Options{Dir: t.TempDir(), Duration: time.Second}
	for name, rep := range map[string]*Report{
		"no turns":        {Stats: Stats{Elapsed: time.Second, Lat: map[string][]time.Duration{"select": {time.Millisecond}}}},
		"no answers kept": {Stats: Stats{Turns: 3, Elapsed: time.Second, Lat: map[string][]time.Duration{"turn": make([]time.Duration, 3)}}},
	} {
		start := time.Now()
		f, err := floor(context.Background(), o, rep, newSampler(1), io.Discard)
		if f != nil || err == nil || time.Since(start) > 500*time.Millisecond {
			t.Fatalf("%s: floor %v, error %v", name, f, err)
		}
		rep.FloorErr = err
		var out bytes.Buffer
		rep.Print(&out)
		if !strings.Contains(out.String(), "floor: not measured: ") || !strings.HasPrefix(lastLine(out.String()), "RESULT ") {
			t.Fatalf("%s: report:\n%s", name, out.String())
		}
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
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
