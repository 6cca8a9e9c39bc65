package models

import (
	"errors"
	"testing"

	"golang.org/x/crypto/bcrypt"
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
