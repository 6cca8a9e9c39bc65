// Package views renders the site's pages and fragments with templ. Components
// take view models built by the handlers from a viewer-scoped engine.View:
// nothing here does I/O or sees what the viewer may not.
package views

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"cacao/engine"
)

// Page is what every page's layout needs.
type Page struct {
	Title  string
	User   *User
	CSRF   string
	Unread int64
	Flash  string
}

// User is the signed-in person.
type User struct {
	ID   uint
	Name string
}

// AuthVM is the log-in or sign-up form.
type AuthVM struct {
	Page
	Signup   bool
	Username string
	Error    string
	Next     string
}

// GameLine is one game in a list.
type GameLine struct {
	ID          uint
	Status      string
	Players     []string
	Open        int
	WaitingOnMe bool
	Invite      string
	TurnLimit   string // "3 days per turn"
	TimeLeft    string // of my turn, when the game waits on me with a limit
}

// HomeVM is the signed-in home: my games, invitations and the lobby.
type HomeVM struct {
	Page
	Mine        []GameLine
	Invited     []GameLine
	Open        []GameLine
	Error       string
	BotNames    []string
	TurnLimits  []int // hours; 0 is no limit
	LiveVersion int   // of the lists, for live updates
}

// LimitName names a time limit per turn given in hours.
func LimitName(hours int) string {
	switch hours {
	case 0:
		return "no limit"
	case 24:
		return "1 day"
	default:
		return fmt.Sprintf("%d days", hours/24)
	}
}

// SettingsVM is the settings page: email and vacation.
type SettingsVM struct {
	Page
	Email         string
	Verified      bool
	Mode          string
	VacationUntil string // "" when not on vacation
	VacationLeft  int
	VacationMax   int
	Error         string
}

// SinceVM is what happened in a game since the viewer's own last move.
type SinceVM struct {
	Lines []SinceLine
	Mine  string        // what the viewer gained meanwhile, in words
	Cells []engine.Cell // sorted
}

// SinceLine is one change by someone else; New when the viewer has not
// seen it before.
type SinceLine struct {
	Text string
	New  bool
}

// Seat is a player at the table as everyone sees them.
type Seat struct {
	Index   int
	Name    string
	Letter  string
	Bot     string
	Village engine.SeatView
	IsMe    bool
	ToPlay  bool
	Clock   string // "2 days 3 h left", "on vacation until …"; "" without a limit
}

// Selection is the viewer's choice in progress, carried in the URL so that
// every step also works as a plain link without JavaScript.
type Selection struct {
	Tile      string
	Rot       int
	At        *engine.Cell
	Overbuild bool
	Fill      int
}

// Query returns the selection as URL query parameters, with changes.
func (s Selection) Query() url.Values {
	q := url.Values{}
	if s.Tile != "" {
		q.Set("tile", s.Tile)
		q.Set("rot", strconv.Itoa(s.Rot))
	}
	if s.At != nil {
		q.Set("at", fmt.Sprintf("%d,%d", s.At.X, s.At.Y))
		if s.Overbuild {
			q.Set("overbuild", "1")
		}
		if s.Fill > 0 {
			q.Set("fill", strconv.Itoa(s.Fill))
		}
	}
	return q
}

// EdgeChoice is one fired edge the viewer resolves: how many workers to use
// (0..Workers) and in which order.
type EdgeChoice struct {
	Key     string // "x,y,S"
	Label   string
	Workers int
	Order   int
	Unknown bool // faces a tile still in the pile
}

// PlayVM is the viewer's turn panel.
type PlayVM struct {
	MyTurn      bool
	CanAct      bool // my turn and no pending choice of mine blocks it
	Cells       map[engine.Cell]bool
	FillOptions []string
	Edges       []EdgeChoice
	Preview     []string
	Ready       bool // a full move is selected: show the confirm form
	Reason      string
}

// Pending is the viewer's batch waiting for a choice.
type Pending struct {
	Turn  int
	Edges []EdgeChoice
	More  int
}

// ScoreLine is one row of the final (or current) score table.
type ScoreLine struct {
	Name   string
	Letter string
	engine.Score
	Winner bool
}

// GameVM is the game page.
type GameVM struct {
	Page
	ID        uint
	Version   int
	Status    string
	Me        int
	Seats     []Seat
	View      engine.View
	Sel       Selection
	Play      PlayVM
	Pending   *Pending
	Log       []string
	Scores    []ScoreLine
	Temples   []string
	Error     string
	Invite    string
	Finished  bool
	TurnLimit string
	Since     *SinceVM
	InvitedMe bool // a seat of this open game is kept for the viewer
}

