package views

import (
	"math"
	"strings"

	"cacao/engine"
	"cacao/views/i18n"
)

// ReviewVM is a player's review of their turns in a finished game
// (/games/ID/review), for that player alone.
type ReviewVM struct {
	Page
	ID uint
	// Asked: the review was asked for; Done: it is made (Turns).
	Asked, Done bool
	Turns       []ReviewLine
	// Made is how many turns the review judges, while it is being made;
	// Deals, on how many deals each move is judged.
	Made, Deals int
}

// ReviewLine is one turn of a review.
type ReviewLine struct {
	Turn       int    // the game's turn, from 1
	Link       string // the position before it (/games/ID/turns/N)
	PlayedWon  int    // per cent of the deals won after the move played
	BestWon    int    // after the hard bot's choice
	Same       bool   // the move played was the bot's
	MostLost   bool   // among the turns where most was given away
	BestText   string // the bot's choice in words
	PlayedText string // the move played in words
}

// TurnReviewCard is a turn's review on the page of the position before it
// (ReplayVM.Review), with the bot's choice drawn on the board (Ghost).
type TurnReviewCard struct {
	Line   ReviewLine
	Review string // the whole review's address
	Ghost  *Ghost
}

// Ghost is a worker tile drawn on the board where no tile is, with the
// jungle tiles it would fill beside it.
type Ghost struct {
	Seat  int
	Tile  engine.Worker
	Rot   int
	At    engine.Cell
	Fills []engine.Fill
}

// Percent is a share (0–1) in whole per cent.
func Percent(share float64) int { return int(math.Round(share * 100)) }

// MoveText tells a move (a worker tile laid, or an overbuild, with its
// fills) in words.
func MoveText(l *i18n.Lang, m engine.Move) string {
	at := CellLabel(l, m.At)
	text := l.T("%s at %s", WorkerLabel(l, m.Tile, m.Rot), at)
	if m.Overbuild {
		text = l.T("%s, overbuilding at %s", WorkerLabel(l, m.Tile, m.Rot), at)
	}
	parts := []string{text}
	for _, f := range m.Fills {
		parts = append(parts, l.T("filled %s with %s", CellLabel(l, f.At), JungleName(l, f.Tile)))
	}
	return strings.Join(parts, l.T("; "))
}
