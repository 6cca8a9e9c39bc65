// Package views renders the site's pages and fragments with templ. Components
// take view models built by the handlers from a viewer-scoped engine.View:
// nothing here does I/O or sees what the viewer may not.
package views

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"cacao/engine"
)

// Page is what every page's layout needs.
type Page struct {
	Title string
	// SkipToHand adds a skip link to the hand (a game page, on the
	// viewer's turn).
	SkipToHand bool
	// BoardSize is how the viewer likes the board: "fit", "large" or ""
	// (normal).
	BoardSize string
	User      *User
	CSRF      string
	Unread    int64
	// ChatUnread counts the messages unread in the chats of the viewer's
	// games.
	ChatUnread int
	Flash      string
	Path       string // the page's own address, where a language change returns
	// FormKey is the key of the page's form that makes a table or a
	// tournament, sent with it: the same form sent twice makes one.
	FormKey string
}

// User is the signed-in person.
type User struct {
	ID    uint
	Name  string
	Admin bool // sees the admin pages' link
	Guest bool // plays without an account (offered to make one)
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
	Players     []PlayerRef
	Open        int // seats not taken yet, kept ones too: what the game waits for
	Free        int // of those, the seats the viewer may take (not kept for someone else)
	WaitingOnMe bool
	WaitingOn   []string // the others the game waits on (their turn or choice)
	Invite      string
	TurnLimit   string // "3 days per turn"
	TimeLeft    string // of my turn, when the game waits on me with a limit
	Creator     string // who opened the table (while they sit at it)
	ChatUnread  int    // messages of its chat the viewer has not read
	// Of a finished game: its winners, and the viewer's place (0: they
	// did not play it), total and rating before and after (0: not rated).
	// Resigned: the player the list is about resigned it (the stand-in bot
	// plays their seat; its place and total are the bot's, a loss as the
	// rating counts it).
	Winners            []string
	Place, Score       int
	Resigned           bool
	Aborted            bool // ended by its players' agreement (not by an admin)
	RatedFrom, RatedTo float64
}

// HomeVM is the signed-in home: my games, invitations and the lobby.
type HomeVM struct {
	Page
	Mine        []GameLine
	Invited     []GameLine
	Open        []GameLine
	Error       string
	BotNames    []string
	OpenBots    []string // the bot accounts the viewer may seat (models.OpenBots)
	StandIn     string   // the stand-in bot chosen unless the creator picks another
	TurnLimits  []int    // hours; 0 is no limit
	LiveVersion int      // of the lists, for live updates
	// MoreFinished is how many finished games of the viewer are not
	// listed; ListsURL is the address the lists are fetched again from.
	MoreFinished int
	ListsURL     string
	// Pager pages Mine: the games not over, or with Finished the finished
	// ones.
	Pager    Pager
	Finished bool
	Filter   HistoryFilter // of the finished games
	// OpenPager pages Open.
	OpenPager Pager
	// InvitedPager pages Invited.
	InvitedPager Pager
	// Account is the form that makes the viewer's guest seat an account
	// (nil for an account): a guest opens no table for players, so it
	// stands in the new game form's place.
	Account *AccountForm
}

// SinceVM is what happened in a game since the viewer's own last move.
type SinceVM struct {
	Lines []SinceLine
	Mine  string        // what the viewer gained meanwhile, in words
	Cells []engine.Cell // sorted
	// Chat is the latest messages the others wrote meanwhile; MoreChat,
	// that there are more before them.
	Chat     []ChatLine
	MoreChat bool
}

// RematchVM is a finished game's rematch as its page links to it: its
// status, whom it waits for, and whether the viewer is invited to it.
type RematchVM struct {
	ID        uint
	Status    string
	Waiting   []string
	InvitedMe bool
}

// SinceLine is one change by someone else; New when the viewer has not
// seen it before.
type SinceLine struct {
	LogItem
	New bool
}

// Seat is a player at the table as everyone sees them.
type Seat struct {
	Index   int
	Name    string
	User    string // the username of its profile ("" for a bot)
	Letter  string
	Bot     string
	Village engine.SeatView
	IsMe    bool
	ToPlay  bool
	Clock   string // "2 days 3 h left", "on vacation until …"; "" without a limit
	Gained  string // what the log's last entry gave the seat, in words ("" for nothing)
	// Resigned: the seat's player resigned and the stand-in bot plays it.
	Resigned bool
	// Abandoned: the stand-in bot plays the seat until its player takes it back.
	Abandoned bool
	// Rating is a bot level's rating from its games against people, as
	// RatingText shows it ("": none yet, or a person's seat).
	Rating string
}

// EdgeChoice is one fired edge the viewer resolves: how many workers to use
// (0..Workers) and in which order.
type EdgeChoice struct {
	Key     string // "x,y,S"
	Label   string
	Workers int
	Use     int // workers to use, as chosen (all by default)
	// Gives tells, for a waiting choice, what using u workers here would
	// give (index u), the other choices as they are by default; nil for a
	// move's edges (the move's preview tells it).
	Gives   []string
	Order   int
	Unknown bool // faces a tile still in the pile
}

