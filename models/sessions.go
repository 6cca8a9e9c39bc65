package models

import (
	"errors"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// SessionStore keeps scs sessions in the site's database (it implements
// scs.Store).
type SessionStore struct {
	db, w *gorm.DB
}

// Sessions returns the session store on the same database.
func (s *Store) Sessions() *SessionStore { return &SessionStore{db: s.db, w: s.w} }

// Find returns the data of an unexpired session.
func (ss *SessionStore) Find(token string) ([]byte, bool, error) {
	var row Session
	err := ss.db.Where("token = ? AND expiry > ?", token, time.Now()).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return row.Data, true, nil
}

// Commit stores a session.
func (ss *SessionStore) Commit(token string, b []byte, expiry time.Time) error {
	return ss.w.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "token"}},
		DoUpdates: clause.AssignmentColumns([]string{"data", "expiry"}),
	}).Create(&Session{Token: token, Data: b, Expiry: expiry}).Error
}

// Delete removes a session.
func (ss *SessionStore) Delete(token string) error {
	return ss.w.Where("token = ?", token).Delete(&Session{}).Error
}

// DeleteExpired removes expired sessions.
func (ss *SessionStore) DeleteExpired() error {
	return ss.w.Where("expiry <= ?", time.Now()).Delete(&Session{}).Error
}
