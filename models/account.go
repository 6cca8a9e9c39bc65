package models

import (
	"errors"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"
)

// ErrWrongPassword refuses a change asked for with a wrong current
// password.
var ErrWrongPassword = invalid("that is not your current password")

// ChangePassword sets user id's password to next if current is theirs.
// Every session and mail sign-in link of theirs stops working (the token
// version moves on), push to their devices and their access tokens; the
// user as changed is returned, for the caller to keep its own session.
func (s *Store) ChangePassword(id uint, current, next string) (*User, error) {
	u, err := s.UserByID(id)
	if err != nil {
		return nil, err
	}
	if bcrypt.CompareHashAndPassword(u.PasswordHash, []byte(current)) != nil {
		return nil, ErrWrongPassword
	}
	hash, err := s.hashPassword(next)
	if err != nil {
		return nil, err
	}
	err = s.transaction(func(tx *gorm.DB) error {
		err := tx.Model(&User{}).Where("id = ?", id).Updates(map[string]any{
			"password_hash": hash, "token_version": gorm.Expr("token_version + 1")}).Error
		if err != nil {
			return err
		}
		if err := revokeTokens(tx, id); err != nil {
			return err
		}
		return forgetDevices(tx, id)
	})
	if err != nil {
		return nil, err
	}
	return s.UserByID(id)
}

// forgetDevices stops push to user id's devices: a browser signed out (a
// lost phone) no longer gets their news.
func forgetDevices(tx *gorm.DB, id uint) error {
	return tx.Where("user_id = ?", id).Delete(&PushSub{}).Error
}

// SignOutEverywhere ends every session and mail sign-in link of user id
// (the token version moves on), push to their devices, and their access
// tokens (Token).
func (s *Store) SignOutEverywhere(id uint) error {
	return s.transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&User{}).Where("id = ?", id).Update("token_version", gorm.Expr("token_version + 1")).Error; err != nil {
			return err
		}
		if err := revokeTokens(tx, id); err != nil {
			return err
		}
		return forgetDevices(tx, id)
	})
}

// Password resets: how many reset mails one account gets an hour, and how
// long a reset link works.
const (
	MaxResetsPerHour = 3
	ResetLinkLife    = time.Hour
)

// ErrResetUsed refuses a reset link that was used already, or made before
// the password last changed (or the user signed out everywhere).
var ErrResetUsed = invalid("this link was used already, or your password changed since it was sent: ask for a new one")

// RequestReset mails a link to set a new password to the account called
// name (or whose confirmed address is name), if it has a confirmed
// address; at most MaxResetsPerHour an hour. Whether anything was sent is
// not said: the answer is the same for an account that does not exist.
func (s *Store) RequestReset(name string) error {
	name = strings.TrimSpace(name)
	var u User
	err := userNamed(s.db, name, &u)
	if errors.Is(err, gorm.ErrRecordNotFound) && strings.Contains(name, "@") {
		err = s.db.Where("email = ? AND email_verified = ?", name, true).Order("id").Take(&u).Error
	}
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if u.Email == "" || !u.EmailVerified {
		return nil
	}
	now := s.now()
	return s.transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, u.ID); err != nil {
			return err
		}
		var recent int64
		if err := tx.Model(&Mail{}).Where("user_id = ? AND kind = ? AND created_at > ?", u.ID, KindReset, now.Add(-time.Hour)).Count(&recent).Error; err != nil {
			return err
		}
		if recent >= MaxResetsPerHour {
			return nil
		}
		return tx.Create(&Mail{UserID: u.ID, Kind: KindReset, To: u.Email, Text: "Set a new password",
			Status: MailPending, NextAttempt: now, CreatedAt: now}).Error
	})
}

// ResetPassword sets user id's password to next with a reset link made at
// token version version: once, since setting it moves the version on,
// which also signs out every session and mail link of theirs (and stops
// push to their devices and their access tokens).
func (s *Store) ResetPassword(id uint, version int, next string) error {
	hash, err := s.hashPassword(next)
	if err != nil {
		return err
	}
	return s.transaction(func(tx *gorm.DB) error {
		res := tx.Model(&User{}).Where("id = ? AND token_version = ?", id, version).Updates(map[string]any{
			"password_hash": hash, "token_version": gorm.Expr("token_version + 1")})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected != 1 {
			return ErrResetUsed
		}
		if err := revokeTokens(tx, id); err != nil {
			return err
		}
		return forgetDevices(tx, id)
	})
}
