package models

import (
	"path/filepath"
	"testing"
)

// TestBackup: a backup made while the store is open and in use holds what
// was committed; a second backup to the same file is refused.
func TestBackup(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "site.db")
	s, err := Open(path, WithPasswordCost(4), WithBots("greedy"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ana := mustUser(t, s, "ana")
	if _, err := s.CreateGame(ana, GameSpec{Seats: []string{"greedy"}}); err != nil {
		t.Fatal(err)
	}
	to := filepath.Join(dir, "copy.db")
	if err := Backup(path, to); err != nil {
		t.Fatal(err)
	}
	if err := Backup(path, to); err == nil {
		t.Fatal("a backup overwrote a file")
	}
	c, err := Open(to)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Authenticate("ana", "password-ana"); err != nil {
		t.Fatalf("the copy lacks ana: %v", err)
	}
	if mine, err := c.UserByID(ana.ID); err != nil || mine.Username != "ana" {
		t.Fatalf("the copy: %v", err)
	}
}
