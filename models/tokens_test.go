package models_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"cacao/models"
	"cacao/models/modeltest"
)

var tokenRE = regexp.MustCompile(`^cacao_[A-Za-z0-9_-]{43}$`)

// mustToken makes user a token named name with scopes.
func mustToken(t *testing.T, s *models.Store, user *models.User, name string, scopes ...string) string {
	t.Helper()
	text, err := s.CreateToken(user.ID, name, scopes)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// TestTokens: a token's text is "cacao_" and 43 base64url characters,
// stored only as its SHA-256; it finds its account by its text (not by
// the hash stored); the account lists its tokens, newest first, with
// their scopes in order; a token revoked, or another's, finds nobody.
func TestTokens(t *testing.T) {
	s := models.MustOpen(t)
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	first := mustToken(t, s, ana, "  my bot  ", models.ScopeChat, models.ScopeRead)
	second := mustToken(t, s, ana, "phone", models.ScopePlay, models.ScopeRead, models.ScopePlay)
	if !tokenRE.MatchString(first) || !tokenRE.MatchString(second) || first == second {
		t.Fatalf("tokens %q and %q", first, second)
	}
	var stored []string
	if err := models.DB(s).Model(&models.Token{}).Pluck("hash", &stored).Error; err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(first))
	if !slices.Contains(stored, hex.EncodeToString(sum[:])) || slices.Contains(stored, first) || slices.Contains(stored, second) {
		t.Fatalf("stored %v: want the tokens' SHA-256 alone", stored)
	}
	for _, h := range stored {
		if _, _, err := s.TokenUser(h); !errors.Is(err, models.ErrNotFound) {
			t.Fatalf("the stored hash as a token: %v", err)
		}
	}
	u, tok, err := s.TokenUser(first)
	if err != nil || u.ID != ana.ID || tok.Name != "my bot" || !slices.Equal(tok.ScopeList(), []string{"read", "chat"}) ||
		!tok.Allows(models.ScopeChat) || tok.Allows(models.ScopePlay) {
		t.Fatalf("the first token: %v, %+v (%v)", u, tok, err)
	}
	list, err := s.Tokens(ana.ID)
	if err != nil || len(list) != 2 || list[0].Name != "phone" || list[0].Scopes != "read,play" || list[1].Name != "my bot" {
		t.Fatalf("ana's tokens: %+v (%v)", list, err)
	}
	if other, _ := s.Tokens(bob.ID); len(other) != 0 {
		t.Fatalf("bob's tokens: %+v", other)
	}
	for _, bad := range []string{"", "cacao_", first[:len(first)-1], first + "A", "cacao_" + strings.Repeat("A", 43), strings.ToUpper(first)} {
		if _, _, err := s.TokenUser(bad); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("TokenUser(%q): %v", bad, err)
		}
	}
	if err := s.RevokeToken(bob.ID, list[1].ID); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("bob revokes ana's token: %v", err)
	}
	if _, _, err := s.TokenUser(first); err != nil {
		t.Fatalf("ana's token after bob tried to revoke it: %v", err)
	}
	if err := s.RevokeToken(ana.ID, list[1].ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.TokenUser(first); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("a revoked token: %v", err)
	}
	if err := s.RevokeToken(ana.ID, list[1].ID); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("revoking it again: %v", err)
	}
	if _, _, err := s.TokenUser(second); err != nil {
		t.Fatalf("the other token after one was revoked: %v", err)
	}
	if err := s.RevokeTokens(ana.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.TokenUser(second); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("a token after RevokeTokens: %v", err)
	}
}

// TestTokenRefusals: a name of 1 to 40 characters once trimmed, and one
// or more known scopes, or an InvalidError and nothing made; a guest
// makes none.
func TestTokenRefusals(t *testing.T) {
	s := models.MustOpen(t)
	ana := models.MustUser(t, s, "ana")
	for _, c := range []struct {
		name   string
		scopes []string
		want   error
	}{
		{"", []string{"read"}, models.ErrTokenName},
		{"   ", []string{"read"}, models.ErrTokenName},
		{strings.Repeat("x", 41), []string{"read"}, models.ErrTokenName},
		{"bot", nil, models.ErrTokenScopes},
		{"bot", []string{}, models.ErrTokenScopes},
		{"bot", []string{"read", "admin"}, models.ErrTokenScopes},
		{"bot", []string{"READ"}, models.ErrTokenScopes},
	} {
		_, err := s.CreateToken(ana.ID, c.name, c.scopes)
		var ie *models.InvalidError
		if !errors.Is(err, c.want) || !errors.As(err, &ie) {
			t.Errorf("CreateToken(%q, %q): %v; want %v", c.name, c.scopes, err, c.want)
		}
	}
	if list, _ := s.Tokens(ana.ID); len(list) != 0 {
		t.Fatalf("refused tokens were made: %+v", list)
	}
	if _, err := s.CreateToken(ana.ID, strings.Repeat("é", 40), []string{"read"}); err != nil {
		t.Fatalf("a name of 40 letters (80 bytes): %v", err)
	}
	gus, err := s.CreateGuest("gus")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateToken(gus.ID, "bot", []string{"read"}); !errors.Is(err, models.ErrForbidden) {
		t.Fatalf("a guest's token: %v", err)
	}
	if _, err := s.CreateToken(9999, "bot", []string{"read"}); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("a token for nobody: %v", err)
	}
}

