// Package models stores users, games, seats, the append-only turn log,
// notifications and sessions with GORM on SQLite. A game's position is never
// stored as such: it is replayed from the game's setup and its log through
// the engine, so the log is the single source of truth.
package models

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mattn/go-sqlite3"
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
	db       *gorm.DB // reads
	w        *gorm.DB // writes: one connection
	replays  *replays
	rows     *gameRows
	users    users
	seen     seenMarks
	sess     *SessionStore
	sessOnce sync.Once
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
	// checkKept, set by tests, is shown the rows a commit keeps for the
	// next loads (keepRows).
	checkKept func(Game, []Seat)
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

// replayCacheSize is how many games' replays are kept in memory (20 to 40
// KB each, most of it the board grid); a game not kept is replayed from its
// log when next loaded.
const replayCacheSize = 256

// Open opens (creating and migrating when needed) the SQLite database at path,
// in WAL mode with a busy timeout and foreign keys on. Writes go through one
// connection of their own, so writers queue in Go instead of meeting in
// SQLite's busy handler (which sleeps), and a write transaction takes the
// write lock at BEGIN (so two submits cannot both read version v and then
// race); reads use a pool of connections beside it, which WAL lets run
// while a write commits. path ":memory:" gives a private in-memory database
// on one connection.
func Open(path string) (*Store, error) {
	q := url.Values{}
	q.Set("_busy_timeout", "5000")
	q.Set("_foreign_keys", "on")
	q.Set("_synchronous", "NORMAL")
	memory := path == ":memory:"
	dsn := func(txlock string) string {
		q := maps.Clone(q)
		q.Set("_txlock", txlock)
		if memory {
			q.Set("mode", "memory")
			q.Set("cache", "shared")
			return fmt.Sprintf("file:cacao-mem-%d?%s", memSeq.Add(1), q.Encode())
		}
		q.Set("_journal_mode", "WAL")
		return "file:" + strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path) + "?" + q.Encode()
	}
	// The readers use GORM's prepared statements; the writer, whose
	// statements run in transactions, a pool of its own (see writePool).
	// The writer's connection tells rows of every change to a game.
	rows := newGameRows()
	open := func(dsn string, conns int, writer bool) (*gorm.DB, error) {
		var sqlDB *sql.DB
		var pool *writePool
		if writer {
			pool = newWritePool(rows)
			sqlDB = sql.OpenDB(hookConnector{dsn: dsn, driver: &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
				c.RegisterUpdateHook(pool.hook)
				return nil
			}}})
			pool.db = sqlDB
		} else {
			var err error
			if sqlDB, err = sql.Open(sqlite.DriverName, dsn); err != nil {
				return nil, fmt.Errorf("models: open %s: %w", path, err)
			}
		}
		sqlDB.SetMaxOpenConns(conns)
		sqlDB.SetMaxIdleConns(conns)
		sqlDB.SetConnMaxLifetime(0)
		sqlDB.SetConnMaxIdleTime(0)
		d := &sqlite.Dialector{DSN: dsn, Conn: sqlDB}
		if writer {
			d.Conn = pool
		}
		// On the writer, a create, update or delete outside a transaction
		// gets one of its own (GORM's default), so that its end is known:
		// an INSERT ... RETURNING has run only once its rows are read.
		db, err := gorm.Open(d, &gorm.Config{Logger: logger.Discard, TranslateError: true, SkipDefaultTransaction: !writer, PrepareStmt: !writer})
		if err != nil {
			sqlDB.Close()
			return nil, fmt.Errorf("models: open %s: %w", path, err)
		}
		return db, nil
	}
	tables := []any{&User{}, &Game{}, &Seat{}, &LogEntry{}, &Notification{}, &Session{}, &Mail{}, &Setting{}}
	w, err := open(dsn("immediate"), 1, true)
	if err != nil {
		return nil, err
	}
	if err := w.AutoMigrate(tables...); err != nil {
		return nil, fmt.Errorf("models: migrate: %w", err)
	}
	if err := dropOldTriggers(w); err != nil {
		return nil, fmt.Errorf("models: migrate: %w", err)
	}
	for _, trig := range append(revTriggers, unreadTriggers...) {
		if err := w.Exec(trig).Error; err != nil {
			return nil, fmt.Errorf("models: migrate: %w", err)
		}
	}
	// Counted afresh at each start: a database from before the column, or
	// one changed by hand, is right again.
	if err := w.Exec(`UPDATE users SET unread = (SELECT count(*) FROM notifications n WHERE n.user_id = users.id AND n.read = false)`).Error; err != nil {
		return nil, fmt.Errorf("models: migrate: %w", err)
	}
	if memory {
		// An in-memory database lives as long as its one connection.
		return newStore(w, w, rows)
	}
	r, err := open(dsn("deferred"), 4, false)
	if err != nil {
		return nil, err
	}
	// GORM parses a model's schema on first use and, doing so, writes into
	// the schemas of related models: parse them all now, before requests
	// use them concurrently.
	for _, t := range tables {
		if err := r.Statement.Parse(t); err != nil {
			return nil, err
		}
	}
	return newStore(r, w, rows)
}

