// Package api is the JSON of the site's API under /api/v1: the shapes of
// its answers and bodies, made from what one seat may see of a game
// (engine.View), and its OpenAPI document (openapi.json, served as it
// is). Cells, tiles, sides, fills and acts are written as game records
// write them: a cell [x, y], a worker tile "2101", a jungle tile "M3", a
// side "N", a fill from the pile "pile".
package api

import (
	"time"

	"cacao/engine"
)

// Cell is a board cell, [x, y].
type Cell [2]int

// CellOf writes c.
func CellOf(c engine.Cell) Cell { return Cell{c.X, c.Y} }

// Cell is c as the engine has it.
func (c Cell) Cell() engine.Cell { return engine.Cell{X: c[0], Y: c[1]} }

// Error is every refusal's body: a sentence in the caller's language,
// the one the pages show.
type Error struct {
	Error string `json:"error"`
}

// Account is the caller's account.
type Account struct {
	ID     uint     `json:"id"`
	Name   string   `json:"name"`
	Scopes []string `json:"scopes"` // what the token used may do
	Lang   string   `json:"lang"`   // the language of the errors' sentences
	// Bot: a bot account; BotOpen, one others may seat ("~name").
	Bot     bool `json:"bot"`
	BotOpen bool `json:"bot_open,omitempty"`
}

// Player is a seat at a table: who holds it ("" name: still open).
type Player struct {
	Seat  int    `json:"seat"` // play order once the game has started; the slot before
	Name  string `json:"name"`
	Bot   string `json:"bot,omitempty"` // the bot level playing it: "easy", "medium", "hard"
	Guest bool   `json:"guest,omitempty"`
	// BotAccount: a bot account holds it (marked bot, rated apart).
	BotAccount bool `json:"bot_account,omitempty"`
	Open       bool `json:"open,omitempty"` // nobody holds it yet
}

// Summary is a line of the caller's list of games.
type Summary struct {
	ID       uint       `json:"id"`
	Status   string     `json:"status"` // open, active, finished or ended
	Version  int        `json:"version"`
	Players  []Player   `json:"players"`
	You      int        `json:"you"`      // the caller's seat
	YourMove bool       `json:"yourMove"` // the game waits on the caller: a turn or a choice
	Deadline *time.Time `json:"deadline,omitempty"`
}

// Tile is a tile on the board: a jungle tile, or a worker tile with its
// owner, its turn and the workers on its four sides (N, E, S, W as laid).
type Tile struct {
	At      Cell    `json:"at"`
	Tile    string  `json:"tile"`
	Owner   *int    `json:"owner,omitempty"`
	Rot     int     `json:"rot"`
	Workers *[4]int `json:"sides,omitempty"`   // workers on N, E, S, W
	Covered bool    `json:"covered,omitempty"` // under an overbuild: it counts no more
}

// Village is a seat's public village.
type Village struct {
	Seat       int  `json:"seat"`
	Gold       int  `json:"gold"`
	Fruit      int  `json:"fruit"`
	Sun        int  `json:"sun"`
	WaterField int  `json:"waterField"` // steps on the water track
	Water      int  `json:"water"`      // what they are worth
	Hand       int  `json:"hand"`
	Pile       int  `json:"pile"`
	Pending    int  `json:"pending"` // batches of choices waiting
	Deciding   bool `json:"deciding"`
}

// Edge is a fired side of a worker tile: its workers and the jungle tile
// it faces ("" where that tile is yet to come from the pile).
type Edge struct {
	Tile    Cell   `json:"tile"`
	Side    string `json:"side"`
	Owner   int    `json:"owner"`
	Workers int    `json:"workers"`
	Jungle  string `json:"faces"`
}

// Batch is a choice waiting for the caller: the edges of theirs another
// player's turn fired, to resolve in an order and with how many workers.
type Batch struct {
	Turn  int    `json:"turn"`
	Edges []Edge `json:"edges"`
}

// Score is a seat's points as the game stands (final once it is over).
type Score struct {
	Seat    int `json:"seat"`
	Coins   int `json:"coins"`
	Temples int `json:"temples"`
	Sun     int `json:"sun"`
	Water   int `json:"water"`
	Total   int `json:"total"`
	Fruit   int `json:"fruit"`
}

