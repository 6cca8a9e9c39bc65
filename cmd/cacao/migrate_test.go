package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gormsqlite "gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"cacao/engine"
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

// TestMigrateRefusesARunningSite: migrate refuses a SQLite file a site is
// running on (it would copy a game half-way through a move), and says to
// stop the site; stopped, the site's file copies.
func TestMigrateRefusesARunningSite(t *testing.T) {
	base := modeltest.Postgres(t)
	db := filepath.Join(t.TempDir(), "site.db")
	ctx, stop := context.WithCancel(context.Background())
	ready, done := make(chan string, 1), make(chan error, 1)
	go func() {
		done <- serve(ctx, Config{DB: db, Addr: "127.0.0.1:0", WorkEvery: time.Hour}, io.Discard, ready)
	}()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("the site did not start: %v", err)
	}
	var out, errs bytes.Buffer
	if code := run([]string{"migrate", "-from", db, "-to", modeltest.Schema(t, base)}, nil, &out, &errs); code != 1 || !strings.Contains(errs.String(), "stop the site before migrating it") {
		t.Errorf("migrate of a running site: %d\n%s%s", code, out.String(), errs.String())
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	errs.Reset()
	if code := run([]string{"migrate", "-from", db, "-to", modeltest.Schema(t, base)}, nil, &out, &errs); code != 0 {
		t.Fatalf("migrate of the site once stopped: %d\n%s", code, errs.String())
	}
}

// TestMigrateNamesTheClashes: accounts whose names differ only in capitals
// (an old site allowed them) stop migrate before it copies anything, with
// the names and how to rename one; renamed, the site copies.
func TestMigrateNamesTheClashes(t *testing.T) {
	base := modeltest.Postgres(t)
	db, store, _ := siteWith(t, "alice")
	store.Close()
	sqlite(t, db, `INSERT INTO users (username, password_hash, created_at) SELECT 'Alice', password_hash, created_at FROM users WHERE username = 'alice'`)
	dsn := modeltest.Schema(t, base)
	var out, errs bytes.Buffer
	if code := run([]string{"migrate", "-from", db, "-to", dsn}, nil, &out, &errs); code != 1 || !strings.Contains(errs.String(), "alice and Alice") || !strings.Contains(errs.String(), "rename NAME NEWNAME") {
		t.Fatalf("migrate with alice and Alice: %d\n%s%s", code, out.String(), errs.String())
	}
	out.Reset()
	if code := run([]string{"admin", "-db", db, "rename", "Alice", "alice2"}, nil, &out, &errs); code != 0 || !strings.Contains(out.String(), "Alice is now alice2") {
		t.Fatalf("rename: %d\n%s%s", code, out.String(), errs.String())
	}
	if code := run([]string{"admin", "-db", db, "rename", "alice2", "alice"}, nil, &out, &errs); code != 1 {
		t.Fatalf("a rename to a name taken: %d", code)
	}
	errs.Reset()
	if code := run([]string{"migrate", "-from", db, "-to", dsn}, nil, &out, &errs); code != 0 {
		t.Fatalf("migrate once renamed: %d\n%s", code, errs.String())
	}
}

// TestMigrateChecksVersions: a copy in which a game's version is behind
// its log (what a site writing meanwhile left) is refused, and nothing of
// it stays.
func TestMigrateChecksVersions(t *testing.T) {
	base := modeltest.Postgres(t)
	db, store, users := siteWith(t, "alice", "bob")
	alice, bob := users[0], users[1]
	g, err := store.CreateGame(alice, models.GameSpec{Seats: []string{models.SeatOpen}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Join(g.ID, "", bob); err != nil {
		t.Fatal(err)
	}
	l, err := store.LoadGame(g.ID)
	if err != nil {
		t.Fatal(err)
	}
	mover := alice
	if l.SeatOf(bob.ID) == l.Play.State().Current() {
		mover = bob
	}
	if _, err := store.CommitTurn(g.ID, l.Game.Version, models.Actor{UserID: mover.ID}, engine.Move{Placement: l.Play.State().LegalPlacements(nil)[0]}); err != nil {
		t.Fatal(err)
	}
	store.Close()
	sqlite(t, db, fmt.Sprintf(`UPDATE games SET version = 0 WHERE id = %d`, g.ID))
	dsn := modeltest.Schema(t, base)
	var out, errs bytes.Buffer
	if code := run([]string{"migrate", "-from", db, "-to", dsn}, nil, &out, &errs); code != 1 || !strings.Contains(errs.String(), fmt.Sprintf("game %d at version 0, its log at", g.ID)) {
		t.Fatalf("migrate with a game behind its log: %d\n%s%s", code, out.String(), errs.String())
	}
	errs.Reset()
	sqlite(t, db, fmt.Sprintf(`UPDATE games SET version = (SELECT MAX(version) FROM log_entries WHERE game_id = %d) WHERE id = %d`, g.ID, g.ID))
	if code := run([]string{"migrate", "-from", db, "-to", dsn}, nil, &out, &errs); code != 0 {
		t.Fatalf("migrate into the same database after the refusal (nothing of the first copy stays): %d\n%s", code, errs.String())
	}
}

// siteWith is a new SQLite site with the accounts names (passwords
// "password-"+name), and its store, open.
func siteWith(t *testing.T, names ...string) (string, *models.Store, []*models.User) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "site.db")
	store, err := models.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	users := make([]*models.User, len(names))
	for i, name := range names {
		if users[i], err = store.CreateUser(name, "password-"+name); err != nil {
			t.Fatal(err)
		}
	}
	return db, store, users
}

// sqlite runs statement (with args) on the SQLite file db, as an old
// release or a site writing meanwhile would have left it, or as a test sets
// up what no page quickly does.
func sqlite(t *testing.T, db, statement string, args ...any) {
	t.Helper()
	conn, err := gorm.Open(gormsqlite.Open(db), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { d, _ := conn.DB(); d.Close() }()
	if err := conn.Exec(statement, args...).Error; err != nil {
		t.Fatalf("%s: %v", statement, err)
	}
}
