package models

import (
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gorm.io/gorm"
)

// quoted reads the given columns of a row as SQLite's quote() gives them:
// the stored type and text, as exact as the file holds them.
func quoted(t *testing.T, s *Store, table string, id uint, cols ...string) string {
	t.Helper()
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = fmt.Sprintf("quote(%q)", c)
	}
	var out string
	if err := s.db.Raw(fmt.Sprintf(`SELECT %s FROM %s WHERE id = ?`, strings.Join(q, " || '|' || "), table), id).Row().Scan(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRawWritesMatchGORM: the commit's statements written out (rawExec)
// store what GORM's Create and Updates stored from the structs, value for
// value and type for type, and a repeated log entry is refused as GORM
// refused it.
func TestRawWritesMatchGORM(t *testing.T) {
	s := MustOpen(t)
	at := time.Date(2026, 12, 3, 10, 4, 5, 123456789, time.UTC)
	s.Now = func() time.Time { return at }
	ana, bob := mustUser(t, s, "ana"), mustUser(t, s, "bob")
	l := twoPlayerGame(t, s, ana, bob)
	g := &l.Game
	var err error
	in := func(f func(tx *gorm.DB) error) {
		t.Helper()
		if err := s.w.Transaction(f); err != nil {
			t.Fatal(err)
		}
	}

	// Log entries.
	raw := []LogEntry{{GameID: g.ID, Seq: 1000, Kind: KindTurn, Seat: 1, Turn: 3, UserID: &ana.ID, Version: 7, Timeout: true, Data: `{"x":1}`, CreatedAt: at},
		{GameID: g.ID, Seq: 1001, Kind: KindResolve, Seat: 0, Turn: 3, Version: 7, Auto: true, Data: `[]`, CreatedAt: at}}
	orm := append([]LogEntry(nil), raw...)
	orm[0].Seq, orm[1].Seq = 2000, 2001
	in(func(tx *gorm.DB) error { return insertEntries(tx, raw) })
	in(func(tx *gorm.DB) error { return tx.Create(&orm).Error })
	cols := []string{"game_id", "kind", "seat", "turn", "user_id", "version", "timeout", "auto", "data", "created_at"}
	for i := range raw {
		if raw[i].ID == 0 {
			t.Fatalf("entry %d has no id", i)
		}
		if a, b := quoted(t, s, "log_entries", raw[i].ID, cols...), quoted(t, s, "log_entries", orm[i].ID, cols...); a != b {
			t.Errorf("log entry %d:\n raw %s\nGORM %s", i, a, b)
		}
	}
	err = s.w.Transaction(func(tx *gorm.DB) error { return insertEntries(tx, raw[:1]) })
	if !errors.Is(err, gorm.ErrDuplicatedKey) {
		t.Fatalf("a log entry stored twice: %v, want gorm.ErrDuplicatedKey", err)
	}

	// A notice.
	var n0 int64
	s.db.Model(&Notification{}).Count(&n0)
	in(func(tx *gorm.DB) error {
		return s.notify(tx, bob.ID, g.ID, "turn", "It is your turn in game %d.", g.ID)
	})
	var notes []Notification
	if err := s.db.Order("id").Find(&notes).Error; err != nil || int64(len(notes)) != n0+1 {
		t.Fatalf("notices: %d, %v", len(notes), err)
	}
	want := notes[len(notes)-1]
	want.ID = 0
	in(func(tx *gorm.DB) error { return tx.Create(&want).Error })
	cols = []string{"user_id", "game_id", "kind", "text", "format", "args", "read", "created_at"}
	if a, b := quoted(t, s, "notifications", notes[len(notes)-1].ID, cols...), quoted(t, s, "notifications", want.ID, cols...); a != b {
		t.Errorf("notice:\n raw %s\nGORM %s", a, b)
	}

	// Clocks: one seat by the written-out statements, the other as GORM
	// did, then compared.
	a, b := &l.Seats[0], &l.Seats[1]
	deadline, remind := at.Add(24*time.Hour), at.Add(20*time.Hour)
	cols = []string{"waiting_since", "deadline", "remind_at", "reminded"}
	same := func(what string) {
		t.Helper()
		if x, y := quoted(t, s, "seats", a.ID, cols...), quoted(t, s, "seats", b.ID, cols...); x != y {
			t.Errorf("%s:\n raw %s\nGORM %s", what, x, y)
		}
	}
	in(func(tx *gorm.DB) error {
		a.WaitingSince, a.Deadline, a.RemindAt, a.Reminded = &at, &deadline, &remind, false
		if err := setClock(tx, a); err != nil {
			return err
		}
		return tx.Model(&Seat{}).Where("id = ?", b.ID).Updates(map[string]any{"waiting_since": &at, "deadline": &deadline, "remind_at": &remind, "reminded": false}).Error
	})
	same("a clock started")
	in(func(tx *gorm.DB) error {
		if err := clearDeadline(tx, a); err != nil {
			return err
		}
		return tx.Model(&Seat{}).Where("id = ?", b.ID).Updates(map[string]any{"deadline": nil, "remind_at": nil, "reminded": false}).Error
	})
	same("a deadline taken off")
	in(func(tx *gorm.DB) error {
		if err := stopWaiting(tx, a); err != nil {
			return err
		}
		return tx.Model(&Seat{}).Where("id = ?", b.ID).Updates(map[string]any{"waiting_since": nil, "deadline": nil, "remind_at": nil, "reminded": false}).Error
	})
	same("a clock stopped")

	// A user's settings, read as GORM reads the whole user, from the cache
	// and without it.
	if _, err := s.StartVacation(ana.ID, 3); err != nil {
		t.Fatal(err)
	}
	if err := s.w.Exec(`UPDATE users SET email_mode = ?, email_verified = ? WHERE id = ?`, MailEach, true, ana.ID).Error; err != nil {
		t.Fatal(err)
	}
	var full User
	if err := s.db.Take(&full, ana.ID).Error; err != nil || full.VacationUntil == nil {
		t.Fatalf("ana: %+v, %v", full, err)
	}
	for _, cached := range []bool{false, true} {
		if cached {
			if _, err := s.UserByID(ana.ID); err != nil {
				t.Fatal(err)
			}
		}
		var got *User
		in(func(tx *gorm.DB) (err error) { got, err = s.settingsIn(tx, ana.ID); return err })
		if !got.VacationUntil.Equal(*full.VacationUntil) || got.EmailMode != full.EmailMode || !got.EmailVerified || got.ID != ana.ID {
			t.Errorf("settings (cached %v): %+v, want those of %+v", cached, got, full)
		}
	}
	if err := s.w.Transaction(func(tx *gorm.DB) error { _, err := s.settingsIn(tx, 999); return err }); !errors.Is(err, gorm.ErrRecordNotFound) {
		t.Fatalf("settings of no user: %v", err)
	}

	// The version, and the time of the change as GORM keeps it.
	before := l.Game.Version
	var was Game
	if err := s.db.Take(&was, g.ID).Error; err != nil {
		t.Fatal(err)
	}
	in(func(tx *gorm.DB) error { return bumpVersion(tx, &l.Game) })
	var got Game
	if err := s.db.Take(&got, g.ID).Error; err != nil {
		t.Fatal(err)
	}
	if got.Rev != was.Rev+1 {
		t.Fatalf("a new version moved rev from %d to %d, want one change", was.Rev, got.Rev)
	}
	if got.Version != before+1 || l.Game.Version != before+1 || time.Since(got.UpdatedAt).Abs() > time.Minute {
		t.Fatalf("after bumpVersion: stored version %d, in memory %d, updated %v; want %d, now", got.Version, l.Game.Version, got.UpdatedAt, before+1)
	}
	if tp := quoted(t, s, "games", g.ID, "version"); tp != fmt.Sprint(before+1) {
		t.Fatalf("the version is stored as %s", tp)
	}
	stale := l.Game
	stale.Version = before
	if err := s.w.Transaction(func(tx *gorm.DB) error { return bumpVersion(tx, &stale) }); !errors.Is(err, ErrConflict) {
		t.Fatalf("moving on a version already passed: %v, want ErrConflict", err)
	}
}

// TestRawRowReportsErrors: a query that cannot be prepared, or finds no
// row, is an error from Scan, on the readers' prepared statements and in
// the writer's transaction alike (GORM's prepared QueryRowContext answered
// a failed prepare with an empty row, whose Scan panicked).
func TestRawRowReportsErrors(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "cacao.db")) // readers apart from the writer
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, ok := s.db.Statement.ConnPool.(*gorm.PreparedStmtDB); !ok {
		t.Fatalf("the readers are %T, not GORM's prepared statements: the test checks nothing", s.db.Statement.ConnPool)
	}
	var n int
	if err := rawRow(s.db, `SELECT count(*) FROM no_such_table`).Scan(&n); err == nil || !strings.Contains(err.Error(), "no_such_table") {
		t.Fatalf("a query that cannot be prepared: %v", err)
	}
	if err := rawRow(s.db, `SELECT id FROM users WHERE id = ?`, 12345).Scan(&n); !errors.Is(err, sql.ErrNoRows) {
		t.Fatalf("no row: %v, want sql.ErrNoRows", err)
	}
	if err := rawRow(s.db, `SELECT 41 + ?`, 1).Scan(&n); err != nil || n != 42 {
		t.Fatalf("a row: %d, %v", n, err)
	}
	err = s.w.Transaction(func(tx *gorm.DB) error {
		if err := rawRow(tx, `SELECT count(*) FROM no_such_table`).Scan(&n); err == nil {
			t.Error("in a transaction, a query that cannot be prepared gave no error")
		}
		return rawRow(tx, `SELECT 1`).Scan(&n)
	})
	if err != nil || n != 1 {
		t.Fatalf("in a transaction: %d, %v", n, err)
	}
}
