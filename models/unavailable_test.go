package models_test

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"cacao/models"
)

// TestUnavailable: the database away, refusing connections, past its
// connections or a statement's time is unavailable (503); a refusal of the
// request itself, or a fault, is not.
func TestUnavailable(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{&pgconn.PgError{Code: "53300"}, true}, // too many connections (for the role)
		{&pgconn.PgError{Code: "57P01"}, true}, // the server shutting down
		{&pgconn.PgError{Code: "08006"}, true}, // the connection failed
		{&pgconn.PgError{Code: "57014"}, true}, // a statement past its time
		{&pgconn.PgError{Code: "23505"}, false},
		{fmt.Errorf("loading: %w", driver.ErrBadConn), true},
		{errors.New("sql: database is closed"), true},
		{fmt.Errorf("loading: %w", models.ErrPoolFull), true},
		{models.ErrNotFound, false},
		{errors.New("broken"), false},
	} {
		if got := models.Unavailable(tc.err); got != tc.want {
			t.Errorf("Unavailable(%v) = %v; want %v", tc.err, got, tc.want)
		}
	}
}
