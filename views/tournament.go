package views

import (
	"context"
	"fmt"
	"math"
	"strings"

	"cacao/views/i18n"
)

// TournamentsVM is the list of tournaments (/tournaments): open for
// sign-up, running, and the latest finished.
type TournamentsVM struct {
	Page
	Signup, Running, Finished []TourLine
	MayCreate                 bool // the viewer has an account
}

// TourLine is a tournament in a list.
type TourLine struct {
	ID      uint
	Name    string
	Kind    string // its format and tables, in words
	Private bool
	Players int
	Max     int
	Closes  string // when sign-up closes
	Round   int
	Rounds  int
	Winners []string
	// Cancelled: it ended before it started, for want of players.
	Cancelled bool
}

// TournamentVM is a tournament's page.
type TournamentVM struct {
	Page
	ID        uint
	Name      string
	Creator   string
	Kind      string // its format and tables, in words
	TurnLimit string // "3 days per turn"
	RoundDays int
	Private   bool
	State     string // "signup", "running", "finished" or "cancelled"
	Closes    string // when sign-up closes (closed)
	Started   string // when sign-up closed and play started ("" before)
	Max       int
	Players   []string
	Invited   []string
	Round     int
	Rounds    int // 0: decided when it starts
	RoundEnds string
	Standings []StandingLine
	RoundList []RoundLine // the latest first
	Winners   []string
	Joined    bool
	MayJoin   bool
	// WinPoints is what a win and a bye are worth; Multi, whether its
	// tables are of three or four (how places earn points).
	WinPoints int
	Multi     bool
	Swiss     bool
}

// StandingLine is a line of a tournament's standings.
type StandingLine struct {
	Place          int
	Name           string
	Points         float64
	Opponents      float64
	Scored         int
	Rating         int
	Games          int
	Byes           int
	WithdrawnAfter int
	Me             bool
}

// RoundLine is a round of a tournament: its games, and who had a bye.
type RoundLine struct {
	Number int
	Games  []RoundGame
	Byes   []string
}

// RoundGame is a game of a round: its players in play order, and once it
// is over their places and points.
type RoundGame struct {
	ID    uint
	Over  bool
	Ended bool // stopped without a result
	Seats []RoundSeat
}

// RoundSeat is a player at a round's game.
type RoundSeat struct {
	Name   string
	Place  int
	Points float64
}

// NewTournamentVM is the form that opens a tournament: Admin may open one
// for everyone; Error says why the last try was refused, Form keeps what
// was entered.
type NewTournamentVM struct {
	Page
	Admin      bool
	Error      string
	Form       TourForm
	TurnHours  []int
	RoundDays  []int
	SignupDays []int
	MaxRounds  int
	MaxPrivate int
	MaxPublic  int
	MinPlayers int
	MaxOwn     int // private tournaments not over one may have
}

// Places is the most places the viewer's tournament may have: a private
// one's, unless they may open one for everyone.
func (vm NewTournamentVM) Places() int {
	if vm.Admin {
		return vm.MaxPublic
	}
	return vm.MaxPrivate
}

// TourForm is what the form to open a tournament holds.
type TourForm struct {
	Name       string
	Format     string // "swiss" or "round-robin"
	Multi      bool
	TurnHours  int
	RoundDays  int
	SignupDays int
	Rounds     int
	MaxPlayers int
	Public     bool
	Invite     string
}

// PointsText writes a tournament's points: whole, with a half, or to two
// places.
func PointsText(l *i18n.Lang, v float64) string {
	whole := math.Floor(v + 1e-9)
	frac := v - whole
	switch {
	case frac < 0.005:
		return l.Num(int(whole))
	case math.Abs(frac-0.5) < 0.005:
		if whole == 0 {
			return "½"
		}
		return l.Num(int(whole)) + "½"
	}
	hundredths := int(math.Round(frac * 100))
	if hundredths == 100 {
		return l.Num(int(whole) + 1)
	}
	var b strings.Builder
	for _, d := range strings.TrimRight(fmt.Sprintf("%02d", hundredths), "0") {
		b.WriteString(l.Num(int(d - '0')))
	}
	return l.Num(int(whole)) + "." + b.String()
}

// TournamentURL is the address of tournament id's page.
func TournamentURL(id uint) string { return fmt.Sprintf("/tournaments/%d", id) }

// roundSeatsText is a round's game in words: its players in play order,
// each with their place and points once it is over; or that it is still
// played, or ended without a result.
func roundSeatsText(ctx context.Context, g RoundGame) string {
	l := lang(ctx)
	parts := make([]string, len(g.Seats))
	for i, seat := range g.Seats {
		parts[i] = seat.Name
		if g.Over {
			parts[i] = l.T("%s (%s, points: %s)", seat.Name, Ordinal(l, seat.Place, false), PointsText(l, seat.Points))
		}
	}
	text := strings.Join(parts, l.T(", "))
	switch {
	case g.Ended:
		return l.T("%s (ended without a result)", text)
	case !g.Over:
		return l.T("%s (being played)", text)
	}
	return text
}
