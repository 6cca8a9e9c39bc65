package models

import (
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/bcrypt"
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
	db      *gorm.DB // reads
	w       *gorm.DB // writes: one connection on SQLite; on PostgreSQL the same pool as db
	replays *replays
	opts    options
	pg      bool   // on PostgreSQL (see openPostgres)
	channel string // where changes are told, on PostgreSQL
	// stopListening ends the listening for other instances' changes
	// (PostgreSQL), listening waits for it.
	stopListening func()
	listening     sync.WaitGroup
	// dummy is compared with when a login names nobody (dummyHash).
	dummyOnce sync.Once
	dummy     []byte
}

// Change is a committed change of a game, as told to the change listener:
// the game's new version, the users seated (or invited) at it, and whether
// the list of open games changed.
type Change struct {
	Game    uint
	Version int
	Users   []uint
	Lobby   bool
	// Chat is the game's newest chat message, when the change is a new
	// message (the game itself, and Version, did not change).
	Chat uint
}

// DefaultMailDelay is how long "your turn" mail waits for the player to
// open the game first.
const DefaultMailDelay = 5 * time.Minute

type options struct {
	now          func() time.Time
	deal         Deal
	onChange     func(Change)
	mailDelay    time.Duration
	passwordCost int
	bots         []string
	log          *slog.Logger
	maxConns     int
	stmtTimeout  time.Duration
	poolWait     time.Duration
	migrate      bool
}

// Option configures a Store at Open.
type Option func(*options)

// WithClock sets the store's clock (default time.Now): tests drive
// deadlines, reminders, digests and vacations with a fake one.
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// WithDealer sets what deals new games (default RandomDeal).
func WithDealer(d Deal) Option { return func(o *options) { o.deal = d } }

// WithChangeListener is told, after it committed, every change of a game:
// a creation, a join, a turn, a resolution, a timeout.
func WithChangeListener(f func(Change)) Option { return func(o *options) { o.onChange = f } }

// WithLogger sets where the store logs what a host should know of (the
// change listener losing its connection and getting it back); default
// slog.Default().
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.log = l } }

// WithPool sizes the connections one instance keeps to PostgreSQL
// (max, 0: DefaultConns) and bounds each statement's time there (timeout,
// 0: none): what the database's role and a pooler allow, shared by the
// instances. SQLite has one writer and takes neither.
func WithPool(max int, timeout time.Duration) Option {
	return func(o *options) { o.maxConns, o.stmtTimeout = max, timeout }
}

// WithoutMigrating opens a database without changing its schema (a role
// that may read and write the tables but not own them): a schema behind
// this release's is refused (ErrSchemaBehind), and brought up to date by
// the owner (cacao schema upgrade, an Open without this option).
func WithoutMigrating() Option { return func(o *options) { o.migrate = false } }

// WithMailDelay holds "your turn" mail back by d (default
// DefaultMailDelay), so that a player at the table gets none.
func WithMailDelay(d time.Duration) Option { return func(o *options) { o.mailDelay = d } }

// WithPasswordCost sets bcrypt's work factor (default bcrypt.DefaultCost);
// tests take bcrypt.MinCost.
func WithPasswordCost(cost int) Option { return func(o *options) { o.passwordCost = cost } }

// WithBots names the kinds of bot a seat may hold. The store only seats
// them; whoever drives the games plays them (models/autoplay).
func WithBots(kinds ...string) Option { return func(o *options) { o.bots = kinds } }

var memSeq atomic.Int64

// replayCacheSize is how many games' replays are kept in memory (about 50
// KB each in mid-game); a game not kept is replayed from its log when next
// loaded, which costs several times a load from its replay.
const replayCacheSize = 512

