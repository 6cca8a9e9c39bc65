package main

import (
	"bytes"
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
	base := modeltest.Postgres(t)
	// A password in the address (the test server trusts loopback, so any
	// will do) never shows in what migrate prints.
	dsn := strings.Replace(modeltest.Schema(t, base), "://cacao@", "://cacao:s3cret-word@", 1)
	if !strings.Contains(dsn, "s3cret-word") {
		t.Skipf("the test database's address %s has no user cacao to give a password", models.Redacted(base))
	}
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
	if strings.Contains(out.String()+errs.String(), "s3cret-word") {
		t.Fatal("migrate printed the password")
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
	missing := filepath.Join(t.TempDir(), "typo.db")
	if code := run([]string{"migrate", "-from", missing, "-to", modeltest.Schema(t, base)}, nil, &out, &errs); code != 1 {
		t.Fatalf("migrate from a file that is not there: %d", code)
	}
}
