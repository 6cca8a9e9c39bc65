package models

import (
	"errors"
	"sync"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// SessionStore keeps scs sessions in the site's database (it implements
// scs.Store), with the sessions in use also in memory: every request looks
// its session up, and only the database survives a restart.
type SessionStore struct {
	db, w *gorm.DB
	mu    sync.Mutex
	mem   map[string]Session
}

// maxMemSessions bounds the sessions kept in memory.
const maxMemSessions = 50_000

// Sessions returns the session store on the same database.
func (s *Store) Sessions() *SessionStore {
	s.sessOnce.Do(func() { s.sess = &SessionStore{db: s.db, w: s.w, mem: map[string]Session{}} })
	return s.sess
}

func (ss *SessionStore) remember(row Session) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if len(ss.mem) >= maxMemSessions {
		clear(ss.mem)
	}
	ss.mem[row.Token] = row
}

func (ss *SessionStore) forget(token string) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	delete(ss.mem, token)
}

// Find returns the data of an unexpired session.
func (ss *SessionStore) Find(token string) ([]byte, bool, error) {
	ss.mu.Lock()
	row, ok := ss.mem[token]
	ss.mu.Unlock()
	if ok {
		if row.Expiry.After(time.Now()) {
			return row.Data, true, nil
		}
		ss.forget(token)
		return nil, false, nil
	}
	err := ss.db.Where("token = ? AND expiry > ?", token, time.Now()).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	ss.remember(row)
	return row.Data, true, nil
}

// Commit stores a session.
func (ss *SessionStore) Commit(token string, b []byte, expiry time.Time) error {
	ss.forget(token)
	row := Session{Token: token, Data: b, Expiry: expiry}
	err := ss.w.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "token"}},
		DoUpdates: clause.AssignmentColumns([]string{"data", "expiry"}),
	}).Create(&row).Error
	if err == nil {
		ss.remember(row)
	}
	return err
}

// Delete removes a session.
func (ss *SessionStore) Delete(token string) error {
	ss.forget(token)
	return ss.w.Where("token = ?", token).Delete(&Session{}).Error
}

// DeleteExpired removes expired sessions.
func (ss *SessionStore) DeleteExpired() error {
	return ss.w.Where("expiry <= ?", time.Now()).Delete(&Session{}).Error
}
