package mail

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// Errors from Verify. Their text is written for the person who clicked
// the link.
var (
	ErrBadToken = errors.New("mail: this link is not valid")
	ErrExpired  = errors.New("mail: this link has expired")
)

// maxToken bounds the work Verify does on hostile input; real tokens are a
// few hundred bytes.
const maxToken = 4096

var b64 = base64.RawURLEncoding.Strict()

// Claims is what a signed link carries. The link only proves that cacao
// wrote these values; it is not secret (anyone holding it can read them).
type Claims struct {
	Purpose string    // what the link may be used for, e.g. "unsubscribe"; checked by Verify
	User    uint      // 0 when not relevant
	Game    uint      // 0 when not relevant
	Email   string    // the address the link was sent to
	Exp     time.Time // kept to the second; zero means the link never expires
	Version int       // the user's token version, for a link that signs them in or unsubscribes them
}

// payload is Claims as signed, with short keys to keep links short.
type payload struct {
	P string `json:"p"`
	U uint   `json:"u,omitempty"`
	G uint   `json:"g,omitempty"`
	E string `json:"e,omitempty"`
	X int64  `json:"x,omitempty"` // unix seconds; 0 means never
	V int    `json:"v,omitempty"`
}

// Signer makes and checks signed links. It is safe for concurrent use.
type Signer struct{ key []byte }

// NewSigner returns a Signer using key (copied), which should be random,
// secret and used for nothing but links. It panics if key is shorter than
// 16 bytes: a short key is a configuration error, not a runtime condition.
func NewSigner(key []byte) *Signer {
	if len(key) < 16 {
		panic("mail: signing key shorter than 16 bytes")
	}
	return &Signer{key: bytes.Clone(key)}
}

// Sign returns a URL-safe token for c: base64url (no padding) of the
// payload, ".", base64url of an HMAC-SHA256 over the encoded payload. The
// purpose is inside the signed payload, so a token for one purpose never
// passes Verify for another. Exp is kept to the second.
func (s *Signer) Sign(c Claims) string {
	pl := payload{P: c.Purpose, U: c.User, G: c.Game, E: c.Email, V: c.Version}
	if !c.Exp.IsZero() {
		pl.X = c.Exp.Unix()
		if pl.X == 0 { // the epoch itself: one second earlier, still long expired
			pl.X = -1
		}
	}
	raw, _ := json.Marshal(pl) // strings and integers cannot fail to marshal
	p := b64.EncodeToString(raw)
	return p + "." + b64.EncodeToString(s.mac(p))
}

// Verify returns the claims of a token Sign made with the same key for
// purpose. Anything else — a changed byte, another key, another purpose,
// malformed or oversized input of any kind — is ErrBadToken; a genuine
// token whose Exp is before now is ErrExpired. On error the claims are
// zero. Verify never panics.
func (s *Signer) Verify(token, purpose string, now time.Time) (Claims, error) {
	if len(token) > maxToken {
		return Claims{}, ErrBadToken
	}
	p, sig, ok := strings.Cut(token, ".")
	if !ok || p == "" {
		return Claims{}, ErrBadToken
	}
	mac, err := b64.DecodeString(sig)
	if err != nil || !hmac.Equal(mac, s.mac(p)) {
		return Claims{}, ErrBadToken
	}
	raw, err := b64.DecodeString(p)
	if err != nil {
		return Claims{}, ErrBadToken
	}
	var pl payload
	if err := json.Unmarshal(raw, &pl); err != nil {
		return Claims{}, ErrBadToken
	}
	if pl.P != purpose {
		return Claims{}, ErrBadToken
	}
	c := Claims{Purpose: pl.P, User: pl.U, Game: pl.G, Email: pl.E, Version: pl.V}
	if pl.X != 0 {
		c.Exp = time.Unix(pl.X, 0).UTC()
		if now.After(c.Exp) {
			return Claims{}, ErrExpired
		}
	}
	return c, nil
}

func (s *Signer) mac(payload string) []byte {
	h := hmac.New(sha256.New, s.key)
	h.Write([]byte(payload))
	return h.Sum(nil)
}