// Letters name the seats besides their colours.
var Letters = []string{"A", "B", "C", "D"}

// ColourNames are the seat colours' names.
var ColourNames = []string{"red", "purple", "white", "yellow"}

// CellLabel is how a cell is named to players.
func CellLabel(c engine.Cell) string { return fmt.Sprintf("(%d, %d)", c.X, c.Y) }

// JungleName is a jungle tile in words.
func JungleName(j engine.Jungle) string {
	if j == engine.NoJungle {
		return "an unknown tile from the pile"
	}
	k := j.Kind()
	switch k.Effect {
	case engine.Plantation:
		return fmt.Sprintf("Plantation %d", k.Value)
	case engine.Market:
		return fmt.Sprintf("Market %d", k.Value)
	case engine.Mine:
		return fmt.Sprintf("Gold mine %d", k.Value)
	case engine.Water:
		return "Water"
	case engine.SunSite:
		return "Sun site"
	default:
		return "Temple"
	}
}

// GainText says what a seat gains, e.g. "+2 gold, +1 fruit"; "" for nothing.
func GainText(g engine.Gain) string {
	var parts []string
	add := func(n int, what string) {
		if n != 0 {
			parts = append(parts, fmt.Sprintf("%+d %s", n, what))
		}
	}
	add(g.Gold, "gold")
	add(g.Fruit, "fruit")
	add(g.Sun, "sun")
	if g.WaterSteps != 0 {
		parts = append(parts, fmt.Sprintf("water %+d step(s) (%+d points)", g.WaterSteps, g.Water))
	}
	return strings.Join(parts, ", ")
}

// Link is the game page URL with selection s.
func (vm GameVM) Link(s Selection) string {
	u := fmt.Sprintf("/games/%d", vm.ID)
	if q := s.Query().Encode(); q != "" {
		u += "?" + q
	}
	return u
}

// WithTile selects a hand tile, keeping the cell when there is one.
func (s Selection) WithTile(name string) Selection {
	s.Tile, s.Rot, s.Fill = name, 0, 0
	return s
}

// Rotated turns the selected tile a quarter turn clockwise.
func (s Selection) Rotated() Selection {
	s.Rot = (s.Rot + 1) % 4
	s.Fill = 0
	return s
}

// WithCell chooses a cell.
func (s Selection) WithCell(c engine.Cell, overbuild bool) Selection {
	s.At, s.Overbuild, s.Fill = &c, overbuild, 0
	return s
}

// WithFill chooses a fill option.
func (s Selection) WithFill(i int) Selection {
	s.Fill = i
	return s
}

// Name is a seat's name, or "seat N".
func (vm GameVM) Name(seat int) string {
	if seat >= 0 && seat < len(vm.Seats) {
		return vm.Seats[seat].Name
	}
	return fmt.Sprintf("seat %d", seat)
}

func (vm GameVM) names() []string {
	out := make([]string, len(vm.Seats))
	for i, s := range vm.Seats {
		out[i] = s.Name
	}
	return out
}

// boardFor lays out the board with the cells the viewer may choose now.
func (vm GameVM) boardFor() Board {
	var legal []engine.Cell
	for c := range vm.Play.Cells {
		legal = append(legal, c)
	}
	sortCells(legal)
	b := NewBoard(vm.View, legal)
	b.Names = vm.names()
	if vm.Since != nil {
		b.Changed = vm.Since.Cells
	}
	b.Link = func(c engine.Cell) string {
		over := false
		for _, t := range vm.View.Tiles {
			if t.At == c && t.Jungle == engine.NoJungle {
				over = true
			}
		}
		return vm.Link(vm.Sel.WithCell(c, over))
	}
	if vm.Sel.At != nil && vm.Sel.Tile != "" {
		if w, ok := engine.ParseWorker(vm.Sel.Tile); ok {
			b.Ghost = &engine.TileView{At: *vm.Sel.At, Edges: edgesOf(w, vm.Sel.Rot)}
		}
	}
	return b
}

func sortCells(cs []engine.Cell) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].Less(cs[j-1]); j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// NotificationLine is one notification.
type NotificationLine struct {
	Text   string
	GameID uint
	Unread bool
	At     time.Time
}
