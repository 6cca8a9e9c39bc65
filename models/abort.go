package models

import (
	"slices"

	"gorm.io/gorm"
)

// AbortRounds is how many rounds into a game its players may still end it
// by agreement (AskAbort).
const AbortRounds = 2

// AbortReason is the EndReason of a game its players ended by agreement.
const AbortReason = "the players agreed to end it"

// ErrAbortLate refuses an abort once the game is AbortRounds rounds in.
var ErrAbortLate = invalid("a game can be ended by agreement only in its first %d rounds", AbortRounds)

// CanAbort tells whether game l may still be ended by agreement: it runs,
// in its first AbortRounds rounds.
func (l *Loaded) CanAbort() bool {
	return l.Game.Status == StatusActive && l.Play.State().Turns() < AbortRounds*len(l.Seats)
}

// AbortAgreed lists the seats whose players agree, at l's turn, to end it
// without a result; Agreeing lists the seats whose agreement it takes: the
// people playing their own seats (not the bots, nor those away).
func (l *Loaded) AbortAgreed() (agreed, agreeing []int) {
	turn := l.Play.State().Turns()
	for i, seat := range l.Seats {
		if seat.UserID == nil || seat.Abandoned {
			continue
		}
		agreeing = append(agreeing, i)
		if seat.AbortTurn != nil && *seat.AbortTurn == turn {
			agreed = append(agreed, i)
		}
	}
	return agreed, agreeing
}

// AskAbort records that user, seated in game l (as loaded), agrees to end
// it without a result. Once all its people agree at the same turn it ends
// there, unrated (status ended, AbortReason), and all are told; until
// then, the others are asked. An agreement lapses when the game moves on.
// It answers whether the game ended.
func (s *Store) AskAbort(l *Loaded, user uint) (bool, error) {
	seat := UserSeat(l.Seats, user)
	switch {
	case seat < 0 || l.Seats[seat].Abandoned:
		return false, ErrForbidden
	case !l.CanAbort():
		return false, ErrAbortLate
	}
	turn := l.Play.State().Turns()
	g := l.Game
	after := *l // the game with this agreement (its seats copied: l stays as loaded)
	after.Seats = slices.Clone(l.Seats)
	after.Seats[seat].AbortTurn = &turn
	agreed, agreeing := after.AbortAgreed()
	ended := len(agreed) == len(agreeing)
	err := s.transaction(func(tx *gorm.DB) error {
		now := s.now()
		upd := map[string]any{"version": g.Version + 1, "updated_at": now}
		if ended {
			upd["status"], upd["end_reason"], upd["finished_at"] = StatusEnded, AbortReason, now
		}
		res := tx.Model(&Game{}).Where("id = ? AND version = ?", g.ID, g.Version).Updates(upd)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected != 1 {
			return ErrConflict
		}
		if err := tx.Model(&Seat{}).Where("id = ?", l.Seats[seat].ID).Update("abort_turn", turn).Error; err != nil {
			return err
		}
		if ended {
			err := tx.Model(&Seat{}).Where("game_id = ?", g.ID).Updates(map[string]any{
				"waiting_since": nil, "deadline": nil, "remind_at": nil, "reminded": false}).Error
			if err != nil {
				return err
			}
		}
		p, err := peopleIn(tx, after.Seats)
		if err != nil {
			return err
		}
		for _, i := range agreeing {
			other := *l.Seats[i].UserID
			switch {
			case ended:
				err = s.notify(tx, p, other, g.ID, KindAborted, "The players of game %d agreed to end it without a result.", g.ID)
			case other != user && !slices.Contains(agreed, i):
				err = s.notify(tx, p, other, g.ID, KindAbortAsk, "%s asks to end game %d without a result: agree on its page before the next move.", l.Seats[seat].Name, g.ID)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	g.Version++
	if ended {
		g.Status, g.EndReason = StatusEnded, AbortReason
	}
	s.changed(&g, after.Seats, false)
	return ended, nil
}
