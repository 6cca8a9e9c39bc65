package models

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/logger"
)

// IsPostgres reports whether dsn names a PostgreSQL database
// ("postgres://…" or "postgresql://…") rather than a SQLite file.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Redacted is dsn without its password (in the address or its query),
// for logs.
func Redacted(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || !IsPostgres(dsn) {
		return dsn
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// DefaultConns is the pool of one instance's connections to PostgreSQL
// unless WithPool says otherwise (one more listens for changes).
const DefaultConns = 16

// changesChannel is where the instances of a site on one PostgreSQL
// schema tell each other of committed changes (NOTIFY), each passing them
// to its own change listener; the schema's name follows it (two sites in
// one database hear only their own).
const changesChannel = "cacao_changes_"

// migrationLock is the advisory lock instances starting together take to
// migrate the schema one at a time.
const migrationLock = 7_204_611

// openPostgres opens the PostgreSQL database at dsn: one pool for reads
// and writes (a game's Version still decides between two commits: the
// second update waits for the first and then finds the version moved on),
// migrated under an advisory lock; with a change listener, every change
// any instance commits reaches it (listen).
func openPostgres(dsn string, o options) (*Store, error) {
	if o.stmtTimeout > 0 {
		u, err := url.Parse(dsn)
		if err != nil {
			return nil, fmt.Errorf("models: the database's address: %w", err)
		}
		q := u.Query()
		q.Set("statement_timeout", strconv.FormatInt(o.stmtTimeout.Milliseconds(), 10))
		u.RawQuery = q.Encode()
		dsn = u.String()
	}
	conns := o.maxConns
	if conns <= 0 {
		conns = DefaultConns
	}
	config, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("models: the database's address: %w", err)
	}
	pool := waitingPool{db: stdlib.OpenDB(*config), wait: o.poolWait}
	db, err := gorm.Open(postgres.New(postgres.Config{Conn: pool}), &gorm.Config{Logger: logger.Discard, TranslateError: true, PrepareStmt: false,
		SkipDefaultTransaction: true, NowFunc: func() time.Time { return o.now().UTC() }})
	if err != nil {
		pool.db.Close()
		return nil, fmt.Errorf("models: open PostgreSQL: %w", err)
	}
	pool.db.SetMaxOpenConns(conns)
	pool.db.SetMaxIdleConns(conns)
	err = db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec("SELECT pg_advisory_xact_lock(?)", migrationLock).Error; err != nil {
			return err
		}
		return upgrade(tx, o.migrate)
	})
	if err != nil {
		closeDB(db)
		return nil, err
	}
	var schema string
	if err := db.Raw("SELECT current_schema()").Scan(&schema).Error; err != nil {
		closeDB(db)
		return nil, err
	}
	s := &Store{db: db, w: db, replays: newReplays(replayCacheSize), opts: o, pg: true, channel: changesChannel + schema}
	for _, t := range tables {
		if err := s.db.Statement.Parse(t); err != nil {
			closeDB(db)
			return nil, err
		}
	}
	if o.onChange != nil {
		ctx, cancel := context.WithCancel(context.Background())
		s.stopListening = cancel
		ready := make(chan error, 1)
		s.listening.Add(1)
		go func() { defer s.listening.Done(); s.listen(ctx, dsn, ready) }()
		if err := <-ready; err != nil {
			s.Close()
			return nil, fmt.Errorf("models: listen for changes: %w", err)
		}
	}
	return s, nil
}

// tell passes c to the change listener: at once on SQLite (one process
// holds the database), through NOTIFY on PostgreSQL, so that every
// instance's listener hears every change (also one made by a tool such as
// cacao admin, which listens to nothing).
func (s *Store) tell(c Change) {
	if !s.pg {
		if s.opts.onChange != nil {
			s.opts.onChange(c)
		}
		return
	}
	payload, err := json.Marshal(c)
	if err == nil {
		err = s.w.Exec("SELECT pg_notify(?, ?)", s.channel, string(payload)).Error
	}
	if err != nil && s.opts.onChange != nil {
		// Pages still see the change at their next load; the others' live
		// update is what is lost.
		s.opts.onChange(c)
	}
}

