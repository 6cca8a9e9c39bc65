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
	// (a turn, a resolution, a join) with the game's new version.
	OnChange func(game uint, version int)
}

func (s *Store) changed(game uint, version int) {
	if s.OnChange != nil {
		s.OnChange(game, version)
	}
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
		dsn = "file:" + strings.ReplaceAll(path, "?", "%3f") + "?" + q.Encode()
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
	if err := db.AutoMigrate(&User{}, &Game{}, &Seat{}, &LogEntry{}, &Notification{}, &Session{}); err != nil {
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
