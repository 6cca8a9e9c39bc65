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

// TestRequestReset: a reset mail goes only to a confirmed address, found
// by name or address, at most MaxResetsPerHour an hour; ResetPassword
// works once for a token version.
func TestRequestReset(t *testing.T) {
	s := MustOpen(t)
	u := mustUser(t, s, "ana")
	resets := func() int {
		var n int64
		s.db.Model(&Mail{}).Where("user_id = ? AND kind = ?", u.ID, KindReset).Count(&n)
		return int(n)
	}
	if err := s.RequestReset("ana"); err != nil || resets() != 0 {
		t.Fatalf("a reset without an address: %v, %d mails", err, resets())
	}
	if _, err := s.SetEmail(u.ID, "ana@example.test", MailOff); err != nil {
		t.Fatal(err)
	}
	if err := s.RequestReset("ana@example.test"); err != nil || resets() != 0 {
		t.Fatal("a reset to an unconfirmed address was queued")
	}
	if err := s.VerifyEmail(u.ID, "ana@example.test"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < MaxResetsPerHour+2; i++ {
		name := "ana"
		if i%2 == 1 {
			name = "ana@example.test"
		}
		if err := s.RequestReset(name); err != nil {
			t.Fatal(err)
		}
	}
	if got := resets(); got != MaxResetsPerHour {
		t.Fatalf("%d reset mails in an hour, want %d", got, MaxResetsPerHour)
	}
	if err := s.RequestReset("nobody"); err != nil {
		t.Fatal(err)
	}
	v := u.TokenVersion
	if err := s.ResetPassword(u.ID, v, "a-new-secret"); err != nil {
		t.Fatal(err)
	}
	if err := s.ResetPassword(u.ID, v, "another-secret"); !errors.Is(err, ErrResetUsed) {
		t.Fatalf("the same link twice: %v", err)
	}
}
