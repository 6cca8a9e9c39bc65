package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"cacao/models"
)

// TestAdminCommand: `cacao admin grant NAME` and `revoke NAME` give and
// take the role on the site's database; a bad use or an unknown name is
// refused.
func TestAdminCommand(t *testing.T) {
	site := filepath.Join(t.TempDir(), "site.db")
	s, err := models.Open(site)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	u, err := s.CreateUser("alice", "password-alice")
	if err != nil {
		t.Fatal(err)
	}
	admin := func(args ...string) (int, string) {
		var out, errOut bytes.Buffer
		code := run(append([]string{"admin", "-db", site}, args...), nil, &out, &errOut)
		return code, out.String() + errOut.String()
	}
	isAdmin := func() bool {
		got, err := s.UserByID(u.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got.Admin
	}
	if code, out := admin("grant", "Alice"); code != 0 || !strings.Contains(out, "alice is an admin") || !isAdmin() {
		t.Fatalf("grant: %d %s", code, out)
	}
	if code, out := admin("revoke", "alice"); code != 0 || !strings.Contains(out, "no longer an admin") || isAdmin() {
		t.Fatalf("revoke: %d %s", code, out)
	}
	if code, out := admin("grant", "nobody"); code != 1 || !strings.Contains(out, "nobody") {
		t.Fatalf("granting an unknown name: %d %s", code, out)
	}
	if code, out := admin("promote", "alice"); code != 2 || !strings.Contains(out, "usage") {
		t.Fatalf("a bad use: %d %s", code, out)
	}
}
