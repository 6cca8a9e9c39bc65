package models

import (
	"errors"

	"gorm.io/gorm"
)

// A bot account (User.BotAccount) is an account a program plays through
// the API. Its seats are marked (Seat.Robot) wherever its name appears;
// it is rated apart from people, from its games against them, as the
// site's bots are (rateBots), and is on no leaderboard of people. Its
// owner may let others seat it at their tables (User.BotOpen), as they
// seat the site's bots: a seat spec "~name" (GameSpec).

// MaxOpenBots is how many bot accounts the new-table form offers.
const MaxOpenBots = 20

var (
	ErrBotRated   = invalid("this account has played rated games: only an account that has not may become a bot account")
	ErrBotPlaying = invalid("finish or leave your games and tournaments first: a bot account starts with none")
	ErrBotGuest   = invalid("a guest cannot become a bot account: make an account first")
	ErrNotBot     = invalid("this is not a bot account")
	ErrTourBot    = invalid("bot accounts do not play tournaments: tournaments are for people")
)

// MarkBot makes account id a bot account, for good, and marks its seats
// in the games it played: refused for a guest, an account that has played
// a rated game, or one with a seat in a game not over or a place in a
// tournament not over. Marking it twice changes nothing.
func (s *Store) MarkBot(id uint) error {
	return s.transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, id); err != nil {
			return err
		}
		var u User
		if err := tx.Select("id", "guest", "bot_account", "rated_games", "multi_rated_games").Take(&u, id).Error; err != nil {
			return notFound(err)
		}
		switch {
		case u.BotAccount:
			return nil
		case u.Guest:
			return ErrBotGuest
		case u.RatedGames+u.MultiRatedGames > 0:
			return ErrBotRated
		}
		var rated, playing, entered int64
		if err := tx.Model(&Seat{}).Where("(user_id = ? OR resigned_id = ?) AND rated_to <> 0", id, id).Limit(1).Count(&rated).Error; err != nil {
			return err
		}
		if rated > 0 {
			return ErrBotRated
		}
		err := tx.Model(&Seat{}).Where("(user_id = ? OR resigned_id = ? OR invited_id = ?) AND game_id IN (?)", id, id, id,
			tx.Model(&Game{}).Select("id").Where("status IN ?", []string{StatusOpen, StatusActive})).Limit(1).Count(&playing).Error
		if err != nil {
			return err
		}
		err = tx.Model(&Entrant{}).Where("user_id = ? AND tournament_id IN (?)", id,
			tx.Model(&Tournament{}).Select("id").Where("state IN ?", []TourState{TourSignup, TourRunning})).Limit(1).Count(&entered).Error
		if err != nil {
			return err
		}
		if playing+entered > 0 {
			return ErrBotPlaying
		}
		if err := tx.Model(&User{}).Where("id = ?", id).Update("bot_account", true).Error; err != nil {
			return err
		}
		// Its unrated games before are marked too: its name is marked everywhere.
		return tx.Model(&Seat{}).Where("user_id = ? OR resigned_id = ?", id, id).Update("robot", true).Error
	})
}

// SetBotOpen lets others seat bot account id at their tables, or stops
// them (the tables it sits at already keep it).
func (s *Store) SetBotOpen(id uint, open bool) error {
	res := s.w.Model(&User{}).Where("id = ? AND bot_account", id).Update("bot_open", open)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected != 1 {
		return ErrNotBot
	}
	return nil
}

// OpenBots are the names of the bot accounts viewer may seat: open, not
// banned, not viewer, not blocking viewer; MaxOpenBots at most, those
// rated in the most games first.
func (s *Store) OpenBots(viewer uint) ([]string, error) {
	var names []string
	err := s.db.Model(&User{}).Where("bot_account AND bot_open AND banned_at IS NULL AND id <> ? AND id NOT IN (?)", viewer,
		s.db.Model(&Block{}).Select("user_id").Where("blocked_id = ?", viewer)).
		Order("rated_games + multi_rated_games DESC, username").Limit(MaxOpenBots).Pluck("username", &names).Error
	return names, err
}

// MaxBotGames is how many games not over others may seat one bot account
// at: a stranger cannot tie it up in more.
const MaxBotGames = 30

// openBot fills, in tx, seat with the bot account called name (openBotID).
func openBot(tx *gorm.DB, creator uint, name string, seat *Seat) error {
	var u User
	err := userNamed(tx.Select("id"), name, &u)
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return invalid("nobody here is called “%s”", name)
	}
	if err != nil {
		return err
	}
	return openBotID(tx, creator, u.ID, seat)
}

// openBotID fills, in tx, seat with bot account id, which its owner lets
// creator seat: an open bot, not banned, that has not blocked creator and
// sits at fewer than MaxBotGames games not over (counted with its row
// locked, so that two tables at once cannot both take the last place).
func openBotID(tx *gorm.DB, creator, id uint, seat *Seat) error {
	if err := lockUser(tx, id); err != nil {
		return err
	}
	var u User
	if err := tx.Select("id", "username", "bot_account", "bot_open", "banned_at").Take(&u, id).Error; err != nil {
		return err
	}
	if !u.BotAccount || !u.BotOpen || u.BannedAt != nil {
		return invalid("%s is not a bot others may seat: invite them instead", u.Username)
	}
	if b, err := blocked(tx, u.ID, creator); err != nil || b {
		if err == nil {
			err = ErrBlocked
		}
		return err
	}
	var games int64
	err := tx.Model(&Seat{}).Where("user_id = ? AND game_id IN (?)", u.ID,
		tx.Model(&Game{}).Select("id").Where("status IN ?", []string{StatusOpen, StatusActive})).Count(&games).Error
	if err != nil {
		return err
	}
	if games >= MaxBotGames {
		return invalid("%s plays %d games already: seat it when one of them is over", u.Username, MaxBotGames)
	}
	seat.UserID, seat.Name, seat.Robot = &u.ID, u.Username, true
	return nil
}

// isBot reads, in tx, whether account id is a bot account now (the
// caller's copy may be older than a MarkBot).
func isBot(tx *gorm.DB, id uint) (bool, error) {
	var marks []bool
	err := tx.Model(&User{}).Where("id = ?", id).Pluck("bot_account", &marks).Error
	return len(marks) == 1 && marks[0], err
}

// RatedBots are the bot accounts rated in format f whose last rated game
// of it ended in the last BoardActive, not banned, the highest rating
// first: MaxOpenBots at most.
func (s *Store) RatedBots(f Format) ([]Leader, error) {
	cols := f.columns()
	var out []Leader
	err := s.db.Model(&User{}).Where("bot_account AND "+cols.games+" > 0 AND "+cols.at+" >= ? AND banned_at IS NULL", s.now().Add(-BoardActive)).
		Select("username AS name, " + cols.rating + " AS rating, " + cols.games + " AS games").
		Order(cols.rating + " DESC, id").Limit(MaxOpenBots).Scan(&out).Error
	return out, err
}
