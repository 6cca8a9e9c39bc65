package models

import (
	"time"

	"gorm.io/gorm"
)

// What one user may open: tables waiting for players at once, and
// invitations by name a day. A table nobody completes is cancelled after
// TableLife.
const (
	MaxOpenTables    = 10
	MaxInvitesPerDay = 30
	TableLife        = 14 * 24 * time.Hour
)

// Refusals of the table rules.
var (
	ErrTooManyTables  = invalid("you have %d tables waiting for players: cancel one before you open another", MaxOpenTables)
	ErrTooManyInvites = invalid("you can invite %d players by name a day: invite the others tomorrow, or share the table's link", MaxInvitesPerDay)
	ErrNotCreator     = invalid("only the player who opened this table can do that")
)

// checkTableLimits refuses a table creator may not open now, with invites
// invitations by name in it.
func (s *Store) checkTableLimits(tx *gorm.DB, creator uint, invites int) error {
	if err := lockUser(tx, creator); err != nil {
		return err
	}
	var open int64
	if err := tx.Model(&Game{}).Where("creator_id = ? AND status = ?", creator, StatusOpen).Count(&open).Error; err != nil {
		return err
	}
	if open >= MaxOpenTables {
		return ErrTooManyTables
	}
	if invites == 0 {
		return nil
	}
	var sent int64
	err := tx.Model(&Invitation{}).Where("creator_id = ? AND created_at > ?", creator, s.now().Add(-24*time.Hour)).Count(&sent).Error
	if err != nil {
		return err
	}
	if int(sent)+invites > MaxInvitesPerDay {
		return ErrTooManyInvites
	}
	return nil
}

// CancelTable ends user's table id before it starts: it is deleted, and
// everyone else seated or invited is told.
func (s *Store) CancelTable(id uint, user *User) error {
	_, err := s.dropOpenTable(id, func(tx *gorm.DB, g *Game) error {
		return creators(g, user)
	}, func(tx *gorm.DB, p *people, g *Game, u uint) error {
		if u == g.CreatorID {
			return nil
		}
		return s.notify(tx, p, u, g.ID, KindCancelled, "%s cancelled game %d before it started.", user.Username, g.ID)
	})
	return err
}

// dropOpenTable deletes table id if check, given the table as read in the
// transaction, allows it, and tells each of its people (seated or invited)
// with tell. It returns the table as it was.
func (s *Store) dropOpenTable(id uint, check func(tx *gorm.DB, g *Game) error, tell func(tx *gorm.DB, p *people, g *Game, user uint) error) (*Game, error) {
	var g Game
	err := s.transaction(func(tx *gorm.DB) error {
		if err := takeGame(tx, id, "", &g); err != nil {
			return err
		}
		if err := check(tx, &g); err != nil {
			return err
		}
		return s.dropTable(tx, &g, func(p *people, u uint) error { return tell(tx, p, &g, u) })
	})
	if err != nil {
		return nil, err
	}
	s.changed(&g, g.Seats, !g.Private)
	return &g, nil
}

// creatorsTable reads table id into g for its creator user: refused for
// anyone else, and once the game has started.
func creatorsTable(tx *gorm.DB, id uint, user *User, g *Game) error {
	if err := takeGame(tx, id, "", g); err != nil {
		return err
	}
	return creators(g, user)
}

// creators refuses table g to anyone but its creator user, and once it
// has started.
func creators(g *Game, user *User) error {
	if g.CreatorID != user.ID {
		return ErrNotCreator
	}
	if g.Status != StatusOpen {
		return ErrNotOpen
	}
	return nil
}

// freeKeptSeat opens the seat of the open table g kept for user (a new
// version of the game); false when no seat is kept for them.
func (s *Store) freeKeptSeat(tx *gorm.DB, g *Game, user uint) (bool, error) {
	for i, seat := range g.Seats {
		if seat.Open() && seat.InvitedID != nil && *seat.InvitedID == user {
			if err := tx.Model(&Seat{}).Where("id = ?", seat.ID).Update("invited_id", nil).Error; err != nil {
				return false, err
			}
			g.Seats[i].InvitedID = nil
			if err := bumpVersion(tx, g, s.now()); err != nil {
				return false, ErrConflict // another change of the table came first
			}
			return true, nil
		}
	}
	return false, nil
}

