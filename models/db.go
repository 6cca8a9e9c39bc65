// Package models stores users, games, seats, the append-only turn log,
// notifications and sessions with GORM on SQLite. A game's position is never
// stored as such: it is replayed from the game's setup and its log through
// the engine, so the log is the single source of truth.
package models

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// Errors the handlers map to HTTP statuses in one place.
var (
	ErrNotFound  = errors.New("models: not found")
	ErrForbidden = errors.New("models: not yours")
	ErrConflict  = errors.New("models: someone else moved first")
	ErrInvalid   = errors.New("models: invalid input")
)

// Store is the database behind the site.
type Store struct {
	db *gorm.DB
	// Dealer deals new games; nil means RandomDeal. Tests set a fixed one.
	Dealer Deal
	// OnChange, when set, is told after every committed change of a game
	// (a creation, a turn, a resolution, a join, a timeout).
	OnChange func(Change)
	// Now is the store's clock; nil means time.Now. Tests set a fake one to
	// drive deadlines, reminders, digests and vacations.
	Now func() time.Time
	// MailDelay holds back "your turn" mail, so a player who is at the
	// table (and opens the game) gets none. Zero means DefaultMailDelay.
	MailDelay time.Duration
}

// DefaultMailDelay is how long "your turn" mail waits for the player to
// open the game first.
const DefaultMailDelay = 5 * time.Minute

// Change is a committed change of a game, as told to OnChange: the game's
// new version, the users seated (or invited) at it, and whether the list of
// open games changed.
type Change struct {
	Game    uint
	Version int
	Users   []uint
	Lobby   bool
}

// Clock returns the store's current time (see Now), in UTC.
func (s *Store) Clock() time.Time { return s.now() }

// now is in UTC: SQLite compares the stored times as text.
func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

func (s *Store) changed(g *Game, seats []Seat, lobby bool) {
	if s.OnChange == nil {
		return
	}
	c := Change{Game: g.ID, Version: g.Version, Lobby: lobby}
	for _, seat := range seats {
		if seat.UserID != nil {
			c.Users = append(c.Users, *seat.UserID)
		} else if seat.InvitedID != nil {
			c.Users = append(c.Users, *seat.InvitedID)
		}
	}
	s.OnChange(c)
}

var memSeq atomic.Int64

// Open opens (creating and migrating when needed) the SQLite database at path,
// in WAL mode with a busy timeout, foreign keys on, and write transactions
// that take the write lock at BEGIN (so two submits cannot both read version
// v and then race). path ":memory:" gives a private in-memory database.
func Open(path string) (*Store, error) {
	q := url.Values{}
	q.Set("_busy_timeout", "5000")
	q.Set("_foreign_keys", "on")
	q.Set("_txlock", "immediate")
	q.Set("_synchronous", "NORMAL")
	var dsn string
	memory := path == ":memory:"
	if memory {
		q.Set("mode", "memory")
		q.Set("cache", "shared")
		dsn = fmt.Sprintf("file:cacao-mem-%d?%s", memSeq.Add(1), q.Encode())
	} else {
		q.Set("_journal_mode", "WAL")
		dsn = "file:" + strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path) + "?" + q.Encode()
	}
	db, err := gorm.Open(sqlite.Open(dsn), &gorm.Config{Logger: logger.Discard, TranslateError: true})
	if err != nil {
		return nil, fmt.Errorf("models: open %s: %w", path, err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, err
	}
	if memory {
		// One connection: an in-memory database lives as long as it does.
		sqlDB.SetMaxOpenConns(1)
	} else {
		sqlDB.SetMaxOpenConns(8)
	}
	if err := db.AutoMigrate(&User{}, &Game{}, &Seat{}, &LogEntry{}, &Notification{}, &Session{}, &Mail{}, &Setting{}); err != nil {
		return nil, fmt.Errorf("models: migrate: %w", err)
	}
	return &Store{db: db}, nil
}

// Close closes the database.
func (s *Store) Close() error {
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}

// JournalMode reports SQLite's journal mode ("wal" for a file database).
func (s *Store) JournalMode() (string, error) {
	var mode string
	err := s.db.Raw("PRAGMA journal_mode").Scan(&mode).Error
	return mode, err
}
