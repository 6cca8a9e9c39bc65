package models

import (
	"errors"
	"testing"
)

// TestChangePassword: the current password is asked for; a wrong one or a
// bad new one changes nothing; a change moves the token version on (as
// signing out everywhere does) and only the new password logs in.
func TestChangePassword(t *testing.T) {
	s := MustOpen(t)
	u := mustUser(t, s, "ana")
	if _, err := s.ChangePassword(u.ID, "nope", "a-new-secret"); !errors.Is(err, ErrWrongPassword) {
		t.Fatalf("a wrong current password: %v", err)
	}
	if _, err := s.ChangePassword(u.ID, "password-ana", "short"); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a short new password: %v", err)
	}
	if got, _ := s.UserByID(u.ID); got.TokenVersion != u.TokenVersion {
		t.Fatal("a refused change moved the token version on")
	}
	nu, err := s.ChangePassword(u.ID, "password-ana", "a-new-secret")
	if err != nil || nu.TokenVersion != u.TokenVersion+1 {
		t.Fatalf("the change: %v, version %d", err, nu.TokenVersion)
	}
	if _, err := s.Authenticate("ana", "password-ana"); !errors.Is(err, ErrBadLogin) {
		t.Fatal("the old password still logs in")
	}
	if _, err := s.Authenticate("ana", "a-new-secret"); err != nil {
		t.Fatal("the new password does not log in")
	}
	if err := s.SignOutEverywhere(u.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.UserByID(u.ID); got.TokenVersion != nu.TokenVersion+1 {
		t.Fatal("signing out everywhere did not move the token version on")
	}
}
