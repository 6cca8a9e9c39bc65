package models

import (
	"strings"

	"gorm.io/gorm"
)

// CheckSignup refuses, before any password hash, a sign-up CreateUser
// would refuse for its name or its password; nil when it can be made now
// (CreateUser checks the name again as it makes the account).
func (s *Store) CheckSignup(username, password string) error {
	username = strings.TrimSpace(username)
	if err := ValidateUsername(username); err != nil {
		return err
	}
	if err := ValidatePassword(password); err != nil {
		return err
	}
	return nameFree(s.db, username)
}

// nameFree refuses a name taken in any capitals ("Ana" is "ana").
func nameFree(db *gorm.DB, username string) error {
	var n int64
	if err := db.Model(&User{}).Where("lower(username) = lower(?)", username).Count(&n).Error; err != nil {
		return err
	}
	if n > 0 {
		return ErrUsernameTaken
	}
	return nil
}
