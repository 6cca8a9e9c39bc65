//go:build long

package main

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"

	"cacao/models"
)

// TestLongCrashDurability kills the server with SIGKILL in the middle of a load
// run, restarts it on the same database file, and checks that every turn
// and choice that got a success response is there, that SQLite finds the
// file intact, and that the interrupted games play on to their end.
func TestLongCrashDurability(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the server and runs a load: not in -short")
	}
	dir := t.TempDir()
	bin, err := BuildServer(dir)
	if err != nil {
		t.Fatal(err)
	}
	db, logPath := filepath.Join(dir, "crash.db"), filepath.Join(dir, "server.log")
	ctx := context.Background()
	srv, err := StartServer(ctx, bin, db, logPath, "-games-per-hour", "0")
	if err != nil {
		t.Fatal(err)
	}
	lt := NewLoad([]string{srv.URL}, 20, 7)
	if err := lt.Setup(ctx); err != nil {
		srv.Kill()
		t.Fatal(err)
	}
	// Kill the server while the users are playing.
	done := make(chan Stats)
	pctx, stop := context.WithCancel(ctx)
	go func() { done <- lt.Play(pctx, 20*time.Second) }()
	time.Sleep(3 * time.Second)
	srv.Kill()
	stop()
	before := <-done
	if before.Turns < 20 {
		t.Fatalf("only %d turns before the crash; the load did not run", before.Turns)
	}
	t.Logf("before the kill: %d turns and %d choices confirmed, %d requests failed at the kill", before.Turns, before.Resolves, before.Errors)

	// Every confirmed change is in the file: a game's version only grows by
	// committed changes, so it is at least the version each response showed.
	check := func() {
		store, err := models.Open(db)
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		for _, c := range before.Committed {
			if c.Finished {
				if l, err := store.LoadGame(c.Game); err != nil || l.Game.Status != models.StatusFinished {
					t.Fatalf("game %d was shown finished, but is not after the crash (%v)", c.Game, err)
				}
				continue
			}
			if c.Version < 0 {
				t.Fatalf("a confirmed change of game %d did not show its version", c.Game)
			}
			if v, err := store.GameVersion(c.Game); err != nil || v < c.Version {
				t.Fatalf("game %d: version %d (%v) after the crash; a response confirmed version %d", c.Game, v, err, c.Version)
			}
		}
	}
	check()
	raw, err := sql.Open("sqlite3", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	var ok string
	if err := raw.QueryRow("PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
		t.Fatalf("integrity_check: %q %v", ok, err)
	}
	raw.Close()

	// The same file, a new server: the same players (their sessions are in
	// the database) finish the games the crash interrupted.
	srv, err = StartServer(ctx, bin, db, logPath, "-games-per-hour", "0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	for _, u := range lt.users {
		u.base = srv.URL
	}
	games := lt.Games()
	after := lt.Finish(ctx, 60*time.Second)
	if after.Errors > 0 {
		t.Fatalf("%d errors after the restart: %v", after.Errors, after.ErrorSamples)
	}
	store, err := models.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	for _, id := range games {
		l, err := store.LoadGame(id)
		if err != nil {
			t.Fatal(err)
		}
		if l.Game.Status != models.StatusFinished && l.Game.Status != models.StatusOpen {
			t.Fatalf("game %d did not reach its end after the restart: %s", id, l.Game.Status)
		}
	}
	t.Logf("after the restart: %d games finished with %d more turns", len(games), after.Turns)
	if _, err := os.Stat(db + "-wal"); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
}
