package models

import (
	"path/filepath"
	"testing"

	"gorm.io/gorm"
)

// TestWritePoolPreparesOnce: a statement first met in a transaction runs
// there unprepared, is prepared when the transaction ends, and the next
// transactions run it prepared; rollbacks still undo, and statements
// outside transactions are prepared too.
func TestWritePoolPreparesOnce(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "pool.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	p, ok := s.w.ConnPool.(*writePool)
	if !ok {
		t.Fatalf("the writer's pool is %T", s.w.ConnPool)
	}
	const q = "INSERT INTO settings (key, value) VALUES (?, ?)"
	insert := func(tx *gorm.DB, key string) error { return tx.Exec(q, key, "v").Error }
	if err := s.w.Transaction(func(tx *gorm.DB) error { return insert(tx, "a") }); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	first := p.stmts[q]
	p.mu.Unlock()
	if first == nil {
		t.Fatal("the statement met in a transaction was not prepared after it")
	}
	if err := s.w.Transaction(func(tx *gorm.DB) error { return insert(tx, "b") }); err != nil {
		t.Fatal(err)
	}
	if err := s.w.Transaction(func(tx *gorm.DB) error {
		if err := insert(tx, "c"); err != nil {
			return err
		}
		return gorm.ErrInvalidData // roll back
	}); err != gorm.ErrInvalidData {
		t.Fatal(err)
	}
	if err := insert(s.w, "d"); err != nil {
		t.Fatal(err)
	}
	if err := insert(s.w, "a"); err == nil {
		t.Fatal("a duplicate key was accepted")
	}
	p.mu.Lock()
	same := p.stmts[q] == first
	p.mu.Unlock()
	if !same {
		t.Fatal("the statement was prepared again")
	}
	var keys []string
	if err := s.db.Raw("SELECT key FROM settings WHERE value = 'v' ORDER BY key").Scan(&keys).Error; err != nil {
		t.Fatal(err)
	}
	if len(keys) != 3 || keys[0] != "a" || keys[1] != "b" || keys[2] != "d" {
		t.Fatalf("rows %v, want a b d (c rolled back)", keys)
	}
}
