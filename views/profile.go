package views

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ProfileVM is a player's profile: who they are, their rating and its
// history, their counts, and a page of their finished games.
type ProfileVM struct {
	Page
	// Name is the player's name as shown (marked: Marked); User, their
	// username.
	Name, User string
	Since      time.Time
	// Bot: a bot account, a program's, rated apart from people.
	Bot bool
	// CanFollow: the reader, signed in, is someone else, who may follow
	// them and invite them; Following, they do; LastSeen, when the player
	// was last on the site, for a reader following them ("" if hidden).
	CanFollow, Following bool
	LastSeen             string
	// Ratings are the player's two ratings: of games of two, then of
	// three or four.
	Ratings [2]ProfileRating
	// Provisional is how many rated games a rating needs to be
	// established.
	Provisional int
	Stats       ProfileStats
	Games       []GameLine
	Filter      HistoryFilter
	Pager       Pager
}

// ProfileStats is a profile's counts.
type ProfileStats struct {
	Finished, Wins         int
	Places                 [4]int
	Average                string
	Resignations, Timeouts int
}

// ProfileRating is one of a player's ratings: of games of two (More
// false) or of three or four, from RatedGames games, their place on its
// leaderboard (0: not on it), and its history.
type ProfileRating struct {
	More       bool
	Rating     float64
	RatedGames int
	Place      int
	History    []RatingPoint // the rating after each of the latest rated games, oldest first
}

// RatingPoint is a player's rating after a rated game finished at At.
type RatingPoint struct {
	At     time.Time
	Rating float64
}

// Chart is a rating history drawn in a box of chartW×chartH: the line's
// points; the highest and lowest ratings, each on a gridline at its
// height, written on the axis; the dates of the first and last games
// under the axis; and the last point, the rating now, marked.
type Chart struct {
	Points      string
	Hi, Lo      float64
	HiY, LoY    float64
	First, Last time.Time
	NowX, NowY  float64
}

// The chart's box, and the plot within it: room for the ratings on the
// left, the dates below.
const (
	chartW, chartH                 = 360, 150
	plotX0, plotX1, plotY0, plotY1 = 48.0, 340.0, 12.0, 118.0
)

// rounded is a rating written as a whole number.
func rounded(ctx context.Context, r float64) string { return num(ctx, int(math.Round(r))) }

// f1 writes a coordinate with one decimal.
func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func (r ProfileRating) chartBox() string { return fmt.Sprintf("0 0 %d %d", chartW, chartH) }

// chart draws r.History (two points at least).
func (r ProfileRating) chart() Chart {
	h := r.History
	c := Chart{Hi: h[0].Rating, Lo: h[0].Rating, First: h[0].At, Last: h[len(h)-1].At}
	for _, p := range h {
		c.Lo, c.Hi = math.Min(c.Lo, p.Rating), math.Max(c.Hi, p.Rating)
	}
	// A flat history is drawn in the middle of a span of 20 points.
	span := math.Max(c.Hi-c.Lo, 20)
	mid := (c.Hi + c.Lo) / 2
	y := func(r float64) float64 { return plotY1 - (r-(mid-span/2))/span*(plotY1-plotY0) }
	var b strings.Builder
	for i, p := range h {
		x := plotX0 + float64(i)*(plotX1-plotX0)/float64(len(h)-1)
		fmt.Fprintf(&b, "%.1f,%.1f ", x, y(p.Rating))
		c.NowX, c.NowY = x, y(p.Rating)
	}
	c.Points = strings.TrimSpace(b.String())
	c.HiY, c.LoY = y(c.Hi), y(c.Lo)
	return c
}