// Game is a game as the caller may see it: never another seat's hand,
// a pile's order or the seed.
type Game struct {
	ID         uint      `json:"id"`
	Status     string    `json:"status"`
	Version    int       `json:"version"` // sent back with a turn or a choice
	Players    []Player  `json:"players"`
	You        *int      `json:"you"` // the caller's seat; null for a watcher
	First      int       `json:"first"`
	Current    *int      `json:"current"` // whose turn; null when no turn is left
	Turns      int       `json:"turns"`
	TotalTurns int       `json:"totalTurns"`
	Over       bool      `json:"over"`  // no turn left
	Final      bool      `json:"final"` // over and every choice made: the scores are final
	Board      []Tile    `json:"board"`
	Display    []string  `json:"display"`
	JunglePile int       `json:"junglePile"`
	Villages   []Village `json:"villages"`
	Hand       []string  `json:"hand,omitempty"`    // the caller's
	Choices    []Batch   `json:"choices,omitempty"` // the caller's, the first to make next
	Scores     []Score   `json:"scores"`
	Winners    []int     `json:"winners,omitempty"` // once final
}

// Fill names the jungle tile a cell is filled with: a display tile, or
// "pile".
type Fill struct {
	At   Cell   `json:"at"`
	Tile string `json:"tile"`
}

// Act resolves a fired edge with use of its workers (omitted: all).
type Act struct {
	Tile Cell   `json:"tile"`
	Side string `json:"side"`
	Use  *int   `json:"use,omitempty"`
}

// Move is a placement as a record's turn writes it.
type Move struct {
	Tile      string `json:"tile"`
	Rot       int    `json:"rot"`
	At        Cell   `json:"at"`
	Overbuild bool   `json:"overbuild,omitempty"`
	Fills     []Fill `json:"fills,omitempty"`
}

// Gain is what a move brings a seat: coins, fruit, sun, water steps and
// the change of the water's worth.
type Gain struct {
	Seat       int `json:"seat"`
	Gold       int `json:"gold"`
	Fruit      int `json:"fruit"`
	Sun        int `json:"sun"`
	WaterSteps int `json:"waterSteps"`
	Water      int `json:"water"`
}

// Option is a legal move with what it brings, its own edges resolved in
// the default order with every worker (the others' by their defaults).
type Option struct {
	Move  Move   `json:"move"`
	Fired []Edge `json:"fired"`
	Gains []Gain `json:"gains"`
}

// Turn is the body of a turn: the version of the game it was chosen on,
// and the move with, optionally, the caller's own acts in their order.
type Turn struct {
	Version *int `json:"version"`
	Move
	Acts []Act `json:"acts,omitempty"`
}

// Choice is the body of a pending choice: the version, and the acts of
// the first waiting batch in their order ([] leaves every default).
type Choice struct {
	Version *int  `json:"version"`
	Acts    []Act `json:"acts"`
}

// Say is the body of a chat message.
type Say struct {
	Text string `json:"text"`
}

// Table is the body that opens a table: the seats beside the caller's
// ("open", a bot level "easy", "medium" or "hard", or "@name" to keep a
// seat for that player), the hours each seat has for a turn (0, 24, 72
// or 168; 0: no limit), whether it is left out of the lobby, and the bot
// that stands in for a player out of time ("": medium).
type Table struct {
	Seats     []string `json:"seats"`
	TurnHours int      `json:"turnHours"`
	Private   bool     `json:"private"`
	StandIn   string   `json:"standIn"`
}

// Event is a line of the stream (/api/v1/stream): "turn" (a game waits
// for the caller's turn), "choice" (for a choice of theirs), "invitation"
// (a table keeps a seat for them), "move" (a game they watch moved on, to
// Version), "chat" (a message in one of their games' chats); a stream
// that has nothing to say sends an empty line now and then.
type Event struct {
	Type    string `json:"type"`
	Game    uint   `json:"game"`
	Version int    `json:"version,omitempty"`
	Message *Chat  `json:"message,omitempty"`
}

// Chat is a chat message; a message the admins hid has no text.
type Chat struct {
	ID     uint      `json:"id"`
	Name   string    `json:"name"`
	Text   string    `json:"text"`
	At     time.Time `json:"at"`
	Hidden bool      `json:"hidden,omitempty"`
}
