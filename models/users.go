package models

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"
)

// Account errors, worded for the person signing up or logging in.
var (
	ErrUsernameTaken = errors.New("that username is taken")
	ErrBadLogin      = errors.New("wrong username or password")
)

var usernameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{3,24}$`)

// bcryptCost is the bcrypt work factor (tests may lower it).
var bcryptCost = bcrypt.DefaultCost

// ValidateUsername says what is wrong with a username, or returns nil.
func ValidateUsername(name string) error {
	if !usernameRE.MatchString(name) {
		return fmt.Errorf("%w: a username has 3 to 24 letters, digits, dots, dashes or underscores", ErrInvalid)
	}
	return nil
}

// ValidatePassword says what is wrong with a password, or returns nil.
func ValidatePassword(pw string) error {
	if len(pw) < 8 || len(pw) > 72 {
		return fmt.Errorf("%w: a password has 8 to 72 characters", ErrInvalid)
	}
	return nil
}

// CreateUser signs a user up with a bcrypt-hashed password.
func (s *Store) CreateUser(username, password string) (*User, error) {
	username = strings.TrimSpace(username)
	if err := ValidateUsername(username); err != nil {
		return nil, err
	}
	if err := ValidatePassword(password); err != nil {
		return nil, err
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcryptCost)
	if err != nil {
		return nil, err
	}
	u := &User{Username: username, PasswordHash: hash}
	err = s.w.Create(u).Error
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return nil, ErrUsernameTaken
	}
	if err != nil {
		return nil, err
	}
	return u, nil
}

// Authenticate returns the user with that username and password.
func (s *Store) Authenticate(username, password string) (*User, error) {
	var u User
	err := s.db.Where("username = ?", strings.TrimSpace(username)).Take(&u).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		// Spend the same time as a real check so usernames cannot be probed.
		_ = bcrypt.CompareHashAndPassword(dummyHash(), []byte(password))
		return nil, ErrBadLogin
	}
	if err != nil {
		return nil, err
	}
	if bcrypt.CompareHashAndPassword(u.PasswordHash, []byte(password)) != nil {
		return nil, ErrBadLogin
	}
	return &u, nil
}

// dummyHash is made on first use, not at start: bcrypt takes tens of
// milliseconds, which every run of the binary (cacao replay too) would pay.
var dummyHash = sync.OnceValue(func() []byte {
	h, _ := bcrypt.GenerateFromPassword([]byte("not a password at all"), bcryptCost)
	return h
})

// UserByID returns a user.
func (s *Store) UserByID(id uint) (*User, error) {
	u, ok, gen := s.users.get(id)
	if ok {
		return &u, nil
	}
	err := s.db.Take(&u, id).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	s.users.put(u, gen)
	return &u, nil
}

// userIn returns a user from the cache, or else reads it in tx (whose
// connection may be the only one: an in-memory database has one).
func (s *Store) userIn(tx *gorm.DB, id uint) (*User, error) {
	if u, ok, _ := s.users.get(id); ok {
		return &u, nil
	}
	var u User
	if err := tx.Take(&u, id).Error; err != nil {
		return nil, err
	}
	return &u, nil
}
