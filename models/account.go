package models

import (
	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"
)

// ErrWrongPassword refuses a change asked for with a wrong current
// password.
var ErrWrongPassword = invalid("that is not your current password")

// ChangePassword sets user id's password to next if current is theirs.
// Every session and mail sign-in link of theirs stops working (the token
// version moves on); the user as changed is returned, for the caller to
// keep its own session.
func (s *Store) ChangePassword(id uint, current, next string) (*User, error) {
	u, err := s.UserByID(id)
	if err != nil {
		return nil, err
	}
	if bcrypt.CompareHashAndPassword(u.PasswordHash, []byte(current)) != nil {
		return nil, ErrWrongPassword
	}
	if err := ValidatePassword(next); err != nil {
		return nil, err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(next), s.opts.passwordCost)
	if err != nil {
		return nil, err
	}
	err = s.w.Model(&User{}).Where("id = ?", id).Updates(map[string]any{
		"password_hash": hash, "token_version": gorm.Expr("token_version + 1")}).Error
	if err != nil {
		return nil, err
	}
	return s.UserByID(id)
}

// SignOutEverywhere ends every session and mail sign-in link of user id
// (the token version moves on).
func (s *Store) SignOutEverywhere(id uint) error {
	return s.w.Model(&User{}).Where("id = ?", id).Update("token_version", gorm.Expr("token_version + 1")).Error
}
