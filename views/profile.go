package views

import (
	"fmt"
	"time"
)

// ProfileVM is a player's profile: who they are, their rating and its
// history, their counts, and a page of their finished games.
type ProfileVM struct {
	Page
	Name       string
	Since      time.Time
	Rating     float64
	RatedGames int
	// Provisional is how many rated games a rating needs to be
	// established.
	Provisional int
	History     []float64 // the rating after each of the latest rated games, oldest first
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

// chart is the rating history drawn as a line in a box of chartW×chartH.
func (vm ProfileVM) chart() (points string, lo, hi float64) {
	return chartPoints(vm.History, chartW, chartH)
}

const chartW, chartH = 300, 80

func (vm ProfileVM) chartBox() string { return fmt.Sprintf("0 0 %d %d", chartW, chartH) }