// PlayVM is the viewer's turn panel.
type PlayVM struct {
	MyTurn      bool
	CanAct      bool  // my turn and no pending choice of mine blocks it
	CanHint     bool  // CanAct in a game against bots alone: the hard bot may suggest a move
	Hint        *Hint // the hard bot's suggestion, shown as the selection
	Cells       map[engine.Cell]bool
	FillOptions []FillOption
	Fills       []engine.Fill     // the chosen fill option's, drawn on the board
	TileGains   []engine.TileGain // what the move gives, by tile (engine.Preview.Tiles)
	Edges       []EdgeChoice
	Preview     []string
	Ready       bool // a full move is selected: show the confirm form
	Reason      string
	Places      []Place // where the selected tile can go, with what each brings
}

// Hint is what the hard bot found for the move it suggests: the share of
// the games it played out after it that it won (Won, 0–1), and how many
// (Games).
type Hint struct {
	Won    float64
	Games  int
	Solved bool // found by solving the rest of the game exactly: Won is 1, ½ or 0
}

// FillOption is one way to fill the jungle cells next to the chosen cell:
// the fills, and in words.
type FillOption struct {
	Fills []engine.Fill
	Text  string
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

// LogItem is a line of the log: a turn with its number (Turn, from 1), or
// a choice made later about a turn's workers (Turn 0; its text names the
// turn). Turns are numbered as everywhere else, the choices are not.
type LogItem struct {
	Turn int
	Text string
	// Link is the game as it was after the entry (its replay), Current
	// when that is the position shown.
	Link    string
	Current bool
}

// ScoreLine is one row of the final score table.
type ScoreLine struct {
	Name   string
	User   string // the username of its profile ("" for a bot)
	Change string // the player's rating change ("" when not rated)
	Letter string
	engine.Score
	Place     int  // 1 for the winners
	Shared    bool // another seat has the same place
	Resigned  bool // the seat's player resigned (the stand-in bot finished it)
	Abandoned bool // the stand-in bot played the seat at the end, its player away
}

// GameVM is the game page.
type GameVM struct {
	Page
	// CanRematch: the viewer played this finished game, which has no
	// rematch yet; Rematch is its rematch, RematchOf the game this one is
	// the rematch of (0: none).
	CanRematch bool
	Rematch    *RematchVM
	RematchOf  uint
	// TournamentID is the tournament whose round TourRound this game is
	// (0: none).
	TournamentID uint
	TourRound    int
	// Chat is the table chat shown under the game (nil on the game area's
	// own answers).
	Chat *ChatVM
	// Account is the form that makes a guest viewer an account (nil for
	// an account, and on the game area's own answers).
	Account    *AccountForm
	ID         uint
	Version    int
	Status     string
	Me         int
	Seats      []Seat
	View       engine.View
	Sel        Selection
	Play       PlayVM
	Pending    *Pending
	Log        []LogItem // the log's entries from LogFrom on
	LogFrom    int
	Scores     []ScoreLine // by place
	TieNotes   []string    // how ties on points were settled
	Result     string      // the final ranking in a sentence, ending the log
	Temples    []string
	Error      string
	Invite     string
	Finished   bool
	EndReason  string // an admin ended the game (Status "ended"), for this reason
	TurnLimit  string
	Since      *SinceVM
	Notes      *NotesVM // the viewer's private note, on the whole page of a player
	ResignedMe bool     // the viewer resigned their seat of this game
	CanResign  bool     // the viewer holds a seat of this running game
	// Ending the game by agreement, in its first rounds: Abort, the viewer
	// may ask (or agree); AbortAsked, who asks at this turn (the viewer
	// aside); AbortMine, the viewer asked; AbortAlone, the viewer's word is
	// enough (the others are bots). Aborted: it was so ended.
	Abort, AbortMine, AbortAlone, Aborted bool
	AbortAsked                            []string
	// AbandonedMe: the stand-in bot plays the viewer's seat until they take
	// it back. HandOver lists the seats the viewer may hand to the bot (a
	// game without a time limit kept waiting 7 days by their players).
	AbandonedMe bool
	HandOver    []Seat
	Creator     bool      // the viewer opened this table (may cancel it, withdraw invitations)
	Invitees    []Invitee // the players a seat of this open table is kept for, shown to its creator
	InvitedMe   bool      // a seat of this open game is kept for the viewer
	CanJoin     bool      // a seat of this open game is free for the viewer (open, or kept for them)
	Announce    []string  // others' moves since the page's last look, read out by screen readers
	LogLen      int       // log entries shown: a refetch announces what came after
	// Arrived is the cells the latest moves laid tiles on, each with the
	// number of its log entry (from 1): a page that had shown the game
	// before that entry draws them arriving (app.js).
	Arrived  map[engine.Cell]int
	Fragment bool   // rendered for htmx: the game area alone, with the announcements after it
	Step     bool   // a selection step's answer (htmx): the game area alone is taken, not the header's count
	TurnOnly bool   // a step's answer that is GameTurn alone (its fields outside it are left empty)
	Focus    string // the control the next step starts from ("rotate", "confirm"; for a tile that does not turn, "rotate" is the tile); none on live refetches
	// OpenWorkers shows the worker choices open (the player is changing
	// them).
	OpenWorkers bool
	// Base is the address the game area's links and its move's form lead
	// to ("": the game's, /games/ID); the tutorial's steps are /learn/N.
	Base string
	// Coach marks the move a lesson of the tutorial asks for (nil in a
	// game).
	Coach *Coach
}

// Invitee is a player a seat of an open table is kept for.
type Invitee struct {
	ID   uint
	Name string
}

// LiveLink is the address a live refetch takes: the same selection, no
// focus move, and the log length seen so far.
func (vm GameVM) LiveLink() string {
	q := vm.Sel.Query()
	if vm.Sel.Tile != "" {
		q.Set("v", strconv.Itoa(vm.Version))
	}
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
	Keys             string // aria-keyshortcuts: the key app.js gives it
}

// LogShown is how many of the log's last entries the game page shows.
const LogShown = 20

// Letters name the seats besides their colours.
var Letters = []string{"A", "B", "C", "D"}

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

// seatsFromMine is the seats in turn order from the viewer's (seat order
// for a watcher): the village strip on a phone opens on its first.
func (vm GameVM) seatsFromMine() []Seat {
	for i, s := range vm.Seats {
		if s.IsMe {
			return append(slices.Clone(vm.Seats[i:]), vm.Seats[:i]...)
		}
	}
	return vm.Seats
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
	b.Arrived = vm.Arrived
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
			b.Ghost = &engine.TileView{At: *vm.Sel.At, Edges: edgesOf(w, vm.Sel.Rot), Owner: vm.Me, Jungle: engine.NoJungle}
			for _, f := range vm.Play.Fills {
				b.GhostFills = append(b.GhostFills, engine.TileView{At: f.At, Jungle: f.Tile})
			}
			b.FillAlts = vm.fillAlts()
			for _, g := range vm.Play.TileGains {
				if g.Gain.Seat == vm.Me {
					b.Gains = append(b.Gains, g)
				}
			}
		}
	}
	return b
}

