package modeltest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// PostgresEnv names the PostgreSQL database of the tests
// ("postgres://…"); BackendEnv=postgres runs every store a test opens
// through DB on it, each in a schema of its own (else they are SQLite).
const (
	PostgresEnv = "CACAO_TEST_PG"
	BackendEnv  = "CACAO_TEST_BACKEND"
)

// DB is the database a test's store opens: ":memory:" (SQLite), or with
// CACAO_TEST_BACKEND=postgres a new schema of the CACAO_TEST_PG database,
// dropped when the test ends.
func DB(t testing.TB) string {
	t.Helper()
	if os.Getenv(BackendEnv) != "postgres" {
		return ":memory:"
	}
	base := os.Getenv(PostgresEnv)
	if base == "" {
		t.Fatalf("%s=postgres needs %s", BackendEnv, PostgresEnv)
	}
	return Schema(t, base)
}

// Schema makes a new schema in the PostgreSQL database at base, dropped
// when the test ends, and returns base's address with it as the search
// path.
func Schema(t testing.TB, base string) string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("%s: %v", PostgresEnv, err)
	}
	defer conn.Close(ctx)
	var b [6]byte
	rand.Read(b[:])
	name := "t_" + hex.EncodeToString(b[:])
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("dropping schema %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+name+" CASCADE"); err != nil {
			t.Errorf("dropping schema %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return u.String()
}

// Postgres is the PostgreSQL database of the tests (CACAO_TEST_PG): a test
// that needs one is skipped without it, except in CI, which always has
// one, where it fails.
func Postgres(t testing.TB) string {
	t.Helper()
	base := os.Getenv(PostgresEnv)
	if base == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI runs the PostgreSQL tests: set %s", PostgresEnv)
		}
		t.Skipf("no PostgreSQL: set %s=postgres://… to run", PostgresEnv)
	}
	return base
}
