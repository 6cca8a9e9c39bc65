package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cacao/models"
	"cacao/models/modeltest"
)

// TestMigrateToPostgres: cacao migrate copies a stopped SQLite site into
// an empty PostgreSQL database, and the site served from there knows its
// players; a second run into the same database is refused.
func TestMigrateToPostgres(t *testing.T) {
	base := os.Getenv(modeltest.PostgresEnv)
	if base == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI runs the PostgreSQL tests: set %s", modeltest.PostgresEnv)
		}
		t.Skipf("no PostgreSQL: set %s=postgres://… to run", modeltest.PostgresEnv)
	}
	dsn := modeltest.Schema(t, base)
	db := filepath.Join(t.TempDir(), "site.db")
	store, err := models.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.CreateUser("alice", "password-alice"); err != nil {
		t.Fatal(err)
	}
	store.Close()
	var out, errs bytes.Buffer
	if code := run([]string{"migrate", "-from", db, "-to", dsn}, nil, &out, &errs); code != 0 || !strings.Contains(out.String(), "every table counts the same rows") {
		t.Fatalf("migrate: %d\n%s%s", code, out.String(), errs.String())
	}
	if strings.Contains(out.String(), "password") {
		t.Fatal("migrate printed a password")
	}
	site, _ := startSiteWith(t, Config{DB: dsn})
	signIn(t, site, "alice")
	errs.Reset()
	if code := run([]string{"migrate", "-from", db, "-to", dsn}, nil, &out, &errs); code != 1 || !strings.Contains(errs.String(), "empty database only") {
		t.Fatalf("a second migrate: %d %s", code, errs.String())
	}
	if code := run([]string{"migrate", "-from", db, "-to", db}, nil, &out, &errs); code != 2 {
		t.Fatalf("migrate to a file: %d", code)
	}
}
