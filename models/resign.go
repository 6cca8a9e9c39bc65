package models

import (
	"gorm.io/gorm"
)

// ResignBot is the bot that plays a resigned seat to the end.
const ResignBot = "greedy"

// Resign gives user's seat in the running game id to the greedy bot for
// the rest of the game: the log says so, the seat keeps the player's name
// (and remembers them in ResignedID) but is the bot's from now on, and
// everyone else at the table is told. The player can no longer act in the
// game. It answers ErrForbidden when user has no seat there, ErrNotActive
// when the game is not running; then nothing changes.
func (s *Store) Resign(id, user uint) (*Loaded, error) {
	return s.commit(id, -1, Actor{UserID: user}, func(l *Loaded, seat int, add func(LogEntry) error) error {
		return add(LogEntry{Kind: KindResign, Seat: seat, Turn: l.Play.State().Turns(), Data: "{}"})
	}, func(tx *gorm.DB, p *people, l *Loaded, seat int) error {
		st := &l.Seats[seat]
		err := tx.Model(&Seat{}).Where("id = ?", st.ID).Updates(map[string]any{"user_id": nil, "bot": ResignBot, "resigned_id": user, "abandoned": false}).Error
		if err != nil {
			return err
		}
		st.UserID, st.User, st.Bot, st.ResignedID, st.Abandoned = nil, nil, ResignBot, &user, false
		return others(l, seat, func(u uint) error {
			return s.notify(tx, p, u, id, "resigned", "%s resigned in game %d: the greedy bot plays their seat to the end.", st.Name, id)
		})
	})
}
