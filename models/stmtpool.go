package models

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"

	"gorm.io/gorm"
)

// writePool is the writing connection as GORM sees it, with the statements
// it runs prepared once and kept. GORM's own PrepareStmt prepares a
// statement first met in a transaction on that transaction, and
// database/sql cannot reuse such a statement in the next transaction: it
// prepares it again, every time (4% of the server's time under load). Here
// every statement is prepared on the pool, outside any transaction, so a
// transaction (on the pool's one connection) finds it prepared there.
//
// A statement first met inside a transaction cannot be prepared then: the
// transaction holds the only connection. It runs unprepared and is
// prepared once the transaction has ended.
//
// The pool also passes on which games its statements changed (see
// gameRows): the connection's update hook notes each games row changed, and
// when the statement or transaction is over (committed, or rolled back),
// rows hears of them.
type writePool struct {
	db *sql.DB
	mu sync.Mutex
	// stmts holds the prepared statements by query; pending the queries met
	// in a transaction, to prepare when it ends.
	stmts   map[string]*sql.Stmt
	pending map[string]bool
	rows    *gameRows
	users   *users // set by the Store
	// serial is held from the start of a statement or transaction until
	// done has told of its changes: the next one's changes (hook) are not
	// told early, before they are committed. The pool has one connection,
	// so this waits no more than the connection would.
	serial sync.Mutex
	// games and users changed by the statement or transaction under way
	// (the one connection runs one at a time).
	changeMu sync.Mutex
	games    map[uint]bool
	userIDs  map[uint]bool
	// userHits counts the changes to each user's row; unread, the changes
	// of the unread count that the statements said they make (a notice
	// written or read): a user whose every change is one of those has the
	// count moved in the cache instead of being dropped from it.
	userHits map[uint]int
	unread   map[uint]unreadChange
	// owned says a statement or transaction holds serial; stray counts
	// changes made when none did (a write read as a query's rows, after
	// the call): they are told late. Tests check it stays 0.
	owned bool
	stray atomic.Int64
}

// hook is the connection's update hook: SQLite calls it for every row
// inserted, updated or deleted, triggers' changes included.
func (p *writePool) hook(op int, db, table string, rowid int64) {
	if table != "games" && table != "users" {
		return
	}
	p.changeMu.Lock()
	defer p.changeMu.Unlock()
	if !p.owned {
		p.stray.Add(1)
	}
	if table == "games" {
		p.games[uint(rowid)] = true
	} else {
		p.userIDs[uint(rowid)] = true
		p.userHits[uint(rowid)]++
	}
}

// unreadChange is what statements said they change of a user's unread
// count: rows changes of the user's row, by delta in all.
type unreadChange struct{ rows, delta int }

// expectUnread notes that the statement just run changed the user's unread
// count by delta, in rows changes of the row (the notifications' triggers).
func (p *writePool) expectUnread(userID uint, rows, delta int) {
	p.changeMu.Lock()
	defer p.changeMu.Unlock()
	c := p.unread[userID]
	p.unread[userID] = unreadChange{c.rows + rows, c.delta + delta}
}

// begin takes serial for a statement or transaction; end gives it back.
func (p *writePool) begin() {
	p.serial.Lock()
	p.changeMu.Lock()
	p.owned = true
	p.changeMu.Unlock()
}

func (p *writePool) end() {
	p.changeMu.Lock()
	p.owned = false
	p.changeMu.Unlock()
	p.serial.Unlock()
}

// done tells the caches of the games and users changed, once the change
// is over.
func (p *writePool) done() {
	p.changeMu.Lock()
	if len(p.games) == 0 && len(p.userIDs) == 0 {
		clear(p.unread)
		p.changeMu.Unlock()
		return
	}
	games, users, hits, unread := p.games, p.userIDs, p.userHits, p.unread
	p.games, p.userIDs, p.userHits, p.unread = map[uint]bool{}, map[uint]bool{}, map[uint]int{}, map[uint]unreadChange{}
	p.changeMu.Unlock()
	if len(games) > 0 {
		p.rows.changed(games)
	}
	if p.users == nil {
		return
	}
	for id := range users {
		c, ok := unread[id]
		p.users.tell(id, ok && c.rows == hits[id], c.delta)
	}
}

// maxPoolStmts bounds the statements kept (GORM writes a new query for
// each length of an IN list, say): past it, queries run unprepared.
const maxPoolStmts = 500

func newWritePool(rows *gameRows) *writePool {
	return &writePool{stmts: map[string]*sql.Stmt{}, pending: map[string]bool{}, rows: rows, games: map[uint]bool{}, userIDs: map[uint]bool{},
		userHits: map[uint]int{}, unread: map[uint]unreadChange{}}
}

