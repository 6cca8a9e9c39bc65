package models

import (
	"errors"
	"sync/atomic"
	"testing"
)

// Every password hash and check the store makes runs through the runner
// given by WithHashing (cacao serve's runs them on threads below the
// pages').
func TestHashesRunThroughTheRunner(t *testing.T) {
	var runs atomic.Int32
	s := MustOpen(t, WithHashing(func(f func()) { runs.Add(1); f() }))
	steps := []struct {
		name string
		do   func() error
	}{
		{"a sign-up", func() error { _, err := s.CreateUser("ana", "password-ana"); return err }},
		{"a log-in", func() error { _, err := s.Authenticate("ana", "password-ana"); return err }},
		{"a wrong password", func() error {
			if _, err := s.Authenticate("ana", "password-bob"); !errors.Is(err, ErrBadLogin) {
				return err
			}
			return nil
		}},
		{"an unknown name", func() error {
			if _, err := s.Authenticate("nobody", "password-bob"); !errors.Is(err, ErrBadLogin) {
				return err
			}
			return nil
		}},
		{"a new password", func() error { _, err := s.ChangePassword(1, "password-ana", "password-new"); return err }},
		{"a reset", func() error { return s.ResetPassword(1, 1, "password-reset") }},
		{"a deletion", func() error { _, err := s.DeleteAccount(1, "password-reset"); return err }},
	}
	for _, st := range steps {
		before := runs.Load()
		if err := st.do(); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if runs.Load() == before {
			t.Errorf("%s hashed outside the runner", st.name)
		}
	}
}
