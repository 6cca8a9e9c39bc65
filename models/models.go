package models

import "time"

// User is an account.
type User struct {
	ID           uint   `gorm:"primaryKey"`
	Username     string `gorm:"uniqueIndex;size:32;not null"`
	PasswordHash []byte `gorm:"not null"`
	CreatedAt    time.Time
}

// Game statuses.
const (
	StatusOpen     = "open"     // waiting for players to fill the seats
	StatusActive   = "active"   // being played
	StatusFinished = "finished" // scored
)

// Game is a game and its secret setup. Version grows by one with every
// committed change (a turn, a resolution, a join): a submit names the version
// it was made on, so two submits of the same turn commit once.
type Game struct {
	ID          uint   `gorm:"primaryKey"`
	Status      string `gorm:"index;not null"`
	NumPlayers  int    `gorm:"not null"`
	CreatorID   uint   `gorm:"not null"`
	InviteToken string `gorm:"uniqueIndex;not null"`
	// Setup is the engine setup as the record's setup object. Never shown
	// while the game runs: it holds every pile's order.
	Setup      string
	First      int
	Version    int `gorm:"not null;default:0"`
	CreatedAt  time.Time
	UpdatedAt  time.Time
	StartedAt  *time.Time
	FinishedAt *time.Time
	Seats      []Seat `gorm:"constraint:OnDelete:CASCADE"`
}

// Seat is a place at a game: a user, a bot or still open. Slot is the order in
// which seats were offered; Index is the engine seat (play order) assigned at
// random when the game starts (-1 before).
type Seat struct {
	ID     uint  `gorm:"primaryKey"`
	GameID uint  `gorm:"index;not null"`
	Slot   int   `gorm:"not null"`
	Index  int   `gorm:"not null;default:-1"`
	UserID *uint `gorm:"index"`
	User   *User `gorm:"constraint:OnDelete:SET NULL"`
	Bot    string
	// Name is shown to everyone: the username or the bot's name.
	Name string
	// WaitingSince is when this seat last started being waited on (its turn
	// or a pending choice); nil when nobody waits on it.
	WaitingSince *time.Time
}

// Open reports whether nobody has taken the seat.
func (s Seat) Open() bool { return s.UserID == nil && s.Bot == "" }

// Log entry kinds.
const (
	KindTurn    = "turn"    // a committed turn: Data is its NOTATION.md turn object
	KindResolve = "resolve" // a resolved batch: Data is its acts; Turn the turn that caused it
)

// LogEntry is one line of a game's append-only log: a committed turn, or a
// player's resolution of a pending batch, with who made it and when. Seq is
// unique per game, so the same change cannot be written twice.
type LogEntry struct {
	ID        uint   `gorm:"primaryKey"`
	GameID    uint   `gorm:"uniqueIndex:idx_log_game_seq;not null"`
	Seq       int    `gorm:"uniqueIndex:idx_log_game_seq;not null"`
	Kind      string `gorm:"not null"`
	Seat      int    `gorm:"not null"`
	Turn      int    `gorm:"not null"`
	UserID    *uint
	Data      string `gorm:"not null"`
	CreatedAt time.Time
}

// Notification is a message for a user about a game.
type Notification struct {
	ID        uint   `gorm:"primaryKey"`
	UserID    uint   `gorm:"index;not null"`
	GameID    uint   `gorm:"index"`
	Kind      string `gorm:"not null"`
	Text      string `gorm:"not null"`
	Read      bool   `gorm:"not null;default:false"`
	CreatedAt time.Time
}

// Session is an scs session row.
type Session struct {
	Token  string    `gorm:"primaryKey;size:64"`
	Data   []byte    `gorm:"not null"`
	Expiry time.Time `gorm:"index;not null"`
}
