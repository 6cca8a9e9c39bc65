package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cacao/models"
)

// TestBackupCommand: `cacao backup -db SITE FILE` copies a database in use
// to FILE, and refuses to write over a file.
func TestBackupCommand(t *testing.T) {
	dir := t.TempDir()
	site := filepath.Join(dir, "site.db")
	s, err := models.Open(site)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.CreateUser("alice", "password-alice"); err != nil {
		t.Fatal(err)
	}
	to := filepath.Join(dir, "backup.db")
	var out, errOut bytes.Buffer
	if code := run([]string{"backup", "-db", site, to}, nil, &out, &errOut); code != 0 || !strings.Contains(out.String(), "backed up") {
		t.Fatalf("backup: %d %s %s", code, out.String(), errOut.String())
	}
	if fi, err := os.Stat(to); err != nil || fi.Size() == 0 {
		t.Fatalf("no backup written: %v", err)
	}
	if code := run([]string{"backup", "-db", site, to}, nil, &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "never overwrites") {
		t.Fatalf("a second backup to the same file: %d %s", code, errOut.String())
	}
	c, err := models.Open(to)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Authenticate("alice", "password-alice"); err != nil {
		t.Fatalf("the backup lacks alice: %v", err)
	}
}
