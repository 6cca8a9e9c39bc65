package models

import (
	"time"

	"gorm.io/gorm"
)

// What one player receives a day. Invitations still waiting for an answer
// are bounded apart for strangers and for the players they know (finished
// a game with, or invited themselves), so that new accounts cannot take the
// day's room of their friends; declined, withdrawn or cancelled ones no
// longer count, so a player who declines strangers can be invited again.
// From any one player, every invitation of the day counts, answered or
// not: no sender invites one player more than MaxInvitesFromOne times a
// day, however often they are declined. (What one player sends is bounded
// by MaxInvitesPerDay.)
const (
	MaxInvitesFromStrangers = 20
	MaxInvitesFromKnown     = 20
	MaxInvitesFromOne       = 5
)

// Refusals of an invitation.
var (
	ErrInvitedEnough = invalid("that player was invited to many games today: invite them tomorrow")
	ErrBlocked       = invalid("that player takes no invitations from you")
	ErrBlockSelf     = invalid("you cannot block yourself")
)

// checkInvitee refuses creator's invitation of invitee when invitee
// blocked them, or was invited enough today.
func (s *Store) checkInvitee(tx *gorm.DB, creator, invitee uint) error {
	if err := s.lockCounting(tx, invitationsLock); err != nil {
		return err
	}
	if b, err := blocked(tx, invitee, creator); err != nil || b {
		if err == nil {
			err = ErrBlocked
		}
		return err
	}
	day := s.now().Add(-24 * time.Hour)
	var mine int64
	err := tx.Model(&Invitation{}).Where("invitee_id = ? AND creator_id = ? AND created_at > ?", invitee, creator, day).Count(&mine).Error
	if err != nil {
		return err
	}
	if mine >= MaxInvitesFromOne {
		return ErrInvitedEnough
	}
	// The creators of invitee's invitations of the day still waiting: a
	// seat kept for them in an open table (a declined or withdrawn seat is
	// no longer kept, a cancelled table is gone).
	var waiting []uint
	err = tx.Model(&Game{}).Where("status = ? AND created_at > ? AND id IN (?)", StatusOpen, day,
		tx.Model(&Seat{}).Select("game_id").Where("invited_id = ? AND user_id IS NULL", invitee)).Pluck("creator_id", &waiting).Error
	if err != nil {
		return err
	}
	known, err := acquaintances(tx, invitee, append(waiting, creator))
	if err != nil {
		return err
	}
	same := 0 // waiting invitations of creator's kind: from strangers, or from players invitee knows
	for _, c := range waiting {
		if known[c] == known[creator] {
			same++
		}
	}
	if known[creator] && same >= MaxInvitesFromKnown || !known[creator] && same >= MaxInvitesFromStrangers {
		return ErrInvitedEnough
	}
	return nil
}

// blocked reports, in tx, whether user blocked whom.
func blocked(tx *gorm.DB, user, whom uint) (bool, error) {
	var n int64
	err := tx.Model(&Block{}).Where("user_id = ? AND blocked_id = ?", user, whom).Count(&n).Error
	return n > 0, err
}

// acquaintances reports which of others user knows: they finished a game
// together, or user keeps a seat for them (or invited them today).
func acquaintances(tx *gorm.DB, user uint, others []uint) (map[uint]bool, error) {
	var played, invited, kept []uint
	mine := tx.Model(&Seat{}).Select("game_id").Where("user_id = ? OR resigned_id = ?", user, user)
	finished := tx.Model(&Game{}).Select("id").Where("status = ? AND id IN (?)", StatusFinished, mine)
	err := tx.Model(&Seat{}).Where("game_id IN (?) AND (user_id IN ? OR resigned_id IN ?)", finished, others, others).
		Pluck("COALESCE(resigned_id, user_id)", &played).Error
	if err != nil {
		return nil, err
	}
	if err := tx.Model(&Invitation{}).Where("creator_id = ? AND invitee_id IN ?", user, others).Pluck("invitee_id", &invited).Error; err != nil {
		return nil, err
	}
	err = tx.Model(&Seat{}).Where("invited_id IN ? AND game_id IN (?)", others, tx.Model(&Game{}).Select("id").Where("creator_id = ?", user)).
		Pluck("invited_id", &kept).Error
	if err != nil {
		return nil, err
	}
	known := map[uint]bool{}
	for _, ids := range [][]uint{played, invited, kept} {
		for _, id := range ids {
			known[id] = true
		}
	}
	return known, nil
}

