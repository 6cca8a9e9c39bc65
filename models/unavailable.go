package models

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// Unavailable reports whether err says the database cannot be reached
// right now (down, restarting, refusing connections, its connections used
// up, or closed), rather than that the request was wrong or the site is:
// the pages answer 503 and ask to try again in a moment.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	var pe *pgconn.PgError
	switch {
	case errors.As(err, &ce), errors.As(err, &ne), pgconn.Timeout(err),
		errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, ErrPoolFull):
		return true
	case errors.As(err, &pe):
		// Connection exceptions, the server shutting down or starting,
		// too many connections (for the server or the role), a statement
		// past its time (WithPool).
		return strings.HasPrefix(pe.Code, "08") || strings.HasPrefix(pe.Code, "57P") || pe.Code == "53300" || pe.Code == "57014"
	}
	return strings.Contains(err.Error(), "sql: database is closed") || strings.Contains(err.Error(), "conn closed")
}

// Ping tells whether the database answers (the readiness check).
func (s *Store) Ping(ctx context.Context) error {
	db, err := s.db.DB()
	if err != nil {
		return err
	}
	return db.PingContext(ctx)
}

// PoolStats is the state of the store's pool of connections.
func (s *Store) PoolStats() sql.DBStats {
	db, err := s.db.DB()
	if err != nil {
		return sql.DBStats{}
	}
	return db.Stats()
}
