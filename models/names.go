package models

import (
	"errors"
	"regexp"
	"strings"
	"time"

	"github.com/mtibben/confusables"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// NameHoldTime is how long a deleted account's name is nobody's: it still
// appears in old records (others' notices, the admins' log).
const NameHoldTime = 30 * 24 * time.Hour

// Refusals of a name taken, like another player's, or held, worded for
// the person signing up.
var (
	ErrUsernameTaken     = invalid("that username is taken")
	ErrUsernameLookalike = invalid("that username looks too much like another player's: choose another")
	ErrUsernameHeld      = invalid("that username belonged to an account deleted less than 30 days ago: choose another")
)

// A name is letters of the Latin alphabet, digits, dots, dashes and
// underscores: no name mixes scripts.
var usernameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{3,24}$`)

// ValidateUsername says what is wrong with a username, or returns nil.
func ValidateUsername(name string) error {
	if !usernameRE.MatchString(name) {
		return invalid("a username has 3 to 24 letters, digits, dots, dashes or underscores")
	}
	return nil
}

// NameHold keeps a deleted account's name, and the names like it, from
// anyone else until Until.
type NameHold struct {
	Name    string    `gorm:"primaryKey;size:32"` // in small letters
	NameKey string    `gorm:"index;size:100;not null"`
	Until   time.Time `gorm:"index;not null"`
}

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
	return s.nameFree(s.db, username)
}

// nameFree refuses a name taken in any capitals ("Ana" is "ana"), or
// that looks like one taken, or held (NameHold). The hold is looked at
// last: a sign-up racing the deletion of an account sees the account, or
// else its hold, as the deletion commits both at once.
func (s *Store) nameFree(db *gorm.DB, username string) error {
	var n int64
	if err := db.Model(&User{}).Where("lower(username) = lower(?)", username).Count(&n).Error; err != nil {
		return err
	}
	if n > 0 {
		return ErrUsernameTaken
	}
	if err := db.Model(&User{}).Where("name_key = ?", nameKey(username)).Count(&n).Error; err != nil {
		return err
	}
	if n > 0 {
		return ErrUsernameLookalike
	}
	err := db.Model(&NameHold{}).Where("(name = ? OR name_key = ?) AND until > ?", strings.ToLower(username), nameKey(username), s.now()).Count(&n).Error
	if err != nil {
		return err
	}
	if n > 0 {
		return ErrUsernameHeld
	}
	return nil
}

// holdName holds u's name for NameHoldTime, in tx (the one that deletes
// u), and forgets the holds that ended.
func (s *Store) holdName(tx *gorm.DB, u *User) error {
	now := s.now()
	if err := tx.Where("until <= ?", now).Delete(&NameHold{}).Error; err != nil {
		return err
	}
	hold := NameHold{Name: strings.ToLower(u.Username), NameKey: nameKey(u.Username), Until: now.Add(NameHoldTime)}
	return tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(&hold).Error
}

// NameKey is what a name shares with the names that look like it (the
// accounts' name_key, unique): see nameKey. For tools that write accounts
// straight into the database (loadtest -fill).
func NameKey(name string) string { return nameKey(name) }

// nameKey is what a name shares with the names that look like it: its
// Unicode TR39 skeleton (a capital I and a 1 are an l, a 0 an O, an m is
// rn), in small letters. The skeleton is of the name as written ("aIice"
// looks like "alice", "aiice" does not); names that differ only in
// capitals are kept apart by the lower-case name (nameFree).
func nameKey(name string) string {
	return strings.ToLower(confusables.Skeleton(name))
}

// fillNameKeys gives the accounts without a name key (from before name
// keys) theirs, oldest first, each apart: one whose key is taken (its
// name looks like an older account's, or a sign-up on another instance
// took the key meanwhile) keeps none (both stay; a new name may look like
// neither). Once they are filled, the accounts without a key are those
// few, which a start reads alone (through the key's index).
func fillNameKeys(w *gorm.DB) error {
	var users []User
	if err := w.Select("id", "username").Where("name_key IS NULL").Order("id").Find(&users).Error; err != nil {
		return err
	}
	if len(users) == 0 {
		return nil
	}
	return w.Transaction(func(tx *gorm.DB) error {
		for _, u := range users {
			err := tx.Transaction(func(tx *gorm.DB) error { // a savepoint: a taken key undoes this account's alone
				return tx.Model(&User{}).Where("id = ?", u.ID).Update("name_key", nameKey(u.Username)).Error
			})
			if err != nil && !errors.Is(err, gorm.ErrDuplicatedKey) {
				return err
			}
		}
		return nil
	})
}