var (
	_ gorm.ConnPool         = (*writePool)(nil)
	_ gorm.ConnPoolBeginner = (*writePool)(nil)
	_ gorm.GetDBConnector   = (*writePool)(nil)
	_ gorm.Tx               = (*writeTx)(nil)
)

// GetDBConn gives GORM's DB() the pool.
func (p *writePool) GetDBConn() (*sql.DB, error) { return p.db, nil }

// stmt returns the prepared statement of query, preparing it when the
// connection is free (outside a transaction) and there is room.
func (p *writePool) stmt(ctx context.Context, query string) *sql.Stmt {
	p.mu.Lock()
	st, ok := p.stmts[query]
	full := len(p.stmts) >= maxPoolStmts
	p.mu.Unlock()
	if ok || full {
		return st
	}
	st, err := p.db.PrepareContext(ctx, query)
	if err != nil {
		return nil // run unprepared: the error, if it is one, shows there
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if kept, ok := p.stmts[query]; ok {
		st.Close()
		return kept
	}
	p.stmts[query] = st
	return st
}

// kept returns the prepared statement of query if there is one, and
// otherwise notes the query to prepare after the transaction.
func (p *writePool) kept(query string) *sql.Stmt {
	p.mu.Lock()
	defer p.mu.Unlock()
	st, ok := p.stmts[query]
	if !ok && len(p.stmts)+len(p.pending) < maxPoolStmts {
		p.pending[query] = true
	}
	return st
}

// preparePending prepares the queries met in transactions.
func (p *writePool) preparePending() {
	p.mu.Lock()
	var qs []string
	for q := range p.pending {
		qs = append(qs, q)
	}
	clear(p.pending)
	p.mu.Unlock()
	for _, q := range qs {
		p.stmt(context.Background(), q)
	}
}

func (p *writePool) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return p.db.PrepareContext(ctx, query)
}

func (p *writePool) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	p.begin()
	defer p.end()
	defer p.done()
	if st := p.stmt(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return p.db.ExecContext(ctx, query, args...)
}

// QueryContext and QueryRowContext outside a transaction are for reads. A
// query that writes (INSERT ... RETURNING) runs as its rows are read, after
// done has run: its change would be told only with the next statement's.
// So writes go through Exec or a transaction (GORM's creates, updates and
// deletes get one of their own on the writer); TestWritesOutsideTransactions
// and MustOpen check that the store makes none.
func (p *writePool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	p.begin()
	defer p.end()
	defer p.done()
	if st := p.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return p.db.QueryContext(ctx, query, args...)
}

func (p *writePool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	p.begin()
	defer p.end()
	defer p.done()
	if st := p.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return p.db.QueryRowContext(ctx, query, args...)
}

func (p *writePool) BeginTx(ctx context.Context, opts *sql.TxOptions) (gorm.ConnPool, error) {
	p.begin()
	tx, err := p.db.BeginTx(ctx, opts)
	if err != nil {
		p.end()
		return nil, err
	}
	return &writeTx{Tx: tx, p: p}, nil
}

// writeTx is a transaction on the pool: it runs the pool's prepared
// statements on its connection (database/sql finds them prepared there).
type writeTx struct {
	*sql.Tx
	p    *writePool
	over bool
}

func (t *writeTx) Commit() error { return t.end(t.Tx.Commit, true) }

func (t *writeTx) Rollback() error { return t.end(t.Tx.Rollback, false) }

// end commits or rolls back, tells of the changes, prepares the queries
// first met in the transaction, and lets the next statement start. The
// changes of a transaction that did not commit are told as drops: the
// counts it said it moved did not move.
func (t *writeTx) end(f func() error, commit bool) error {
	if !t.over && t.p.users != nil {
		// A reader of the other connections sees the change once it is
		// committed, before done tells it: what it reads is not kept.
		t.p.changeMu.Lock()
		ids := make([]uint, 0, len(t.p.userIDs))
		for id := range t.p.userIDs {
			ids = append(ids, id)
		}
		t.p.changeMu.Unlock()
		t.p.users.hold(ids)
	}
	err := f()
	if t.over {
		return err
	}
	t.over = true
	if !commit || err != nil {
		t.p.changeMu.Lock()
		clear(t.p.unread)
		t.p.changeMu.Unlock()
	}
	t.p.done()
	t.p.preparePending()
	t.p.end()
	return err
}

func (t *writeTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := t.p.kept(query); st != nil {
		return t.Tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return t.Tx.ExecContext(ctx, query, args...)
}

func (t *writeTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := t.p.kept(query); st != nil {
		return t.Tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return t.Tx.QueryContext(ctx, query, args...)
}

func (t *writeTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := t.p.kept(query); st != nil {
		return t.Tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return t.Tx.QueryRowContext(ctx, query, args...)
}
