package models

import (
	"strings"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Note is a player's private note on a game: seen by its author alone,
// kept after the game ends (and erased with the account).
type Note struct {
	UserID    uint   `gorm:"primaryKey;autoIncrement:false"`
	GameID    uint   `gorm:"primaryKey;autoIncrement:false"`
	Text      string `gorm:"not null"`
	UpdatedAt time.Time
}

// MaxNote is the longest note, in characters.
const MaxNote = 2000

// ErrNoteTooLong refuses a note over MaxNote characters.
var ErrNoteTooLong = invalid("a note is at most %d characters", MaxNote)

// ErrNotAPlayer refuses a note on a game the user has no seat in (nor
// resigned one).
var ErrNotAPlayer = invalid("only the players of a game keep notes on it")

// Note is user's note on game ("" for none).
func (s *Store) Note(user, game uint) (string, error) {
	var n Note
	err := s.db.Where("user_id = ? AND game_id = ?", user, game).Limit(1).Find(&n).Error
	return n.Text, err
}

// SaveNote keeps text, trimmed, as user's note on game, a game they have
// a seat in or resigned; an empty text erases the note.
func (s *Store) SaveNote(user, game uint, text string) error {
	text = strings.TrimSpace(text)
	if utf8.RuneCountInString(text) > MaxNote {
		return ErrNoteTooLong
	}
	return s.transaction(func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&Seat{}).Where("game_id = ? AND (user_id = ? OR resigned_id = ?)", game, user, user).Count(&n).Error; err != nil {
			return err
		}
		if n == 0 {
			return ErrNotAPlayer
		}
		if text == "" {
			return tx.Where("user_id = ? AND game_id = ?", user, game).Delete(&Note{}).Error
		}
		return tx.Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "user_id"}, {Name: "game_id"}},
			DoUpdates: clause.AssignmentColumns([]string{"text", "updated_at"}),
		}).Create(&Note{UserID: user, GameID: game, Text: text, UpdatedAt: s.now()}).Error
	})
}

// Notes is every note of user's, by game.
func (s *Store) Notes(user uint) (map[uint]string, error) {
	var ns []Note
	if err := s.db.Where("user_id = ?", user).Find(&ns).Error; err != nil {
		return nil, err
	}
	out := make(map[uint]string, len(ns))
	for _, n := range ns {
		out[n.GameID] = n.Text
	}
	return out, nil
}
