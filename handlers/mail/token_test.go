package mail_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"cacao/handlers/mail"
)

var (
	key   = []byte("0123456789abcdef0123456789abcdef")
	now   = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	claim = mail.Claims{Purpose: "unsubscribe", User: 7, Game: 5, Email: "ana@example.org", Exp: now.Add(24 * time.Hour)}
)

func TestSignVerifyRoundTrip(t *testing.T) {
	s := mail.NewSigner(key)
	for _, c := range []mail.Claims{claim, {Purpose: "login", Email: "b@example.org"}} {
		tok := s.Sign(c)
		if strings.ContainsAny(tok, "+/=?&# ") {
			t.Errorf("token %q is not URL-safe", tok)
		}
		got, err := s.Verify(tok, c.Purpose, now)
		if err != nil {
			t.Fatalf("Verify(Sign(%+v)): %v", c, err)
		}
		if got.Purpose != c.Purpose || got.User != c.User || got.Game != c.Game || got.Email != c.Email || !got.Exp.Equal(c.Exp) {
			t.Errorf("round trip %+v, want %+v", got, c)
		}
	}
	// A link that never expires still works in a hundred years.
	tok := s.Sign(mail.Claims{Purpose: "login"})
	if _, err := s.Verify(tok, "login", now.AddDate(100, 0, 0)); err != nil {
		t.Errorf("non-expiring token: %v", err)
	}
}

func TestVerifyRefuses(t *testing.T) {
	s := mail.NewSigner(key)
	tok := s.Sign(claim)
	p, mac, _ := strings.Cut(tok, ".")
	flip := func(s string, i int) string {
		b := []byte(s)
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
		return string(b)
	}
	other := mail.NewSigner([]byte("another key, also long enough"))
	forged := other.Sign(claim)
	admin := claim
	admin.User = 1
	adminPayload, _, _ := strings.Cut(s.Sign(admin), ".")
	for name, tc := range map[string]struct {
		tok, purpose string
		at           time.Time
		want         error
	}{
		"tampered payload":  {flip(p, 3) + "." + mac, "unsubscribe", now, mail.ErrBadToken},
		"tampered mac":      {p + "." + flip(mac, 5), "unsubscribe", now, mail.ErrBadToken},
		"other key":         {forged, "unsubscribe", now, mail.ErrBadToken},
		"other payload":     {adminPayload + "." + mac, "unsubscribe", now, mail.ErrBadToken},
		"wrong purpose":     {tok, "login", now, mail.ErrBadToken},
		"expired":           {tok, "unsubscribe", claim.Exp.Add(time.Second), mail.ErrExpired},
		"empty":             {"", "unsubscribe", now, mail.ErrBadToken},
		"dot":               {".", "unsubscribe", now, mail.ErrBadToken},
		"three parts":       {"a.b.c", "unsubscribe", now, mail.ErrBadToken},
		"extra part":        {tok + ".x", "unsubscribe", now, mail.ErrBadToken},
		"not base64":        {"!!!.***", "unsubscribe", now, mail.ErrBadToken},
		"no mac":            {p, "unsubscribe", now, mail.ErrBadToken},
		"padded":            {tok + "=", "unsubscribe", now, mail.ErrBadToken},
		"huge":              {strings.Repeat("A", 1<<20) + "." + mac, "unsubscribe", now, mail.ErrBadToken},
		"purpose is signed": {tok, "", now, mail.ErrBadToken},
	} {
		got, err := s.Verify(tc.tok, tc.purpose, tc.at)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: err %v, want %v", name, err, tc.want)
		}
		if got != (mail.Claims{}) {
			t.Errorf("%s: claims %+v returned with an error", name, got)
		}
	}
	// Valid up to and including the expiry second.
	if _, err := s.Verify(tok, "unsubscribe", claim.Exp); err != nil {
		t.Errorf("at Exp: %v", err)
	}
}

func TestNewSignerRefusesShortKey(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("NewSigner accepted a 15-byte key")
		}
	}()
	mail.NewSigner(make([]byte, 15))
}

func FuzzVerify(f *testing.F) {
	s := mail.NewSigner(key)
	tok := s.Sign(claim)
	for _, seed := range []string{"", ".", "a.b.c", "%%%.%%%", tok, tok[:len(tok)-1], "e30." + strings.Split(tok, ".")[1]} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		c, err := s.Verify(in, "unsubscribe", now)
		switch {
		case err == nil:
			if in != tok || c.Email != claim.Email {
				t.Errorf("forged token %q verified as %+v", in, c)
			}
		case !errors.Is(err, mail.ErrBadToken) && !errors.Is(err, mail.ErrExpired):
			t.Errorf("Verify(%q): unexpected error %v", in, err)
		}
	})
}
