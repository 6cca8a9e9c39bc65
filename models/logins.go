package models

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"gorm.io/gorm"
)

// Login is one signed-in session of a user, as the settings list it: the
// device it was opened on and when it was last used. The session itself
// (scs) is Session; Version is the user's token version it was made at
// (a session of an older version no longer signs anyone in).
type Login struct {
	Token     string    `gorm:"primaryKey;size:64"`
	UserID    uint      `gorm:"index;not null"`
	Version   int       `gorm:"not null"`
	Device    string    `gorm:"not null"`
	CreatedAt time.Time `gorm:"not null"`
	LastSeen  time.Time `gorm:"index;not null"`
}

// LoginLife is how long an unused session lasts (the session manager's
// lifetime): a login unseen for longer is gone.
const LoginLife = 30 * 24 * time.Hour

// RecordLogin notes that session token signed user in (at their token
// version) on device.
func (s *Store) RecordLogin(token string, u *User, device string) error {
	now := s.now()
	return s.w.Save(&Login{Token: token, UserID: u.ID, Version: u.TokenVersion, Device: device, CreatedAt: now, LastSeen: now}).Error
}

// SeenLogin notes that session token was used now (the caller writes it
// once in a few minutes, not at every request).
func (s *Store) SeenLogin(token string) error {
	return s.w.Model(&Login{}).Where("token = ?", token).Update("last_seen", s.now()).Error
}

// ForgetLogin drops session token's login (its user logged out).
func (s *Store) ForgetLogin(token string) error {
	return s.w.Where("token = ?", token).Delete(&Login{}).Error
}

// Logins lists user's sessions that still sign them in, the latest used
// first; older ones are dropped.
func (s *Store) Logins(u *User) ([]Login, error) {
	now := s.now()
	err := s.w.Where("user_id = ? AND (version <> ? OR last_seen < ?)", u.ID, u.TokenVersion, now.Add(-LoginLife)).Delete(&Login{}).Error
	if err != nil {
		return nil, err
	}
	var ls []Login
	err = s.db.Where("user_id = ?", u.ID).Order("last_seen DESC").Limit(maxLogins).Find(&ls).Error
	return ls, err
}

// maxLogins is how many sessions Logins lists.
const maxLogins = 50

// LoginID names session token's login in a page, without the token (a
// secret that signs its holder in).
func LoginID(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:12])
}

// EndLogin signs out the session of user's login named id (LoginID):
// ErrNotFound when no session of theirs has that name.
func (s *Store) EndLogin(user uint, id string) error {
	var tokens []string
	// The sessions Logins lists, in its order.
	if err := s.db.Model(&Login{}).Where("user_id = ?", user).Order("last_seen DESC").Limit(maxLogins).Pluck("token", &tokens).Error; err != nil {
		return err
	}
	for _, tok := range tokens {
		if LoginID(tok) != id {
			continue
		}
		return s.transaction(func(tx *gorm.DB) error {
			if err := tx.Where("token = ?", tok).Delete(&Session{}).Error; err != nil {
				return err
			}
			return tx.Where("token = ?", tok).Delete(&Login{}).Error
		})
	}
	return ErrNotFound
}

// endSessions erases every session of user's that signed in since logins
// were listed (their Login rows), and those rows.
func endSessions(tx *gorm.DB, user uint) error {
	tokens := tx.Model(&Login{}).Select("token").Where("user_id = ?", user)
	if err := tx.Where("token IN (?)", tokens).Delete(&Session{}).Error; err != nil {
		return err
	}
	return tx.Where("user_id = ?", user).Delete(&Login{}).Error
}