// Open opens (creating and migrating when needed) the SQLite database at
// path, in WAL mode with a busy timeout and foreign keys on. path
// ":memory:" gives a private in-memory database on one connection; a
// "postgres://…" address, a PostgreSQL database (openPostgres).
func Open(path string, opts ...Option) (*Store, error) {
	o := options{now: time.Now, deal: RandomDeal, mailDelay: DefaultMailDelay, passwordCost: bcrypt.DefaultCost, log: slog.Default(), migrate: true, poolWait: DefaultPoolWait}
	for _, opt := range opts {
		opt(&o)
	}
	if IsPostgres(path) {
		return openPostgres(path, o)
	}
	q := url.Values{}
	q.Set("_busy_timeout", "5000")
	q.Set("_foreign_keys", "on")
	q.Set("_synchronous", "NORMAL")
	memory := path == ":memory:"
	dsn := func(txlock string) string {
		q := maps.Clone(q)
		// The writer takes the write lock at BEGIN: two submits cannot both
		// read version v in their transactions and then race.
		q.Set("_txlock", txlock)
		if memory {
			q.Set("mode", "memory")
			q.Set("cache", "shared")
			return fmt.Sprintf("file:cacao-mem-%d?%s", memSeq.Add(1), q.Encode())
		}
		q.Set("_journal_mode", "WAL")
		return "file:" + strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path) + "?" + q.Encode()
	}
	w, err := openDB(dsn("immediate"), 1, o.now)
	if err != nil {
		return nil, fmt.Errorf("models: open %s: %w", path, err)
	}
	if err := w.Transaction(func(tx *gorm.DB) error { return upgrade(tx, o.migrate) }); err != nil {
		closeDB(w)
		return nil, err
	}
	s := &Store{db: w, w: w, replays: newReplays(replayCacheSize), opts: o}
	if memory {
		// An in-memory database lives as long as its one connection.
		return s, nil
	}
	if s.db, err = openDB(dsn("deferred"), 4, o.now); err != nil {
		closeDB(w)
		return nil, fmt.Errorf("models: open %s: %w", path, err)
	}
	// GORM parses a model's schema on first use and, doing so, writes into
	// the schemas of related models: parse them all now, before requests
	// use them concurrently.
	for _, t := range tables {
		if err := s.db.Statement.Parse(t); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// tables are the models stored, one table each.
var tables = []any{&User{}, &Game{}, &Seat{}, &LogEntry{}, &Notification{}, &Session{}, &Mail{}, &Setting{}, &Invitation{}, &Login{}, &Audit{}, &Block{}, &ChatMessage{}, &ChatReport{}, &PushSub{}, &Limit{}, &NameHold{}, &Note{}, &Follow{}, &BotRating{}, &Review{}, &ReviewedTurn{}, &Tournament{}, &Entrant{}, &TourBye{}, &Token{}}

// openDB opens a pool of conns connections. GORM's own times (CreatedAt,
// UpdatedAt) are the store's clock's, in UTC: SQLite compares the stored
// times as text. A single statement is its own transaction in SQLite: GORM
// need not wrap it in another. Statements are prepared once per connection
// on a pool of several (the readers); never on one connection, where a
// statement prepared outside a transaction would wait for the connection
// that a transaction in need of the same statement holds.
func openDB(dsn string, conns int, now func() time.Time) (*gorm.DB, error) {
	db, err := gorm.Open(sqlite.Open(dsn), &gorm.Config{Logger: logger.Discard, TranslateError: true, PrepareStmt: conns > 1,
		SkipDefaultTransaction: true, NowFunc: func() time.Time { return now().UTC() }})
	if err != nil {
		return nil, err
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, err
	}
	sqlDB.SetMaxOpenConns(conns)
	sqlDB.SetMaxIdleConns(conns)
	sqlDB.SetConnMaxLifetime(0)
	return db, nil
}

func closeDB(db *gorm.DB) {
	if sqlDB, err := db.DB(); err == nil {
		sqlDB.Close()
	}
}

// baseline is the first step of the schema (schema.go): from an empty
// database, or one that a release before versioned steps left, the
// schema as it stood then. Those databases keep columns no longer used
// (games.rev, users.unread); the triggers that kept them are dropped (on
// SQLite, where they were), so that nothing writes behind the code's back.
// users.email_mode becomes the choices of news by mail and digest, and goes
// (migrateMailMode). Accounts get their name keys (fillNameKeys).
func baseline(w *gorm.DB) error {
	if err := w.AutoMigrate(tables...); err != nil {
		return err
	}
	if err := migrateMailMode(w); err != nil {
		return err
	}
	if err := fillNameKeys(w); err != nil {
		return err
	}
	if w.Dialector.Name() != "sqlite" {
		// A name is taken in any capitals: sign-ups at once on several
		// connections cannot both pass (SQLite's one writer sees to that).
		return w.Exec("CREATE UNIQUE INDEX IF NOT EXISTS idx_users_username_lower ON users (lower(username))").Error
	}
	for _, name := range []string{"games_rev", "seats_rev_insert", "seats_rev_update", "seats_rev_move", "seats_rev_delete",
		"notifications_unread_insert", "notifications_unread_update", "notifications_unread_delete"} {
		if err := w.Exec("DROP TRIGGER IF EXISTS " + name).Error; err != nil {
			return err
		}
	}
	return nil
}

// Close closes the database.
func (s *Store) Close() error {
	if s.stopListening != nil {
		s.stopListening()
		s.listening.Wait()
	}
	closeDB(s.db)
	if s.db != s.w {
		closeDB(s.w)
	}
	return nil
}

// Clock returns the store's current time, in UTC.
func (s *Store) Clock() time.Time { return s.now() }

// now is in UTC: SQLite compares the stored times as text.
func (s *Store) now() time.Time { return s.opts.now().UTC() }

// changed tells the change listener of a committed change of g.
func (s *Store) changed(g *Game, seats []Seat, lobby bool) {
	c := Change{Game: g.ID, Version: g.Version, Lobby: lobby}
	for _, seat := range seats {
		if seat.UserID != nil {
			c.Users = append(c.Users, *seat.UserID)
		} else if seat.InvitedID != nil {
			c.Users = append(c.Users, *seat.InvitedID)
		}
	}
	s.tell(c)
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

// notFound turns GORM's not found into ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return ErrNotFound
	}
	return err
}
