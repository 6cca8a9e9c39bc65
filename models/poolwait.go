package models

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// ErrPoolFull is a request that waited DefaultPoolWait for one of the
// instance's PostgreSQL connections (WithPool) while all were busy: the
// database is stalled or the instance has more work than connections.
// Unavailable: the page answers 503 at once rather than queue behind it.
var ErrPoolFull = errors.New("models: every database connection of this instance stayed busy")

// DefaultPoolWait is how long a statement or transaction waits for a
// connection of a full pool, unless WithPoolWait says otherwise.
const DefaultPoolWait = 3 * time.Second

// WithPoolWait sets how long a statement or transaction waits for a
// connection when every one of the instance's PostgreSQL connections is
// busy (d > 0; default DefaultPoolWait), before ErrPoolFull.
func WithPoolWait(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.poolWait = d
		}
	}
}

// waitingPool is the PostgreSQL pool as GORM uses it: each statement and
// transaction borrows a connection, waiting at most wait for one, and
// gives it back when it ends (its rows closed, its transaction committed
// or rolled back). database/sql's own pool waits without bound.
type waitingPool struct {
	db   *sql.DB
	wait time.Duration
}

// conn borrows a connection, ErrPoolFull when none came within p.wait.
func (p waitingPool) conn(ctx context.Context) (*sql.Conn, error) {
	wctx, cancel := context.WithTimeout(ctx, p.wait)
	defer cancel()
	c, err := p.db.Conn(wctx)
	if err != nil && errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return nil, ErrPoolFull
	}
	return c, err
}

// giveBack returns c to the pool once what it runs (rows, a transaction)
// ends: sql.Conn.Close waits for that.
func giveBack(c *sql.Conn) { go c.Close() }

func (p waitingPool) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	c, err := p.conn(ctx)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return c.ExecContext(ctx, query, args...)
}

func (p waitingPool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	c, err := p.conn(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := c.QueryContext(ctx, query, args...)
	if err != nil {
		c.Close()
		return nil, err
	}
	giveBack(c)
	return rows, nil
}

// QueryRowContext waits for a connection without bound: a sql.Row cannot
// carry ErrPoolFull. The store reads rows through QueryContext.
func (p waitingPool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return p.db.QueryRowContext(ctx, query, args...)
}

func (p waitingPool) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return p.db.PrepareContext(ctx, query)
}

func (p waitingPool) BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error) {
	c, err := p.conn(ctx)
	if err != nil {
		return nil, err
	}
	tx, err := c.BeginTx(ctx, opts)
	if err != nil {
		c.Close()
		return nil, err
	}
	giveBack(c)
	return tx, nil
}

// GetDBConn is the pool itself (GORM's DB(): sizes, stats, ping).
func (p waitingPool) GetDBConn() (*sql.DB, error) { return p.db, nil }

// Ping is GORM's check at open.
func (p waitingPool) Ping() error { return p.db.Ping() }