// TestTokenLimit: an account holds MaxTokens tokens, made one after the
// other or many at once; revoking one makes room for another.
func TestTokenLimit(t *testing.T) {
	s := models.MustOpen(t)
	ana, bob := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob")
	made := atOnce(t, 3*models.MaxTokens, func(i int) error {
		_, err := s.CreateToken(ana.ID, fmt.Sprintf("token %d", i), []string{models.ScopeRead})
		return refused(err, models.ErrTooManyTokens)
	})
	if list, _ := s.Tokens(ana.ID); made != models.MaxTokens || len(list) != models.MaxTokens {
		t.Fatalf("%d tokens asked for at once: %d made, %d held; want %d", 3*models.MaxTokens, made, len(list), models.MaxTokens)
	}
	if _, err := s.CreateToken(ana.ID, "one more", []string{models.ScopeRead}); !errors.Is(err, models.ErrTooManyTokens) {
		t.Fatalf("an 11th token: %v", err)
	}
	mustToken(t, s, bob, "bob's own", models.ScopeRead) // the limit is per account
	list, _ := s.Tokens(ana.ID)
	if err := s.RevokeToken(ana.ID, list[3].ID); err != nil {
		t.Fatal(err)
	}
	mustToken(t, s, ana, "in its place", models.ScopeRead)
}

// TestTokensEnd: signing out everywhere, a new password and deleting the
// account revoke the account's tokens (and no one else's); a ban keeps
// them, for the caller to refuse the banned account.
func TestTokensEnd(t *testing.T) {
	s := models.MustOpen(t)
	ana, bob, cyd := models.MustUser(t, s, "ana"), models.MustUser(t, s, "bob"), models.MustUser(t, s, "cyd")
	anas, bobs, cyds := mustToken(t, s, ana, "a", models.ScopeRead), mustToken(t, s, bob, "b", models.ScopeRead), mustToken(t, s, cyd, "c", models.ScopeRead)
	if err := s.SignOutEverywhere(ana.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.TokenUser(anas); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("a token after signing out everywhere: %v", err)
	}
	if _, err := s.DeleteAccount(bob.ID, "password-bob"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.TokenUser(bobs); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("a deleted account's token: %v", err)
	}
	var left int64
	models.DB(s).Model(&models.Token{}).Where("user_id IN ?", []uint{ana.ID, bob.ID}).Count(&left)
	if left != 0 {
		t.Fatalf("%d tokens of ana and bob are left", left)
	}
	dan := models.MustUser(t, s, "dan")
	dans := mustToken(t, s, dan, "d", models.ScopeRead)
	if _, err := s.ChangePassword(dan.ID, "password-dan", "another-password"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.TokenUser(dans); !errors.Is(err, models.ErrNotFound) {
		t.Fatalf("a token after a new password: %v", err)
	}
	if u, _, err := s.TokenUser(cyds); err != nil || u.ID != cyd.ID {
		t.Fatalf("cyd's token after the others': %v", err)
	}
	if _, err := s.Ban(admin(t, s, "root"), "cyd", "spam"); err != nil {
		t.Fatal(err)
	}
	if u, _, err := s.TokenUser(cyds); err != nil || u.BannedAt == nil {
		t.Fatalf("a banned account's token: %v, %v", u, err)
	}
}

// TestTokenUse: a token's use is written when it is first used, then at
// most once a minute, however often it is used meanwhile.
func TestTokenUse(t *testing.T) {
	clock := modeltest.NewClock(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), 0)
	s := models.MustOpen(t, models.WithClock(clock.Now))
	ana := models.MustUser(t, s, "ana")
	text := mustToken(t, s, ana, "bot", models.ScopeRead)
	usedAt := func() *time.Time {
		t.Helper()
		list, err := s.Tokens(ana.ID)
		if err != nil || len(list) != 1 {
			t.Fatalf("ana's tokens: %+v (%v)", list, err)
		}
		return list[0].UsedAt
	}
	if usedAt() != nil {
		t.Fatal("a token never used has a last use")
	}
	start := clock.Now()
	_, tok, err := s.TokenUser(text)
	if err != nil || tok.UsedAt == nil || !tok.UsedAt.Equal(start) {
		t.Fatalf("the first use: %+v (%v)", tok, err)
	}
	if at := usedAt(); at == nil || !at.Equal(start) {
		t.Fatalf("the first use was noted at %v; want %v", at, start)
	}
	for range 5 {
		clock.Advance(10 * time.Second)
		if _, tok, err = s.TokenUser(text); err != nil {
			t.Fatal(err)
		}
		if at := usedAt(); !at.Equal(start) || !tok.UsedAt.Equal(start) {
			t.Fatalf("a use %v after the first moved the last use to %v", clock.Now().Sub(start), at)
		}
	}
	clock.Advance(10 * time.Second) // a minute after the first
	if _, _, err = s.TokenUser(text); err != nil {
		t.Fatal(err)
	}
	if at := usedAt(); !at.Equal(start.Add(time.Minute)) {
		t.Fatalf("a use a minute after the first: last use %v; want %v", at, start.Add(time.Minute))
	}
}
