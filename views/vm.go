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
	"cacao/views/i18n"
)

// Page is what every page's layout needs.
type Page struct {
	Title  string
	User   *User
	CSRF   string
	Unread int64
	Flash  string
	Path   string // the page's own address, where a language change returns
}

// BotName names a bot kind for players.
func BotName(l *i18n.Lang, kind string) string {
	switch kind {
	case "greedy":
		return l.T("greedy bot")
	case "random":
		return l.T("random bot")
	}
	return kind
}

// SeatName is the name a seat is shown by: a bot's is made of its kind
// and its place at the table ("greedy bot 2", stored so in English, as
// records carry it) and told in the page's language; a person's is as they
// wrote it.
func SeatName(l *i18n.Lang, name, bot string) string {
	rest, ok := strings.CutPrefix(name, bot+" bot ")
	if bot == "" || !ok || BotName(l, bot) == bot {
		return name // a person, or a kind of bot with no name of its own
	}
	n, err := strconv.Atoi(rest)
	if err != nil {
		return name
	}
	return l.T("%s %d", BotName(l, bot), n)
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
	Open        int // seats not taken yet, kept ones too: what the game waits for
	Free        int // of those, the seats the viewer may take (not kept for someone else)
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
	// MoreFinished is how many finished games of the viewer are not
	// listed; ListsURL is the address the lists are fetched again from.
	MoreFinished int
	ListsURL     string
}

// LimitName names a time limit per turn given in hours.
func LimitName(l *i18n.Lang, hours int) string {
	if hours == 0 {
		return l.T("no limit")
	}
	return l.N("%d day", "%d days", hours/24, hours/24)
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
	AutoDecide    bool // the viewer's standing policy: choices made at once with the best value
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
	Slot      int // the tile's place in the hand when an alike one comes before it, else 0
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
		if s.Slot > 0 {
			q.Set("slot", strconv.Itoa(s.Slot))
		}
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
	Places      []Place // where the selected tile can go, with what each brings
}

// Place is a cell the selected tile may go to and what placing it there
// (with the first fill option) would bring everyone, in words.
type Place struct {
	At        engine.Cell
	Overbuild bool
	Link      string
	Gains     string
	Label     string // PlaceLabel: what the cell's link says (worked out once, drawn twice)
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
	Log       []string // the log's entries from LogFrom on
	LogFrom   int
	Scores    []ScoreLine
	Temples   []string
	Error     string
	Invite    string
	Finished  bool
	TurnLimit string
	Since     *SinceVM
	InvitedMe bool     // a seat of this open game is kept for the viewer
	CanJoin   bool     // a seat of this open game is free for the viewer (open, or kept for them)
	Announce  []string // others' moves since the page's last look, read out by screen readers
	LogLen    int      // log entries shown: a refetch announces what came after
	Fragment  bool     // rendered for htmx: the game area alone, with the announcements after it
	Step      bool     // a selection step's answer (htmx): the game area alone is taken, not the header's count
	Focus      string // the control the next step starts from ("rotate", "confirm"); none on live refetches
}

// LiveLink is the address a live refetch takes: the same selection, no
// focus move, and the log length seen so far.
func (vm GameVM) LiveLink() string {
	q := vm.Sel.Query()
	q.Set("live", "1")
	q.Set("from", strconv.Itoa(vm.LogLen))
	return fmt.Sprintf("/games/%d?%s", vm.ID, q.Encode())
}

// LinkAttrs are a StepLink's attributes besides its address (typed rather
// than a map: a board draws dozens of links on every request).
type LinkAttrs struct {
	ID, Class, Label string
	Cell, Tile       string // data-cell, data-tile
	Current          string // aria-current, "true" or "false"; "" for none
	Autofocus        bool   // the control a keyboard player goes on with
}

// PlaceLabel is what a place's links say: the cell and what placing the
// tile there would bring.
func PlaceLabel(l *i18n.Lang, p Place) string {
	verb := l.T("Place at %s", CellLabel(l, p.At))
	if p.Overbuild {
		verb = l.T("Overbuild your tile at %s", CellLabel(l, p.At))
	}
	if p.Gains == "" {
		return verb
	}
	return l.T("%s: %s", verb, p.Gains)
}

func displayText(l *i18n.Lang, d []engine.Jungle) string {
	if len(d) == 0 {
		return l.T("empty")
	}
	parts := make([]string, len(d))
	for i, j := range d {
		parts[i] = JungleName(l, j)
	}
	return strings.Join(parts, l.T(", "))
}

