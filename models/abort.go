package models

import (
	"slices"

	"gorm.io/gorm"
)

// AbortRounds is how many rounds into a game its players may still end it
// by agreement (AskAbort).
const AbortRounds = 2

// ErrAbortLate refuses an abort once the game is AbortRounds rounds in.
var ErrAbortLate = invalid("a game can be ended by agreement only in its first %d rounds", AbortRounds)

// ErrAbortTournament refuses an abort of a tournament's game: its
// standings need its result.
var ErrAbortTournament = invalid("a tournament's game cannot be ended by agreement: its result counts in the standings")

// CanAbort tells whether game l may still be ended by agreement: it runs,
// in its first AbortRounds rounds, and is no tournament's.
func (l *Loaded) CanAbort() bool {
	return l.Game.Status == StatusActive && l.Game.TournamentID == 0 && l.Play.State().Turns() < AbortRounds*len(l.Seats)
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
// there, unrated (status ended, Aborted), and everyone seated is told;
// until then, the others are asked. An agreement lapses when the game
// moves on; asking again at the same turn changes nothing. It answers
// whether the game ended.
func (s *Store) AskAbort(l *Loaded, user uint) (bool, error) {
	seat := UserSeat(l.Seats, user)
	switch {
	case l.Game.Status != StatusActive:
		return false, ErrNotActive
	case seat < 0 || l.Seats[seat].Abandoned:
		return false, ErrForbidden
	case l.Game.TournamentID != 0:
		return false, ErrAbortTournament
	case !l.CanAbort():
		return false, ErrAbortLate
	}
	turn := l.Play.State().Turns()
	if at := l.Seats[seat].AbortTurn; at != nil && *at == turn {
		return false, nil // asked already: the others were told
	}
	g := l.Game
	after := *l // the game with this agreement (its seats copied: l stays as loaded)
	after.Seats = slices.Clone(l.Seats)
	after.Seats[seat].AbortTurn = &turn
	agreed, agreeing := after.AbortAgreed()
	ended := len(agreed) == len(agreeing)
	err := s.transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&Seat{}).Where("id = ?", l.Seats[seat].ID).Update("abort_turn", turn).Error; err != nil {
			return err
		}
		if ended {
			g.Aborted = true
			if err := s.endGame(tx, &g); err != nil {
				return err
			}
		} else {
			now := s.now()
			res := tx.Model(&Game{}).Where("id = ? AND version = ?", g.ID, g.Version).Updates(map[string]any{"version": g.Version + 1, "updated_at": now})
			if res.Error != nil {
				return res.Error
			}
			if res.RowsAffected != 1 {
				return ErrConflict
			}
			g.Version++
		}
		p, err := peopleIn(tx, after.Seats)
		if err != nil {
			return err
		}
		for i, st := range after.Seats {
			switch {
			case st.UserID == nil:
			case ended:
				err = s.notify(tx, p, *st.UserID, g.ID, KindAborted, "The players of game %d agreed to end it without a result.", g.ID)
			case i != seat && slices.Contains(agreeing, i) && !slices.Contains(agreed, i):
				err = s.notify(tx, p, *st.UserID, g.ID, KindAbortAsk, "%s asks to end game %d without a result: agree on its page before the next move.", l.Seats[seat].Name, g.ID)
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
	s.changed(&g, after.Seats, false)
	return ended, nil
}
