package models

import (
	"crypto/rand"

	"gorm.io/gorm/clause"
)

// Secret returns the site's secret called name, made at random on first use
// and kept in the database so that it survives restarts.
func (s *Store) Secret(name string) ([]byte, error) {
	key, err := newKey()
	if err != nil {
		return nil, err
	}
	if err := s.w.Clauses(clause.OnConflict{DoNothing: true}).Create(&Setting{Key: name, Value: key}).Error; err != nil {
		return nil, err
	}
	var st Setting
	if err := s.db.Take(&st, "key = ?", name).Error; err != nil {
		return nil, err
	}
	return st.Value, nil
}

// newKey is 32 random bytes.
func newKey() ([]byte, error) {
	key := make([]byte, 32)
	_, err := rand.Read(key)
	return key, err
}