// listen passes every change told on the database to the change listener
// until ctx ends, on a connection of its own. A connection lost is logged
// and made again within listenRetry; once it is back, the changes told
// meanwhile (which nobody heard) are told again from the database
// (catchUp), so that no page stays behind. ready gets the first
// connection's outcome.
func (s *Store) listen(ctx context.Context, dsn string, ready chan<- error) {
	first := true
	var lost time.Time // when the connection was lost; zero while it holds
	for ctx.Err() == nil {
		conn, err := pgx.Connect(ctx, dsn)
		if err == nil {
			if _, err = conn.Exec(ctx, "LISTEN "+pgx.Identifier{s.channel}.Sanitize()); err != nil {
				conn.Close(context.Background())
			}
		}
		if first {
			ready <- err
			first = false
			if err != nil {
				return
			}
		}
		if err != nil {
			select {
			case <-ctx.Done():
			case <-time.After(listenRetry):
			}
			continue
		}
		if !lost.IsZero() {
			s.opts.log.Info("change listener: connected again", "after_s", time.Since(lost).Round(time.Millisecond).Seconds())
			s.catchUp(lost)
			lost = time.Time{}
		}
		for {
			n, err := conn.WaitForNotification(ctx)
			if err != nil {
				if ctx.Err() == nil {
					lost = time.Now()
					s.opts.log.Warn("change listener: connection lost; live updates wait until it is back", "err", err.Error())
				}
				break
			}
			var c Change
			if json.Unmarshal([]byte(n.Payload), &c) == nil {
				s.opts.onChange(c)
			}
		}
		conn.Close(context.Background())
	}
}

// listenRetry is how long the change listener waits between tries to
// connect again: a move made while the database was away reaches the
// pages within it of the database's return.
const listenRetry = time.Second

// catchUpMargin reaches back before the moment the listener lost its
// connection, for changes told just before (and instances whose clocks
// differ a little).
const catchUpMargin = time.Minute

// catchUpMost bounds the games told again after an outage: past it, the
// pages of the others see their games at their next load.
const catchUpMost = 5000

// catchUp tells the change listener again of every game changed, and every
// chat message written, since lost (less catchUpMargin), with the lobby:
// the notices of those changes went out while nobody listened.
func (s *Store) catchUp(lost time.Time) {
	since := lost.Add(-catchUpMargin)
	var games []Game
	if err := s.db.Select("id", "version").Where("updated_at >= ?", since).Order("updated_at DESC").Limit(catchUpMost).Find(&games).Error; err != nil {
		s.opts.log.Warn("change listener: could not catch up", "err", err.Error())
		return
	}
	var chats []struct {
		GameID uint
		Last   uint
	}
	if err := s.db.Model(&ChatMessage{}).Select("game_id, MAX(id) AS last").Where("created_at >= ?", since).Group("game_id").Limit(catchUpMost).Scan(&chats).Error; err != nil {
		s.opts.log.Warn("change listener: could not catch up the chats", "err", err.Error())
	}
	ids := make([]uint, len(games))
	for i, g := range games {
		ids[i] = g.ID
	}
	players := map[uint][]uint{}
	if len(ids) > 0 {
		var seats []Seat
		if err := s.db.Select("game_id", "user_id").Where("game_id IN ? AND user_id IS NOT NULL", ids).Find(&seats).Error; err == nil {
			for _, st := range seats {
				if st.UserID != nil {
					players[st.GameID] = append(players[st.GameID], *st.UserID)
				}
			}
		}
	}
	for i, g := range games {
		s.opts.onChange(Change{Game: g.ID, Version: g.Version, Users: players[g.ID], Lobby: i == 0})
	}
	for _, c := range chats {
		s.opts.onChange(Change{Game: c.GameID, Chat: c.Last})
	}
	s.opts.log.Info("change listener: caught up", "games", len(games), "chats", len(chats))
}

// transaction runs fc in a transaction of the writer. On SQLite the one
// writer runs them one after the other; on PostgreSQL several run at once,
// so a change that reads and then writes locks first what it decides on
// (lockUser, lockGame): a game's commit is guarded by its version.
func (s *Store) transaction(fc func(tx *gorm.DB) error) error {
	return s.w.Transaction(fc)
}

// lockUser locks user id's row in tx until it ends: the changes that count
// a user's things (days of vacation, messages, mails, tables) wait for
// each other. (On SQLite, whose one writer runs one transaction at a time,
// GORM leaves FOR UPDATE out.)
func lockUser(tx *gorm.DB, id uint) error {
	var ids []uint
	return tx.Model(&User{}).Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).Pluck("id", &ids).Error
}

// The advisory locks of the transactions that count rows of several users
// before they add one (lockCounting): the day's confirmation mails, the
// invitations a player received.
const (
	confirmationsLock = 7_204_612
	invitationsLock   = 7_204_613
)

// lockCounting makes tx wait (PostgreSQL) until no other transaction holds
// lock: what they count is other users' rows, which no user's row lock
// covers, and two at once would both pass the count. It is taken after
// the user's own row lock, never before one.
func (s *Store) lockCounting(tx *gorm.DB, lock int64) error {
	if !s.pg {
		return nil
	}
	return tx.Exec("SELECT pg_advisory_xact_lock(?)", lock).Error
}

// lockGame locks game id's row in tx until it ends, as lockUser does a
// user's: two joins of one table wait for each other rather than fail.
func lockGame(tx *gorm.DB, id uint) error {
	var ids []uint
	return tx.Model(&Game{}).Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).Pluck("id", &ids).Error
}
