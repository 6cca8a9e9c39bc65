package models

import (
	"gorm.io/gorm"
)

// DefaultStandIn is the bot that plays for a person who ran out of time,
// resigned or is away, unless the game's creator chose another.
const DefaultStandIn = "medium"

// BotOf is the bot that plays seat: its own, the game's stand-in for an
// abandoned seat, or "" when a person plays it.
func (l *Loaded) BotOf(seat int) string {
	st := l.Seats[seat]
	if st.Abandoned && st.Bot == "" {
		return l.Game.standIn()
	}
	return st.Bot
}

// Solo reports whether seat plays against bots alone: every other seat
// was seated as a bot (not a person's seat the bot took over, nor one of
// an account since deleted). Hints are for such games only.
func (l *Loaded) Solo(seat int) bool {
	for i, st := range l.Seats {
		if i != seat && (st.Bot == "" || st.Player() != nil || st.Name == DeletedName) {
			return false
		}
	}
	return seat >= 0 && seat < len(l.Seats)
}

// standIn is g's stand-in bot.
func (g *Game) standIn() string {
	if g.StandIn == "" {
		return DefaultStandIn
	}
	return g.StandIn
}

// Resign gives user's seat in the running game id to the stand-in bot for
// the rest of the game: the log says so, the seat keeps the player's name
// (and remembers them in ResignedID) but is the bot's from now on, and
// everyone else at the table is told. The player can no longer act in the
// game. It answers ErrForbidden when user has no seat there, ErrNotActive
// when the game is not running; then nothing changes.
func (s *Store) Resign(id, user uint) (*Loaded, error) {
	return s.commit(id, -1, Actor{UserID: user}, func(l *Loaded, seat int, add func(LogEntry) error) error {
		return add(LogEntry{Kind: LogResign, Seat: seat, Turn: l.Play.State().Turns(), Data: "{}"})
	}, func(tx *gorm.DB, p *people, l *Loaded, seat int) error {
		st := &l.Seats[seat]
		err := tx.Model(&Seat{}).Where("id = ?", st.ID).Updates(map[string]any{"user_id": nil, "bot": l.Game.standIn(), "resigned_id": user, "abandoned": false}).Error
		if err != nil {
			return err
		}
		st.UserID, st.User, st.Bot, st.ResignedID, st.Abandoned = nil, nil, l.Game.standIn(), &user, false
		return others(l, seat, func(u uint) error {
			return s.notify(tx, p, u, id, KindResigned, "%s resigned in game %d: the stand-in bot plays their seat to the end.", st.Name, id)
		})
	})
}

// MinRatedTurns is how many turns of their own a player makes before a
// resignation of theirs (or the stand-in bot finishing their abandoned
// seat) leaves their seat in the game's rating.
const MinRatedTurns = 3
