package models

import (
	"fmt"
	"testing"

	"gorm.io/gorm"
)

// What the package's external tests (package models_test, which use
// models/autoplay) need of its insides.

// MustUser signs up name (password "password-"+name).
func MustUser(t testing.TB, s *Store, name string) *User { return mustUser(t, s, name) }

// DB is the store's writing connection, for tests that set up rows by hand.
func DB(s *Store) *gorm.DB { return s.w }

// ReplayLog plays l's log from the game's setup, as a load does.
func ReplayLog(l *Loaded) error {
	if err := l.start(); err != nil {
		return err
	}
	for _, e := range l.Log {
		if err := l.apply(e); err != nil {
			return fmt.Errorf("log entry %d: %w", e.Seq, err)
		}
	}
	return nil
}
