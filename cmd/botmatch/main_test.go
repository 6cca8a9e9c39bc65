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