// fillAlts are the tiles the fill options not chosen would lay where the
// chosen one lays another, each choosing its option.
func (vm GameVM) fillAlts() []FillAlt {
	chosen := map[engine.Cell]engine.Jungle{}
	for _, f := range vm.Play.Fills {
		chosen[f.At] = f.Tile
	}
	var alts []FillAlt
	n := map[engine.Cell]int{}
	for i, o := range vm.Play.FillOptions {
		if i == vm.Sel.Fill {
			continue
		}
		for _, f := range o.Fills {
			if t, ok := chosen[f.At]; ok && t == f.Tile || n[f.At] == 2 { // two fit a cell's corner
				continue
			}
			alts = append(alts, FillAlt{At: f.At, Tile: f.Tile, N: n[f.At], Link: vm.Link(vm.Sel.WithFill(i))})
			n[f.At]++
		}
	}
	return alts
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
	Page   string // without a game, the page it leads to ("" for the account's own news)
	Unread bool
	At     time.Time
	Count  int // alike notices of the game told once (the latest), at least 1
}

// NoticeGroup is a game's notices, newest first, alike ones told once.
type NoticeGroup struct {
	GameID uint
	Page   string // the page of notices without a game (NotificationLine.Page)
	Lines  []NotificationLine
}

// GroupNotices groups lines (newest first) by game (without a game, by
// the page they lead to), the group with the newest notice first, and tells alike notices of a game once with their
// number ("It is your turn in game 1." eleven times is one line).
func GroupNotices(lines []NotificationLine) []NoticeGroup {
	var groups []NoticeGroup
	type key struct {
		game uint
		page string
	}
	at := map[key]int{}
	for _, n := range lines {
		k := key{n.GameID, n.Page}
		i, ok := at[k]
		if !ok {
			i = len(groups)
			at[k] = i
			groups = append(groups, NoticeGroup{GameID: n.GameID, Page: n.Page})
		}
		g := &groups[i]
		merged := false
		for j := range g.Lines {
			if g.Lines[j].Text == n.Text {
				g.Lines[j].Count++
				g.Lines[j].Unread = g.Lines[j].Unread || n.Unread
				merged = true
				break
			}
		}
		if !merged {
			n.Count = 1
			g.Lines = append(g.Lines, n)
		}
	}
	return groups
}

// ID is the id of the group's heading.
func (g NoticeGroup) ID() string {
	if g.GameID == 0 && g.Page != "" {
		return "notices" + strings.ReplaceAll(g.Page, "/", "-")
	}
	return fmt.Sprintf("notices-%d", g.GameID)
}

// pageName names a page notices lead to (NoticeGroup.Page).
func pageName(ctx context.Context, page string) string {
	switch page {
	case "/tournaments":
		return t(ctx, "Tournaments")
	}
	panic("views: notices lead to a page without a name: " + page)
}

// Over reports whether the game is over: finished, or ended by an admin.
func (vm GameVM) Over() bool { return vm.Status == "finished" || vm.Status == "ended" }
