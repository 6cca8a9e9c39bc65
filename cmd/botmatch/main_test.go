package main

import (
	"bytes"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A short match prints its figures and the RESULT line, with the games
// rounded up to whole sets of one deal per seat.
func TestMatch(t *testing.T) {
	var out bytes.Buffer
	c := config{a: "hard", b: "greedy", games: 5, players: 3, iters: 200, seed: 1, workers: 2}
	if err := run(c, &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	m := regexp.MustCompile(`RESULT a=hard b=greedy players=3 games=6 a_wins=(\d+) ties=(\d+) a_first=(\d+) best_b_first=(\d+) `).FindStringSubmatch(got)
	if m == nil || !strings.Contains(got, "a's margin over the best b:") || !strings.Contains(got, "b 2 seat(s) after a first:") {
		t.Fatalf("the match printed:\n%s", got)
	}
	if err := run(config{a: "hard", b: "clever", games: 2, players: 2}, &out); err == nil {
		t.Fatal("an unknown bot was accepted")
	}
}

// Every deal is played once with a in each seat.
func TestSeatBalance(t *testing.T) {
	c := config{a: "greedy", b: "random", players: 4, seed: 7}
	seats := map[uint64][]int{}
	for g := 0; g < 8; g++ {
		seed, seat := c.deal(g)
		seats[seed] = append(seats[seed], seat)
	}
	if len(seats) != 2 {
		t.Fatalf("8 games of 4 players were %d deals", len(seats))
	}
	for seed, s := range seats {
		if !slices.Equal(s, []int{0, 1, 2, 3}) {
			t.Fatalf("deal %d is played with a in seats %v", seed, s)
		}
	}
}

func TestMeanCI(t *testing.T) {
	mean, half := meanCI([]float64{1, 2, 3, 4})
	// sd = sqrt(5/3); half = 1.96 sd / 2
	if mean != 2.5 || math.Abs(half-1.96*math.Sqrt(5.0/3)/2) > 1e-12 {
		t.Fatalf("meanCI = %v ± %v", mean, half)
	}
}

// The ladder prints a rung for random (the anchor), greedy and the search at
// each count, each with its Elo, interval and score against the rung below.
func TestLadder(t *testing.T) {
	var out bytes.Buffer
	c := config{a: "hard", games: 2, players: 2, seed: 1, workers: 2, ladder: "20,40"}
	if err := runLadder(c, &out); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"LADDER rung=random elo=0 ",
		"LADDER rung=greedy elo=",
		"against=random score=",
		"LADDER rung=hard@20 elo=",
		"against=greedy ",
		"LADDER rung=hard@40 elo=",
		"against=hard@20 ",
	} {
		if !strings.Contains(got, want) {
			t.Fatalf("the ladder lacks %q:\n%s", want, got)
		}
	}
	for _, bad := range []string{"20,10", "x", ""} {
		c.ladder = bad
		if err := runLadder(c, &out); err == nil {
			t.Errorf("-rungs %q was accepted", bad)
		}
	}
	if _, err := (config{}).newBot("greedy@100"); err == nil {
		t.Error("greedy@100 was accepted")
	}
	if b, err := (config{}).newBot("hard-v1@300"); err != nil || b.Name() != "hard-v1" {
		t.Errorf("hard-v1@300 = %v, %v", b, err)
	}
}

// eloStep: an even score is no step; 3 in 4 is 400·log10(3), about 191; a
// clean sweep is a bound, taken as half a game less.
func TestEloStep(t *testing.T) {
	if s, _, b := eloStep(5, 10); s != 0 || b {
		t.Errorf("5 of 10: %v, %v", s, b)
	}
	if s, v, _ := eloStep(30, 40); math.Abs(s-400*math.Log10(3)) > 1e-9 || v <= 0 {
		t.Errorf("30 of 40: %v ± %v", s, v)
	}
	if s, _, b := eloStep(10, 10); !b || math.Abs(s-400*math.Log10(19)) > 1e-9 {
		t.Errorf("10 of 10: %v, %v", s, b)
	}
}
