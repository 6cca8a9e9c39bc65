package models

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"
)

// Token is a personal access token's row: only the SHA-256 of its text is stored.
type Token struct {
	ID        uint   `gorm:"primaryKey"`
	UserID    uint   `gorm:"index;not null"`
	Name      string `gorm:"not null"`
	Hash      string `gorm:"uniqueIndex;not null"` // hex SHA-256 of the token's text
	Scopes    string `gorm:"not null"`             // "read", "play", "chat", comma-separated, in that order
	CreatedAt time.Time
	UsedAt    *time.Time // the last request made with it, to the minute or so (nil: never used)
}

// The scopes a token may have: read the account and its games, play
// (turns, choices, tables), chat.
const (
	ScopeRead = "read"
	ScopePlay = "play"
	ScopeChat = "chat"
)

// Scopes are the scopes of tokens, in the order a token's are written.
var Scopes = []string{ScopeRead, ScopePlay, ScopeChat}

// A token's bounds: how many one account holds, its name's length, how
// often its use is written; and its text's form.
const (
	MaxTokens       = 10
	MaxTokenName    = 40
	tokenUseEvery   = time.Minute
	tokenPrefix     = "cacao_"
	tokenRandomSize = 32
)

// Refusals of a token asked for.
var (
	ErrTokenName     = invalid("a token's name has 1 to %d characters", MaxTokenName)
	ErrTokenScopes   = invalid("choose what the token may do: read, play or chat, one or more")
	ErrTooManyTokens = invalid("you have %d access tokens: revoke one before you make another", MaxTokens)
)

// Allows reports whether the token has scope.
func (t Token) Allows(scope string) bool { return slices.Contains(t.ScopeList(), scope) }

// ScopeList is the token's scopes, in the order of Scopes.
func (t Token) ScopeList() []string {
	if t.Scopes == "" {
		return nil
	}
	return strings.Split(t.Scopes, ",")
}

// tokenScopes is scopes as a token stores them: each known, at least one,
// in the order of Scopes, none twice; else ErrTokenScopes.
func tokenScopes(scopes []string) (string, error) {
	var out []string
	for _, s := range scopes {
		if !slices.Contains(Scopes, s) {
			return "", ErrTokenScopes
		}
	}
	for _, s := range Scopes {
		if slices.Contains(scopes, s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return "", ErrTokenScopes
	}
	return strings.Join(out, ","), nil
}

// tokenHash is the hex SHA-256 of a token's text, as stored.
func tokenHash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// CreateToken makes a token for an account (not a guest: ErrForbidden), returns its text once: "cacao_" followed by 43 base64url characters of 32 random bytes.
// The name is trimmed and has 1 to MaxTokenName characters (ErrTokenName);
// the scopes are one or more of Scopes (ErrTokenScopes); an account holds
// at most MaxTokens (ErrTooManyTokens), counted with its row locked, so
// that makings at once cannot pass the count together.
func (s *Store) CreateToken(userID uint, name string, scopes []string) (string, error) {
	name = strings.TrimSpace(name)
	if n := utf8.RuneCountInString(name); n == 0 || n > MaxTokenName {
		return "", ErrTokenName
	}
	joined, err := tokenScopes(scopes)
	if err != nil {
		return "", err
	}
	random := make([]byte, tokenRandomSize)
	if _, err := rand.Read(random); err != nil {
		return "", err
	}
	text := tokenPrefix + base64.RawURLEncoding.EncodeToString(random)
	err = s.transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, userID); err != nil {
			return err
		}
		var u User
		if err := tx.Select("id", "guest").Take(&u, userID).Error; err != nil {
			return notFound(err)
		}
		if u.Guest {
			return ErrForbidden
		}
		var n int64
		if err := tx.Model(&Token{}).Where("user_id = ?", userID).Count(&n).Error; err != nil {
			return err
		}
		if n >= MaxTokens {
			return ErrTooManyTokens
		}
		return tx.Create(&Token{UserID: userID, Name: name, Hash: tokenHash(text), Scopes: joined}).Error
	})
	if err != nil {
		return "", err
	}
	return text, nil
}

// TokenUser is the account a token's text stands for, and the token; ErrNotFound for text that is no live token (wrong, revoked, the account deleted). It notes the token's use (UsedAt) at most once a minute, so that a request does not write each time.
// A banned account's token still finds it: the caller refuses a user
// whose BannedAt is set.
func (s *Store) TokenUser(text string) (*User, *Token, error) {
	if !strings.HasPrefix(text, tokenPrefix) || len(text) != len(tokenPrefix)+base64.RawURLEncoding.EncodedLen(tokenRandomSize) {
		return nil, nil, ErrNotFound
	}
	var t Token
	if err := s.db.Where("hash = ?", tokenHash(text)).Take(&t).Error; err != nil {
		return nil, nil, notFound(err)
	}
	u, err := s.UserByID(t.UserID)
	if err != nil {
		return nil, nil, err
	}
	now := s.now()
	if t.UsedAt == nil || !now.Before(t.UsedAt.Add(tokenUseEvery)) {
		res := s.w.Model(&Token{}).Where("id = ? AND (used_at IS NULL OR used_at <= ?)", t.ID, now.Add(-tokenUseEvery)).Update("used_at", now)
		if res.Error != nil {
			return nil, nil, res.Error
		}
		if res.RowsAffected == 1 {
			t.UsedAt = &now
		}
	}
	return u, &t, nil
}

// Tokens are user's tokens, newest first.
func (s *Store) Tokens(userID uint) ([]Token, error) {
	var ts []Token
	err := s.db.Where("user_id = ?", userID).Order("id DESC").Find(&ts).Error
	return ts, err
}

// RevokeToken deletes user's token id: its text no longer finds anyone.
// ErrNotFound when it is not theirs (or is gone already).
func (s *Store) RevokeToken(userID, id uint) error {
	res := s.w.Where("id = ? AND user_id = ?", id, userID).Delete(&Token{})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// RevokeTokens deletes every token of user's.
func (s *Store) RevokeTokens(userID uint) error { return revokeTokens(s.w, userID) }

// revokeTokens deletes every token of user's in tx.
func revokeTokens(tx *gorm.DB, userID uint) error {
	return tx.Where("user_id = ?", userID).Delete(&Token{}).Error
}

// TokenHolder is the account of the live token id; ErrNotFound once the
// token is revoked (or its account deleted). A stream opened with a token
// asks again as it goes on, so that revoking the token ends it.
func (s *Store) TokenHolder(id uint) (*User, error) {
	var t Token
	if err := s.db.Select("user_id").Take(&t, id).Error; err != nil {
		return nil, notFound(err)
	}
	return s.UserByID(t.UserID)
}