func newStore(r, w *gorm.DB, rows *gameRows) (*Store, error) {
	s := &Store{db: r, w: w, replays: newReplays(replayCacheSize), rows: rows}
	w.ConnPool.(*writePool).users = &s.users
	return s, nil
}

// hookConnector opens connections with a driver of their own (its connect
// hook belongs to one Store).
type hookConnector struct {
	dsn    string
	driver *sqlite3.SQLiteDriver
}

func (c hookConnector) Connect(context.Context) (driver.Conn, error) { return c.driver.Open(c.dsn) }
func (c hookConnector) Driver() driver.Driver                        { return c.driver }

// revTriggers keep games.rev counting every change to a game's row or its
// seats, whichever statement makes it: the database, not each write in the
// code, says when rows read before are out of date. An update that moves
// rev up itself (the seats' triggers) is not counted twice; one that writes
// an older rev back (a whole row saved from an old read) still moves it up.
var revTriggers = []string{
	`CREATE TRIGGER IF NOT EXISTS games_rev AFTER UPDATE ON games WHEN NEW.rev <= OLD.rev
	BEGIN UPDATE games SET rev = OLD.rev + 1 WHERE id = NEW.id; END`,
	`CREATE TRIGGER IF NOT EXISTS seats_rev_insert AFTER INSERT ON seats
	BEGIN UPDATE games SET rev = rev + 1 WHERE id = NEW.game_id; END`,
	// Two triggers, not one with "id = NEW.game_id OR id = OLD.game_id":
	// SQLite runs that OR as a search of its own and each seat's write
	// cost several times as much (BenchmarkCommit 650 -> 430 µs). A
	// database made before has that one (see dropOldTriggers).
	`CREATE TRIGGER IF NOT EXISTS seats_rev_update AFTER UPDATE ON seats
	BEGIN UPDATE games SET rev = rev + 1 WHERE id = NEW.game_id; END`,
	`CREATE TRIGGER IF NOT EXISTS seats_rev_move AFTER UPDATE OF game_id ON seats WHEN OLD.game_id <> NEW.game_id
	BEGIN UPDATE games SET rev = rev + 1 WHERE id = OLD.game_id; END`,
	`CREATE TRIGGER IF NOT EXISTS seats_rev_delete AFTER DELETE ON seats
	BEGIN UPDATE games SET rev = rev + 1 WHERE id = OLD.game_id; END`,
}

// dropOldTriggers drops the triggers of databases made before that
// revTriggers replace, so that they are created anew (in one transaction:
// seats never change without a trigger counting it).
func dropOldTriggers(w *gorm.DB) error {
	var def string
	err := w.Raw(`SELECT coalesce(max(sql), '') FROM sqlite_master WHERE type = 'trigger' AND name = 'seats_rev_update'`).Row().Scan(&def)
	if err != nil || !strings.Contains(def, "OLD.game_id") {
		return err
	}
	return w.Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec(`DROP TRIGGER seats_rev_update`).Error; err != nil {
			return err
		}
		for _, trig := range revTriggers {
			if err := tx.Exec(trig).Error; err != nil {
				return err
			}
		}
		return nil
	})
}

// unreadTriggers keep users.unread the count of the user's unread
// notifications: each page shows it, and the user's row is in memory.
var unreadTriggers = []string{
	`CREATE TRIGGER IF NOT EXISTS notifications_unread_insert AFTER INSERT ON notifications WHEN NEW.read = false
	BEGIN UPDATE users SET unread = unread + 1 WHERE id = NEW.user_id; END`,
	`CREATE TRIGGER IF NOT EXISTS notifications_unread_update AFTER UPDATE OF read, user_id ON notifications
	BEGIN
		UPDATE users SET unread = unread - 1 WHERE id = OLD.user_id AND OLD.read = false;
		UPDATE users SET unread = unread + 1 WHERE id = NEW.user_id AND NEW.read = false;
	END`,
	`CREATE TRIGGER IF NOT EXISTS notifications_unread_delete AFTER DELETE ON notifications WHEN OLD.read = false
	BEGIN UPDATE users SET unread = unread - 1 WHERE id = OLD.user_id; END`,
}

// Close closes the database.
func (s *Store) Close() error {
	s.FlushSeen()
	for _, db := range []*gorm.DB{s.db, s.w} {
		sqlDB, err := db.DB()
		if err != nil {
			return err
		}
		sqlDB.Close()
		if s.db == s.w {
			break
		}
	}
	return nil
}

// JournalMode reports SQLite's journal mode ("wal" for a file database).
func (s *Store) JournalMode() (string, error) {
	var mode string
	err := s.db.Raw("PRAGMA journal_mode").Scan(&mode).Error
	return mode, err
}

// InvalidError is refused input, told as a message (a key of the site's
// translations) and its arguments. errors.Is(err, ErrInvalid) holds.
type InvalidError struct {
	Format string
	Args   []any
}

func (e *InvalidError) Error() string {
	return "models: invalid input: " + fmt.Sprintf(e.Format, e.Args...)
}

// Is makes every InvalidError an ErrInvalid.
func (e *InvalidError) Is(target error) bool { return target == ErrInvalid }

func invalid(format string, args ...any) error {
	return &InvalidError{Format: format, Args: args}
}
