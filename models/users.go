package models

import (
	"errors"
	"strings"
	"time"
	_ "time/tzdata" // the time zones, for a host that has no zoneinfo

	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"
)

// ErrBadLogin refuses a log-in, worded for the person logging in.
var ErrBadLogin = invalid("wrong username or password")

// ValidatePassword says what is wrong with a password, or returns nil.
func ValidatePassword(pw string) error {
	if len(pw) < 8 || len(pw) > 72 {
		return invalid("a password has 8 to 72 characters")
	}
	return nil
}

// hashPassword checks a new password (ValidatePassword) and hashes it
// with bcrypt at the store's cost.
func (s *Store) hashPassword(pw string) ([]byte, error) {
	if err := ValidatePassword(pw); err != nil {
		return nil, err
	}
	return bcrypt.GenerateFromPassword([]byte(pw), s.opts.passwordCost)
}

// CreateUser signs a user up with a bcrypt-hashed password. A sign-up
// refused for its name or password is refused before the hash
// (CheckSignup): a stranger cannot make the site hash by trying names.
func (s *Store) CreateUser(username, password string) (*User, error) {
	username = strings.TrimSpace(username)
	if err := s.CheckSignup(username, password); err != nil {
		return nil, err
	}
	hash, err := s.hashPassword(password)
	if err != nil {
		return nil, err
	}
	key := nameKey(username)
	u := &User{Username: username, NameKey: &key, PasswordHash: hash}
	u.newNews()
	// The name again, in the transaction: on SQLite no other sign-up enters
	// it meanwhile; on PostgreSQL the unique indexes on the lower-case name
	// and on the name key refuse the second.
	err = s.transaction(func(tx *gorm.DB) error {
		if err := s.nameFree(tx, username); err != nil {
			return err
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
		_ = bcrypt.CompareHashAndPassword(s.dummyHash(), []byte(password))
		return nil, ErrBadLogin
	}
	if err != nil {
		return nil, err
	}
	if u.Guest || bcrypt.CompareHashAndPassword(u.PasswordHash, []byte(password)) != nil {
		return nil, ErrBadLogin // a guest has no password
	}
	if u.BannedAt != nil {
		return nil, &BannedError{Reason: u.BanReason}
	}
	return &u, nil
}

// UserNamed returns the user called name (in any capitals), or ErrNotFound.
func (s *Store) UserNamed(name string) (*User, error) {
	var u User
	if err := userNamed(s.db, name, &u); err != nil {
		return nil, notFound(err)
	}
	return &u, nil
}

// userNamed reads the user called name, in any capitals (the exact name
// first: a database from before names ignored capitals may hold both).
func userNamed(db *gorm.DB, name string, u *User) error {
	db = db.Session(&gorm.Session{}) // two queries from it, neither adding to the other
	err := db.Where("username = ?", name).Take(u).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		err = db.Where("lower(username) = lower(?)", name).Order("id").Take(u).Error
	}
	return err
}

// dummyHash is a hash at the store's cost, compared with when no user has
// the name given (made on first use: bcrypt takes tens of milliseconds,
// which every run of the binary would pay).
func (s *Store) dummyHash() []byte {
	s.dummyOnce.Do(func() {
		s.dummy, _ = bcrypt.GenerateFromPassword([]byte("not a password at all"), s.opts.passwordCost)
	})
	return s.dummy
}

// UserByID returns a user.
func (s *Store) UserByID(id uint) (*User, error) {
	var u User
	if err := s.db.Take(&u, id).Error; err != nil {
		return nil, notFound(err)
	}
	return &u, nil
}

// SetLang sets the language a user chose for the site (a code the caller
// has checked; "" follows the browser).
func (s *Store) SetLang(userID uint, code string) error {
	return s.w.Model(&User{}).Where("id = ?", userID).Update("lang", code).Error
}

// ErrBadTimeZone refuses a time zone the site does not know.
var ErrBadTimeZone = invalid("that time zone is unknown: choose one from the list, like Europe/Paris")

// Zone is the time zone called name, an IANA name ("" and unknown names
// are UTC).
func Zone(name string) *time.Location {
	if name == "" {
		return time.UTC
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return time.UTC
	}
	return loc
}

// Zone is the user's time zone.
func (u *User) Zone() *time.Location { return Zone(u.TimeZone) }

// SetTimeZone keeps the user's time zone: an IANA name ("" for UTC), else
// ErrBadTimeZone and nothing changes.
func (s *Store) SetTimeZone(userID uint, name string) error {
	if name != "" {
		if _, err := time.LoadLocation(name); err != nil || strings.HasPrefix(name, "/") || name == "Local" {
			return ErrBadTimeZone
		}
	}
	return s.w.Model(&User{}).Where("id = ?", userID).Update("time_zone", name).Error
}

// SetDigestHour keeps the hour of the day (0–23, in the user's time zone)
// their daily digest is sent at.
func (s *Store) SetDigestHour(userID uint, hour int) error {
	if err := CheckDigestHour(hour); err != nil {
		return err
	}
	return s.w.Model(&User{}).Where("id = ?", userID).Update("digest_hour", hour).Error
}

// Refusals of a digest's hour and of quiet hours out of range.
var (
	ErrDigestHour = invalid("the digest's hour is 0 to 23")
	ErrQuietHours = invalid("quiet hours run from an hour 0 to 23 to another")
)

// CheckDigestHour refuses a digest's hour out of 0–23 (ErrDigestHour).
func CheckDigestHour(hour int) error {
	if hour < 0 || hour > 23 {
		return ErrDigestHour
	}
	return nil
}

// CheckQuietHours refuses quiet hours from or to an hour out of 0–23
// (ErrQuietHours).
func CheckQuietHours(from, to int) error {
	if from < 0 || from > 23 || to < 0 || to > 23 {
		return ErrQuietHours
	}
	return nil
}

// QuietUntil tells whether now falls in the user's quiet hours and, if
// so, when they end.
func (u *User) QuietUntil(now time.Time) (time.Time, bool) {
	if u.QuietFrom == u.QuietTo {
		return time.Time{}, false
	}
	local := now.In(u.Zone())
	h := local.Hour()
	in := u.QuietFrom < u.QuietTo && h >= u.QuietFrom && h < u.QuietTo ||
		u.QuietFrom > u.QuietTo && (h >= u.QuietFrom || h < u.QuietTo)
	if !in {
		return time.Time{}, false
	}
	end := time.Date(local.Year(), local.Month(), local.Day(), u.QuietTo, 0, 0, 0, local.Location())
	if !end.After(local) {
		end = time.Date(local.Year(), local.Month(), local.Day()+1, u.QuietTo, 0, 0, 0, local.Location())
	}
	return end, true
}

// SetQuietHours keeps the user's quiet hours (see User.QuietFrom); equal
// hours mean none. The news their old quiet hours held is due at once: the
// outbox holds it again if the new ones say so.
func (s *Store) SetQuietHours(userID uint, from, to int) error {
	if err := CheckQuietHours(from, to); err != nil {
		return err
	}
	return s.transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&User{}).Where("id = ?", userID).Updates(map[string]any{"quiet_from": from, "quiet_to": to}).Error; err != nil {
			return err
		}
		return tx.Model(&Mail{}).Where("user_id = ? AND status = ? AND last_error = ?", userID, MailPending, HeldQuiet).
			Update("next_attempt", s.now()).Error
	})
}

// SetBoardSize keeps how the user likes the board drawn ("fit", "large",
// or "" for normal).
func (s *Store) SetBoardSize(userID uint, size string) error {
	return s.w.Model(&User{}).Where("id = ?", userID).Update("board_size", size).Error
}