// DeclineAll declines every invitation user has (as Decline does, each
// creator told) and returns how many.
func (s *Store) DeclineAll(user *User) (int, error) {
	return s.declineFrom(user, 0)
}

// declineFrom declines user's invitations from creator (0: from anyone).
func (s *Store) declineFrom(user *User, creator uint) (int, error) {
	q := s.db.Model(&Game{}).Where("status = ? AND id IN (?)", StatusOpen,
		s.db.Model(&Seat{}).Select("game_id").Where("invited_id = ? AND user_id IS NULL", user.ID))
	if creator != 0 {
		q = q.Where("creator_id = ?", creator)
	}
	var ids []uint
	if err := q.Pluck("id", &ids).Error; err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		switch err := s.Decline(id, user); err {
		case nil:
			n++
		case ErrNotOpen, ErrNotInvited, ErrNotFound: // started, withdrawn or cancelled meanwhile
		default:
			return n, err
		}
	}
	return n, nil
}

// Block has user take no invitation from the player called name any more;
// their pending invitations to user are declined, and neither follows the
// other.
func (s *Store) Block(user *User, name string) error {
	other, err := s.UserNamed(name)
	if err != nil {
		return err
	}
	if other.ID == user.ID {
		return ErrBlockSelf
	}
	err = s.transaction(func(tx *gorm.DB) error {
		if err := tx.Where(Block{UserID: user.ID, BlockedID: other.ID}).FirstOrCreate(&Block{UserID: user.ID, BlockedID: other.ID, CreatedAt: s.now()}).Error; err != nil {
			return err
		}
		// Neither follows the other any more.
		return tx.Where("user_id = ? AND followed_id = ? OR user_id = ? AND followed_id = ?", user.ID, other.ID, other.ID, user.ID).Delete(&Follow{}).Error
	})
	if err != nil {
		return err
	}
	_, err = s.declineFrom(user, other.ID)
	return err
}

// Unblock lets the player called name invite user again.
func (s *Store) Unblock(user *User, name string) error {
	other, err := s.UserNamed(name)
	if err != nil {
		return err
	}
	return s.w.Where("user_id = ? AND blocked_id = ?", user.ID, other.ID).Delete(&Block{}).Error
}

// Blocked lists the names of the players user blocked, by name.
func (s *Store) Blocked(user uint) ([]string, error) {
	var names []string
	err := s.db.Model(&User{}).Where("id IN (?)", s.db.Model(&Block{}).Select("blocked_id").Where("user_id = ?", user)).
		Order("username").Pluck("username", &names).Error
	return names, err
}

// BlockSender declines user's invitation to the open game id and blocks
// the player who sent it; it returns their name. ErrNotInvited when the
// game keeps no seat for user.
func (s *Store) BlockSender(user *User, id uint) (string, error) {
	var g Game
	if err := takeGame(s.db, id, "", &g); err != nil {
		return "", err
	}
	kept := false
	for _, seat := range g.Seats {
		kept = kept || seat.Open() && seat.InvitedID != nil && *seat.InvitedID == user.ID
	}
	if !kept || g.Status != StatusOpen {
		return "", ErrNotInvited
	}
	creator, err := s.UserByID(g.CreatorID)
	if err != nil {
		return "", err
	}
	return creator.Username, s.Block(user, creator.Username)
}