// dropTable deletes the unstarted table g, as read (its version: a join
// since refuses it, ErrConflict), and tells each of its people (seated or
// invited) with tell.
func (s *Store) dropTable(tx *gorm.DB, g *Game, tell func(p *people, user uint) error) error {
	res := tx.Where("id = ? AND status = ? AND version = ?", g.ID, StatusOpen, g.Version).Delete(&Game{})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected != 1 {
		return ErrConflict
	}
	if err := tx.Where("game_id = ?", g.ID).Delete(&Seat{}).Error; err != nil {
		return err
	}
	if err := tx.Where("game_id = ?", g.ID).Delete(&Note{}).Error; err != nil {
		return err
	}
	if g.RematchOf != 0 { // the game it was the rematch of may have another
		if err := tx.Model(&Game{}).Where("id = ? AND rematch_id = ?", g.RematchOf, g.ID).Update("rematch_id", nil).Error; err != nil {
			return err
		}
	}
	var told []uint
	for _, seat := range g.Seats {
		if seat.UserID != nil {
			told = append(told, *seat.UserID)
		} else if seat.InvitedID != nil {
			told = append(told, *seat.InvitedID)
		}
	}
	p, err := peopleIn(tx, nil, told...)
	if err != nil {
		return err
	}
	for _, u := range told {
		if err := tell(p, u); err != nil {
			return err
		}
	}
	return nil
}

// WithdrawInvitation gives up the seat of user's table id kept for
// invitee: it becomes an open seat, and invitee is told.
func (s *Store) WithdrawInvitation(id uint, user *User, invitee uint) error {
	var g Game
	err := s.transaction(func(tx *gorm.DB) error {
		if err := creatorsTable(tx, id, user, &g); err != nil {
			return err
		}
		if freed, err := s.freeKeptSeat(tx, &g, invitee); err != nil || !freed {
			if err == nil {
				err = invalid("no seat of this table is kept for that player")
			}
			return err
		}
		p, err := peopleIn(tx, nil, invitee, user.ID) // the creator too: their name is marked
		if err != nil {
			return err
		}
		return s.notify(tx, p, invitee, g.ID, KindWithdrawn, "%s withdrew the invitation to game %d.", user.Username, g.ID)
	})
	if err != nil {
		return err
	}
	s.changed(&g, append(g.Seats, Seat{UserID: &invitee}), !g.Private)
	return nil
}

// ExpireTables cancels up to limit tables that have waited for players
// longer than TableLife, oldest first, telling everyone seated or invited;
// it returns how many it cancelled. Invitations older than a day, which no
// longer count, are dropped.
func (s *Store) ExpireTables(limit int) (int, error) {
	if err := s.w.Where("created_at <= ?", s.now().Add(-24*time.Hour)).Delete(&Invitation{}).Error; err != nil {
		return 0, err
	}
	var ids []uint
	err := s.db.Model(&Game{}).Where("status = ? AND created_at <= ?", StatusOpen, s.now().Add(-TableLife)).
		Order("created_at").Limit(limit).Pluck("id", &ids).Error
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		_, err := s.dropOpenTable(id, func(tx *gorm.DB, g *Game) error {
			if g.Status != StatusOpen {
				return ErrNotOpen
			}
			return nil
		}, func(tx *gorm.DB, p *people, g *Game, u uint) error {
			return s.notify(tx, p, u, g.ID, KindExpired, "Game %d was cancelled: its open seats were not taken in 14 days.", g.ID)
		})
		if err == ErrNotOpen || err == ErrNotFound || err == ErrConflict {
			continue // started or cancelled meanwhile
		}
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
