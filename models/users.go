package models

import (
	"database/sql"
	"errors"
	"regexp"
	"strings"
	"sync"

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"
)

// Account errors, worded for the person signing up or logging in.
var (
	ErrUsernameTaken = invalid("that username is taken")
	ErrBadLogin      = invalid("wrong username or password")
)

var usernameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{3,24}$`)

// bcryptCost is the bcrypt work factor (tests may lower it).
var bcryptCost = bcrypt.DefaultCost

// ValidateUsername says what is wrong with a username, or returns nil.
func ValidateUsername(name string) error {
	if !usernameRE.MatchString(name) {
		return invalid("a username has 3 to 24 letters, digits, dots, dashes or underscores")
	}
	return nil
}

// ValidatePassword says what is wrong with a password, or returns nil.
func ValidatePassword(pw string) error {
	if len(pw) < 8 || len(pw) > 72 {
		return invalid("a password has 8 to 72 characters")
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
	// A name is taken in any capitals ("Ana" is "ana"): checked in the
	// writer's transaction, which no other sign-up can enter meanwhile.
	err = s.w.Transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&User{}).Where("username = ? COLLATE NOCASE", username).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return ErrUsernameTaken
		}
		return tx.Create(u).Error
	})
	if errors.Is(err, gorm.ErrDuplicatedKey) || errors.Is(err, ErrUsernameTaken) {
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
	err := userNamed(s.db, strings.TrimSpace(username), &u)
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

// userNamed reads the user called name, in any capitals (the exact name
// first: a database from before names ignored capitals may hold both).
func userNamed(db *gorm.DB, name string, u *User) error {
	db = db.Session(&gorm.Session{}) // two queries from it, neither adding to the other
	err := db.Where("username = ?", name).Take(u).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		err = db.Where("username = ? COLLATE NOCASE", name).Order("id").Take(u).Error
	}
	return err
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
	if err := readUser(s.db, id, &u); err != nil {
		return nil, err
	}
	s.users.put(u, gen)
	return &u, nil
}

// readUser reads a user with plain SQL: a notice to a user changes their
// row (the unread count), so the next page of theirs reads it again, and
// GORM's reflection cost more than the query. TestReadUserMatchesGORM keeps
// it in step with the struct.
func readUser(db *gorm.DB, id uint, u *User) error {
	var email sql.NullString
	var created, digest, vacation sql.NullTime
	err := rawRow(db, `SELECT id, username, password_hash, created_at, lang, email, email_verified, email_mode,
		last_digest_at, vacation_until, vacation_year, vacation_days, auto_decide, unread FROM users WHERE id = ?`, id).
		Scan(&u.ID, &u.Username, &u.PasswordHash, &created, &u.Lang, &email, &u.EmailVerified, &u.EmailMode,
			&digest, &vacation, &u.VacationYear, &u.VacationDays, &u.AutoDecide, &u.Unread)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	u.CreatedAt, u.Email = created.Time, email.String
	u.LastDigestAt, u.VacationUntil = timePtr(digest), timePtr(vacation)
	return nil
}

// settingsIn returns what a commit needs of a user: their vacation (for
// their clock) and mail settings (for a notice); the other fields are left
// empty. It takes the user from the cache, or else reads those columns in
// tx (whose connection may be the only one: an in-memory database has
// one). The cache often misses here: the notice just written changed the
// user's unread count.
func (s *Store) settingsIn(tx *gorm.DB, id uint) (*User, error) {
	if u, ok, _ := s.users.get(id); ok {
		return &User{ID: id, VacationUntil: u.VacationUntil, EmailMode: u.EmailMode, EmailVerified: u.EmailVerified}, nil
	}
	u := User{ID: id}
	var until sql.NullTime
	err := rawRow(tx, `SELECT vacation_until, email_mode, email_verified FROM users WHERE id = ?`, id).Scan(&until, &u.EmailMode, &u.EmailVerified)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, gorm.ErrRecordNotFound
	}
	if err != nil {
		return nil, err
	}
	u.VacationUntil = timePtr(until)
	return &u, nil
}

// SetLang sets the language a user chose for the site (a code the caller
// has checked; "" follows the browser).
func (s *Store) SetLang(userID uint, code string) error {
	if err := s.w.Model(&User{}).Where("id = ?", userID).Update("lang", code).Error; err != nil {
		return err
	}
	s.users.drop(userID)
	return nil
}

// SetAutoDecide sets user's standing policy "always decide for me"
// (RULES.md section 7): a batch of theirs that needs a decision is resolved
// at once with the best-value choice, the most gold, then the most fruit.
// Turned on, it resolves at once, in each of the user's active games, what
// waits for them already (a game whose commit raced with this is caught by
// its next commit, or by DriveBots after it).
func (s *Store) SetAutoDecide(userID uint, on bool) error {
	if err := s.w.Model(&User{}).Where("id = ?", userID).Update("auto_decide", on).Error; err != nil {
		return err
	}
	s.users.drop(userID)
	if !on {
		return nil
	}
	var games []uint
	err := s.db.Model(&Seat{}).Joins("JOIN games ON games.id = seats.game_id AND games.status = ?", StatusActive).
		Where("seats.user_id = ? AND seats.waiting_since IS NOT NULL", userID).Order("seats.game_id").Pluck("seats.game_id", &games).Error
	if err != nil {
		return err
	}
	for _, id := range games {
		if err := s.decideNow(id, userID); err != nil {
			return err
		}
	}
	return nil
}
