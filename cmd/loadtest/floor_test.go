package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary be the floor's server too, as the
// loadtest binary is (runFloor starts its own executable).
func TestMain(m *testing.M) {
	if dir := os.Getenv(floorEnv); dir != "" {
		os.Exit(serveFloor(dir))
	}
	os.Exit(m.Run())
}

// TestSamplerKeepsAUniformSample: at most samplesPerKind answers a kind,
// drawn from the whole run, not its first ones; saved as the floor reads
// them, an earlier run's gone.
func TestSamplerKeepsAUniformSample(t *testing.T) {
	s := newSampler(1)
	const n = 10_000
	for i := 0; i < n; i++ {
		s.add("select", fmt.Sprint(i))
	}
	s.add("turn", "only")
	late := 0
	for _, b := range s.bodies["select"] {
		var i int
		fmt.Sscan(b, &i)
		if i >= n/2 {
			late++
		}
	}
	if len(s.bodies["select"]) != samplesPerKind || late < samplesPerKind/4 || late > 3*samplesPerKind/4 {
		t.Fatalf("%d select answers kept, %d from the run's second half; want %d, about half", len(s.bodies["select"]), late, samplesPerKind)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "turn-9.html"), []byte("old"), 0o644)
	if err := s.save(dir); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "*.html")); len(files) != samplesPerKind+1 {
		t.Fatalf("%d files saved, want %d", len(files), samplesPerKind+1)
	}
}

// TestFloorMix: requests of each kind a committed turn, of the kinds the
// floor sends.
func TestFloorMix(t *testing.T) {
	st := &Stats{Turns: 4, Lat: map[string][]time.Duration{"select": make([]time.Duration, 9), "turn": make([]time.Duration, 4), "signup": make([]time.Duration, 2)}}
	if mix := floorMix(st); len(mix) != 2 || mix["select"] != 2.25 || mix["turn"] != 1 {
		t.Fatalf("mix %v, want select 2.25 and turn 1 (sign-ups are not sent)", mix)
	}
	if len(floorMix(&Stats{})) != 0 {
		t.Fatal("a run without turns has a mix")
	}
}

// TestFloorSendsTheAnswersAgain: the floor offers its rate of turns, each
// the mix's requests, to a server of its own that answers them from the
// samples without an error, and measures that server's CPU a turn; the
// RATE line divides the run's by it.
func TestFloorSendsTheAnswersAgain(t *testing.T) {
	s := newSampler(1)
	s.add("select", `<div id="game-main">`+strings.Repeat(`<a class="cell" hx-get="/games/1?at=1,0">x</a>`, 60)+`</div>`)
	s.add("turn", `<div id="game-main"></div>`)
	f, err := runFloor(context.Background(), s, filepath.Join(t.TempDir(), "floor"), map[string]float64{"select": 1.5, "turn": 1}, 200, 2*time.Second, 1)
	if err != nil {
		t.Fatal(err)
	}
	if f.Errors != 0 || f.Turns < 380 || f.Turns > 420 || f.Requests < 2*f.Turns || f.Requests > 3*f.Turns || f.ServerCPU <= 0 {
		t.Fatalf("%d turns, %d requests, %d errors, server CPU %v; want 400 turns of 2 or 3 requests", f.Turns, f.Requests, f.Errors, f.ServerCPU)
	}
	rep := &RateReport{Rate: 200, Stats: Stats{Turns: 400, Elapsed: 2 * time.Second, Lat: map[string][]time.Duration{}}, CPU: CPU{Server: 4 * time.Second, Gen: time.Second}, Floor: f}
	var out bytes.Buffer
	rep.Print(&out)
	if !regexp.MustCompile(`(?m)^floor: the run's requests a turn, \d+ turns .* server CPU [\d.]+ ms a turn$`).MatchString(out.String()) ||
		!regexp.MustCompile(`(?m)floor_cpu_ms_per_turn=[\d.]+ floor_ratio=[\d.]+$`).MatchString(out.String()) {
		t.Fatalf("report:\n%s", out.String())
	}
	if _, err := runFloor(context.Background(), s, filepath.Join(t.TempDir(), "floor"), map[string]float64{"select": 1}, 50, time.Second, 1); err == nil {
		t.Fatal("a floor without turns ran")
	}
}
