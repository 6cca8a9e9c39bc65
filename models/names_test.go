package models

import (
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"cacao/models/modeltest"
)

// TestSignupRefusedBeforeHashing: a sign-up refused for its name (taken,
// in any capitals) or its password costs no password hash; only a sign-up
// that can be made hashes. (A cost bcrypt refuses shows whether it was
// asked to hash.)
func TestSignupRefusedBeforeHashing(t *testing.T) {
	s := MustOpen(t)
	mustUser(t, s, "ana")
	s.opts.passwordCost = bcrypt.MaxCost + 1
	for _, name := range []string{"ana", "ANA"} {
		if _, err := s.CreateUser(name, "password-x1"); !errors.Is(err, ErrUsernameTaken) {
			t.Errorf("sign-up as %q: %v, want taken before any hash", name, err)
		}
	}
	if _, err := s.CreateUser("carol", "short"); !errors.Is(err, ErrInvalid) {
		t.Errorf("a short password: %v", err)
	}
	var cost bcrypt.InvalidCostError
	if _, err := s.CreateUser("carol", "password-x1"); !errors.As(err, &cost) {
		t.Fatalf("a sign-up that can be made did not hash: %v", err)
	}
}

// TestLookalikeNames: a name that looks like a player's (the same Unicode
// TR39 skeleton, in any capitals: a capital I or a 1 for an l, a 0 for an
// o) is refused, before any hash; names only alike in part are not. A
// name mixing scripts cannot be made (a name is letters of the Latin
// alphabet, digits, dots, dashes and underscores).
func TestLookalikeNames(t *testing.T) {
	s := MustOpen(t)
	for _, name := range []string{"alice", "b0b", "Carl"} {
		mustUser(t, s, name)
	}
	s.opts.passwordCost = bcrypt.MaxCost + 1 // a hash fails: a refusal came before it
	for _, name := range []string{"aIice", "a1ice", "AIice", "bob", "BOB", "CarI", "carl"} {
		if _, err := s.CreateUser(name, "password-x1"); !errors.Is(err, ErrUsernameLookalike) && !errors.Is(err, ErrUsernameTaken) {
			t.Errorf("sign-up as %q: %v, want refused as like another's", name, err)
		}
	}
	if _, err := s.CreateUser("aIice", "password-x1"); !errors.Is(err, ErrUsernameLookalike) {
		t.Errorf("the refusal of aIice: %v", err)
	}
	for _, name := range []string{"\u0430lice", "\u0430\u043b\u0438\u0441\u0430"} { // Cyrillic а, and all Cyrillic
		if _, err := s.CreateUser(name, "password-x1"); !errors.Is(err, ErrInvalid) || errors.Is(err, ErrUsernameLookalike) {
			t.Errorf("sign-up as %q: %v, want an invalid name", name, err)
		}
	}
	s.opts.passwordCost = bcrypt.MinCost
	for _, name := range []string{"alicia", "bobby", "carla"} {
		mustUser(t, s, name)
	}
}

// TestNameKeysFilledAtStart: a database from before name keys gets them
// when the site starts, oldest account first; an account whose name looks
// like an older one's (both made before) keeps none, and a new name may
// look like neither.
func TestNameKeysFilledAtStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	s, err := Open(path, WithPasswordCost(bcrypt.MinCost))
	if err != nil {
		t.Fatal(err)
	}
	mustUser(t, s, "alice")
	mustUser(t, s, "bob")
	s.Close()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"DROP TABLE schema_steps", "DROP INDEX idx_users_name_key", "ALTER TABLE users DROP COLUMN name_key",
		"INSERT INTO users (username, password_hash, created_at) VALUES ('aIice', x'00', '2026-01-01 00:00:00')"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	if s, err = Open(path, WithPasswordCost(bcrypt.MinCost)); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	wantNameKeys(t, s, map[string]string{"alice": "alice", "bob": "bob", "aIice": ""})
	for _, name := range []string{"a1ice", "b0b"} {
		if _, err := s.CreateUser(name, "password-x1"); !errors.Is(err, ErrUsernameLookalike) {
			t.Errorf("sign-up as %q: %v", name, err)
		}
	}
}

// TestNameKeyTakenDuringFill: when a sign-up (on another instance) takes
// a key while the start fills them, the account it would have gone to
// keeps none, and the site starts. (A trigger signs up "b0b" as the fill
// gives alice her key, before bob's.)
func TestNameKeyTakenDuringFill(t *testing.T) {
	path := modeltest.DB(t)
	signup := `CREATE TRIGGER signup_meanwhile AFTER UPDATE OF name_key ON users WHEN NEW.username = 'alice' BEGIN
		INSERT INTO users (username, name_key, password_hash) VALUES ('b0b', 'bob', x'00'); END`
	if path == ":memory:" {
		path = filepath.Join(t.TempDir(), "old.db")
	} else {
		signup = `CREATE FUNCTION signup_meanwhile() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
			INSERT INTO users (username, name_key, password_hash) VALUES ('b0b', 'bob', decode('00', 'hex')); RETURN NULL; END $$;
		CREATE TRIGGER signup_meanwhile AFTER UPDATE OF name_key ON users FOR EACH ROW WHEN (NEW.username = 'alice') EXECUTE FUNCTION signup_meanwhile()`
	}
	s, err := Open(path, WithPasswordCost(bcrypt.MinCost))
	if err != nil {
		t.Fatal(err)
	}
	mustUser(t, s, "alice")
	mustUser(t, s, "bob")
	for _, q := range []string{"DROP TABLE schema_steps", "UPDATE users SET name_key = NULL", signup} {
		if err := s.w.Exec(q).Error; err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	if s, err = Open(path, WithPasswordCost(bcrypt.MinCost)); err != nil {
		t.Fatalf("the start with a key taken during the fill: %v", err)
	}
	defer s.Close()
	wantNameKeys(t, s, map[string]string{"alice": "alice", "bob": "", "b0b": "bob"})
}

// wantNameKeys checks the accounts' name keys ("": none).
func wantNameKeys(t *testing.T, s *Store, want map[string]string) {
	t.Helper()
	for name, key := range want {
		u, err := s.UserNamed(name)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if u.NameKey != nil {
			got = *u.NameKey
		}
		if got != key {
			t.Errorf("%s's name key: %q; want %q", name, got, key)
		}
	}
}

// TestNameHeldAfterDeletion: a deleted account's name (in any capitals,
// or one like it) is nobody's for 30 days, while it still appears in old
// records; then it is free.
func TestNameHeldAfterDeletion(t *testing.T) {
	clock := modeltest.NewClock(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), 0)
	s := MustOpen(t, WithClock(clock.Now))
	ana, lily := mustUser(t, s, "ana"), mustUser(t, s, "lily")
	mustUser(t, s, "bob")
	for _, u := range []*User{ana, lily} {
		if _, err := s.DeleteAccount(u.ID, "password-"+u.Username); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"ana", "ANA", "lily", "LiIy"} {
		if err := s.CheckSignup(name, "password-x1"); !errors.Is(err, ErrUsernameHeld) {
			t.Errorf("sign-up as %q the day ana left: %v, want held", name, err)
		}
	}
	clock.Advance(NameHoldTime - time.Minute)
	if _, err := s.CreateUser("Ana", "password-x1"); !errors.Is(err, ErrUsernameHeld) {
		t.Fatalf("sign-up as Ana a minute before the hold ends: %v", err)
	}
	clock.Advance(2 * time.Minute)
	if _, err := s.CreateUser("ana", "password-x1"); err != nil {
		t.Fatalf("sign-up as ana once the hold ended: %v", err)
	}
}