// JungleShort is a jungle tile's short name drawn on the board.
func JungleShort(l *i18n.Lang, j engine.Jungle) string {
	switch j.Kind().Effect {
	case engine.Plantation:
		return l.T("plantation")
	case engine.Market:
		return l.T("market")
	case engine.Mine:
		return l.T("mine")
	case engine.Water:
		return l.T("water")
	case engine.SunSite:
		return l.T("sun")
	default:
		return l.T("temple")
	}
}

// LogShown is how many of the log's last entries the game page shows.
const LogShown = 20

// Letters name the seats besides their colours.
var Letters = []string{"A", "B", "C", "D"}

// CellLabel is how a cell is named to players.
func CellLabel(l *i18n.Lang, c engine.Cell) string { return l.T("(%d, %d)", c.X, c.Y) }

// JungleName is a jungle tile in words.
func JungleName(l *i18n.Lang, j engine.Jungle) string {
	if j == engine.NoJungle {
		return l.T("an unknown tile from the pile")
	}
	k := j.Kind()
	switch k.Effect {
	case engine.Plantation:
		return l.T("Plantation %d", k.Value)
	case engine.Market:
		return l.T("Market %d", k.Value)
	case engine.Mine:
		return l.T("Gold mine %d", k.Value)
	case engine.Water:
		return l.T("Water||jungle tile")
	case engine.SunSite:
		return l.T("Sun site")
	default:
		return l.T("Temple")
	}
}

// GainText says what a seat gains, e.g. "+2 gold, +1 fruit"; "" for nothing.
func GainText(l *i18n.Lang, g engine.Gain) string {
	var parts []string
	if g.Gold != 0 {
		parts = append(parts, l.T("%+d gold", g.Gold))
	}
	if g.Fruit != 0 {
		parts = append(parts, l.T("%+d fruit", g.Fruit))
	}
	if g.Sun != 0 {
		parts = append(parts, l.T("%+d sun", g.Sun))
	}
	if g.WaterSteps != 0 {
		parts = append(parts, l.N("water %+d step (%+d points)", "water %+d steps (%+d points)", abs(g.WaterSteps), g.WaterSteps, g.Water))
	}
	return strings.Join(parts, l.T(", "))
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// ColourName is a seat colour's name.
func ColourName(l *i18n.Lang, seat int) string {
	switch seat & 3 {
	case 0:
		return l.T("red")
	case 1:
		return l.T("purple")
	case 2:
		return l.T("white")
	default:
		return l.T("yellow")
	}
}

// Link is the game page URL with selection s.
func (vm GameVM) Link(s Selection) string {
	// Written out rather than through url.Values (a map, sorted and encoded
	// for each of the dozens of links on a board); the same address, keys
	// in Encode's order.
	var b strings.Builder
	b.Grow(64)
	b.WriteString("/games/")
	b.WriteString(strconv.FormatUint(uint64(vm.ID), 10))
	sep := byte('?')
	add := func(k, v string) {
		b.WriteByte(sep)
		sep = '&'
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(v))
	}
	if s.At != nil {
		add("at", strconv.Itoa(s.At.X)+","+strconv.Itoa(s.At.Y))
		if s.Fill > 0 {
			add("fill", strconv.Itoa(s.Fill))
		}
		if s.Overbuild {
			add("overbuild", "1")
		}
	}
	if s.Tile != "" {
		add("rot", strconv.Itoa(s.Rot))
		if s.Slot > 0 {
			add("slot", strconv.Itoa(s.Slot))
		}
		add("tile", s.Tile)
	}
	return b.String()
}

// WithTile selects the tile at place i of hand, keeping the cell when
// there is one. The place is kept only when an alike tile comes before it,
// so that the one clicked is the one marked.
func (s Selection) WithTile(hand []engine.Worker, i int) Selection {
	s.Tile, s.Slot, s.Rot, s.Fill = hand[i].String(), 0, 0, 0
	for _, w := range hand[:i] {
		if w == hand[i] {
			s.Slot = i
			break
		}
	}
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

// Name is a seat's name.
func (vm GameVM) Name(seat int) string {
	if seat >= 0 && seat < len(vm.Seats) {
		return vm.Seats[seat].Name
	}
	return "?"
}

// Names lists the seats' names in play order.
func (vm GameVM) Names() []string {
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
	b.Names = vm.Names()
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
