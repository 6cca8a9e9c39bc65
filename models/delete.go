package models

import (
	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"
)

// DeletedName is the name a deleted account leaves on the seats of its
// finished games.
const DeletedName = "deleted player"

// DeleteAccount deletes user id, who gives their password: in each running
// game the stand-in bot takes their seat (as when resigning); their tables
// not started yet are cancelled, and the seats they took or were invited
// to in others' tables are open again; their finished games keep their
// seats under DeletedName; their notifications, mail, invitations,
// chat messages (and reports), sessions, logins and access tokens go, and
// with the account every link of theirs stops working. Their name is held for
// NameHoldTime (holdName): it still appears in old records.
// It returns the running games whose seat it gave to the bot, for their
// bots to play on.
func (s *Store) DeleteAccount(id uint, password string) ([]uint, error) {
	u, err := s.UserByID(id)
	if err != nil {
		return nil, err
	}
	if bcrypt.CompareHashAndPassword(u.PasswordHash, []byte(password)) != nil {
		return nil, ErrWrongPassword
	}
	running, err := s.leaveAll(u, func(tx *gorm.DB, p *people, g *Game, to uint) error {
		return s.notify(tx, p, to, g.ID, KindCancelled, "%s cancelled game %d before it started.", u.Username, g.ID)
	})
	if err != nil {
		return nil, err
	}
	err = s.transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&Seat{}).Where("user_id = ?", id).Updates(map[string]any{"user_id": nil, "name": DeletedName}).Error; err != nil {
			return err
		}
		if err := tx.Model(&Seat{}).Where("resigned_id = ?", id).Updates(map[string]any{"resigned_id": nil, "name": DeletedName}).Error; err != nil {
			return err
		}
		if err := tx.Model(&LogEntry{}).Where("user_id = ?", id).Update("user_id", nil).Error; err != nil {
			return err
		}
		if err := endSessions(tx, id); err != nil {
			return err
		}
		if err := tx.Where("reporter_id = ? OR message_id IN (?)", id, tx.Model(&ChatMessage{}).Select("id").Where("user_id = ?", id)).Delete(&ChatReport{}).Error; err != nil {
			return err
		}
		if err := tx.Where("EXISTS (SELECT 1 FROM reviews r WHERE r.game_id = reviewed_turns.game_id AND r.seat = reviewed_turns.seat AND r.user_id = ?)", id).Delete(&ReviewedTurn{}).Error; err != nil {
			return err
		}
		// A tournament under way or over keeps its entrant, unnamed, so
		// that its schedule and results stand; one under way plays on
		// without them. One not started forgets them.
		err := tx.Model(&Entrant{}).Where("user_id = ? AND withdrawn_after = 0 AND tournament_id IN (?)", id,
			tx.Model(&Tournament{}).Select("id").Where("state = ?", TourRunning)).Update("withdrawn_after", gorm.Expr("(SELECT round FROM tournaments WHERE tournaments.id = entrants.tournament_id)")).Error
		if err != nil {
			return err
		}
		if err := tx.Where("user_id = ? AND tournament_id IN (?)", id, tx.Model(&Tournament{}).Select("id").Where("state IN ?", []TourState{TourSignup, TourCancelled})).Delete(&Entrant{}).Error; err != nil {
			return err
		}
		for _, t := range []any{&Notification{}, &Mail{}, &ChatMessage{}, &PushSub{}, &Note{}, &Review{}, &Token{}} {
			if err := tx.Where("user_id = ?", id).Delete(t).Error; err != nil {
				return err
			}
		}
		if err := tx.Where("creator_id = ? OR invitee_id = ?", id, id).Delete(&Invitation{}).Error; err != nil {
			return err
		}
		if err := tx.Where("user_id = ? OR followed_id = ?", id, id).Delete(&Follow{}).Error; err != nil {
			return err
		}
		if err := tx.Where("user_id = ? OR blocked_id = ?", id, id).Delete(&Block{}).Error; err != nil {
			return err
		}
		if err := s.holdName(tx, u); err != nil {
			return err
		}
		return tx.Delete(&User{}, id).Error
	})
	return running, err
}

// leaveAll takes u out of every game not finished: in each running game
// the stand-in bot takes their seat (as when resigning); their tables not
// started are cancelled, each of their people told with tell; the seats
// they took or were invited to at others' tables are open again. It
// returns the running games whose seat went to the bot.
func (s *Store) leaveAll(u *User, tell func(tx *gorm.DB, p *people, g *Game, user uint) error) ([]uint, error) {
	var seats []Seat
	if err := s.db.Where("user_id = ? OR invited_id = ?", u.ID, u.ID).Find(&seats).Error; err != nil {
		return nil, err
	}
	var running []uint
	for _, seat := range seats {
		var g Game
		if err := s.db.Select("id", "status", "creator_id").Take(&g, seat.GameID).Error; err != nil {
			return nil, err
		}
		switch {
		case g.Status == StatusActive && seat.UserID != nil:
			if _, err := s.Resign(g.ID, u.ID); err != nil {
				return nil, err
			}
			running = append(running, g.ID)
		case g.Status == StatusOpen && g.CreatorID == u.ID:
			_, err := s.dropOpenTable(g.ID, func(tx *gorm.DB, g *Game) error { return creators(g, u) },
				func(tx *gorm.DB, p *people, g *Game, to uint) error {
					if to == u.ID {
						return nil
					}
					return tell(tx, p, g, to)
				})
			if err != nil && err != ErrNotFound {
				return nil, err
			}
		}
	}
	err := s.transaction(func(tx *gorm.DB) error {
		open := tx.Model(&Seat{}).Where("game_id IN (?)", tx.Model(&Game{}).Select("id").Where("status = ?", StatusOpen))
		if err := open.Session(&gorm.Session{}).Where("user_id = ?", u.ID).Updates(map[string]any{"user_id": nil, "name": ""}).Error; err != nil {
			return err
		}
		return tx.Model(&Seat{}).Where("invited_id = ?", u.ID).Update("invited_id", nil).Error
	})
	return running, err
}
