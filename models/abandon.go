package models

import (
	"cmp"
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// A seat whose time runs out AbandonAfter times in a row is abandoned: the
// stand-in bot plays it from then on, until its player takes it back. In a
// game without a turn limit, a player others have waited on for IdleHandOver
// may have their seat handed to the bot by any other player.
const (
	AbandonAfter = 2
	IdleHandOver = 7 * day
)

// Refusals of abandoned seats.
var (
	ErrAbandoned    = invalid("the stand-in bot plays your seat: take it back first")
	ErrNotAbandoned = invalid("your seat is yours: there is nothing to take back")
	ErrNotIdle      = invalid("that player has not kept the table waiting for 7 days: their seat stays theirs")
)

// abandonData is the Data of a LogAbandon entry: By is the seat that
// handed the seat over, -1 when its time ran out AbandonAfter times, or
// ByRoundEnd when its tournament round's time was over.
type abandonData struct {
	By int `json:"by"`
}

// countTimeout, in a timeout's commit, counts one more timeout in a row for
// seat and abandons it (the entry says so) when that makes AbandonAfter.
func countTimeout(l *Loaded, seat int, add func(LogEntry) error) (func(tx *gorm.DB, p *people, l *Loaded, seat int) error, error) {
	n := l.Seats[seat].Timeouts + 1
	abandon := n >= AbandonAfter && !l.Seats[seat].Abandoned && l.Seats[seat].UserID != nil
	if abandon {
		if err := add(LogEntry{Kind: LogAbandon, Seat: seat, Turn: l.Play.State().Turns(), Data: `{"by":-1}`}); err != nil {
			return nil, err
		}
	}
	return func(tx *gorm.DB, p *people, l *Loaded, seat int) error {
		st := &l.Seats[seat]
		st.Timeouts, st.Abandoned = n, st.Abandoned || abandon
		return tx.Model(&Seat{}).Where("id = ?", st.ID).Updates(map[string]any{"timeouts": st.Timeouts, "abandoned": st.Abandoned}).Error
	}, nil
}

// resetTimeouts, in the commit of a seat's own play, ends its run of
// timeouts (nil when it has none).
func resetTimeouts(l *Loaded, seat int) func(tx *gorm.DB, p *people, l *Loaded, seat int) error {
	if l.Seats[seat].Timeouts == 0 {
		return nil
	}
	return func(tx *gorm.DB, p *people, l *Loaded, seat int) error {
		l.Seats[seat].Timeouts = 0
		return tx.Model(&Seat{}).Where("id = ?", l.Seats[seat].ID).Update("timeouts", 0).Error
	}
}

// TakeBack gives user their abandoned seat of the running game id back:
// the log says so, the others are told, and from their next turn or choice
// they play it themselves (with a fresh clock). ErrNotAbandoned when the
// bot does not play their seat, ErrRoundOver in a tournament's game whose
// round's time is over; nothing changes on a refusal.
func (s *Store) TakeBack(id, user uint) (*Loaded, error) {
	if over, err := s.roundOver(id); err != nil || over {
		return nil, cmp.Or(err, ErrRoundOver)
	}
	return s.commit(id, -1, Actor{UserID: user}, func(l *Loaded, seat int, add func(LogEntry) error) error {
		if !l.Seats[seat].Abandoned {
			return ErrNotAbandoned
		}
		return add(LogEntry{Kind: LogBack, Seat: seat, Turn: l.Play.State().Turns(), Data: "{}"})
	}, func(tx *gorm.DB, p *people, l *Loaded, seat int) error {
		st := &l.Seats[seat]
		st.Abandoned, st.Timeouts = false, 0
		if err := tx.Model(&Seat{}).Where("id = ?", st.ID).Updates(map[string]any{"abandoned": false, "timeouts": 0}).Error; err != nil {
			return err
		}
		return others(l, seat, func(u uint) error {
			return s.notify(tx, p, u, id, KindBack, "%s took their seat back in game %d.", st.Name, id)
		})
	})
}

// HandOver hands seat (an engine seat) of the running game id to the greedy
// bot, for user, another player at the table: allowed in a game without a
// turn limit once the seat's player has kept the table waiting for
// IdleHandOver (a vacation's days not counted). The seat stays its
// player's, who may take it back (TakeBack). ErrNotIdle, ErrForbidden (no
// seat of user's, or the seat is not a person's) or ErrNotActive otherwise,
// and nothing changes.
func (s *Store) HandOver(id, user uint, seat int) (*Loaded, error) {
	return s.commit(id, -1, Actor{UserID: user}, func(l *Loaded, mine int, add func(LogEntry) error) error {
		if err := s.CanHandOver(l, mine, seat); err != nil {
			return err
		}
		data, _ := json.Marshal(abandonData{By: mine})
		return add(LogEntry{Kind: LogAbandon, Seat: seat, Turn: l.Play.State().Turns(), Data: string(data)})
	}, func(tx *gorm.DB, p *people, l *Loaded, mine int) error {
		st := &l.Seats[seat]
		now := s.now() // the bot is waited on from now
		st.Abandoned, st.Timeouts, st.WaitingSince = true, 0, &now
		if err := tx.Model(&Seat{}).Where("id = ?", st.ID).Updates(map[string]any{"abandoned": true, "timeouts": 0, "waiting_since": now}).Error; err != nil {
			return err
		}
		by := l.Seats[mine].Name
		if err := s.notify(tx, p, *st.UserID, id, KindAbandoned, "%s handed your seat in game %d to the stand-in bot: you had not moved for 7 days. Open the game to take it back.", by, id); err != nil {
			return err
		}
		return others(l, seat, func(u uint) error {
			if u == user {
				return nil
			}
			return s.notify(tx, p, u, id, KindAbandoned, "%s handed %s's seat in game %d to the stand-in bot: they had not moved for 7 days.", by, st.Name, id)
		})
	})
}

// CanHandOver refuses, with the reason, a hand-over of seat by seat mine
// in l (see HandOver); nil when it may be done now.
func (s *Store) CanHandOver(l *Loaded, mine, seat int) error {
	if seat < 0 || seat >= len(l.Seats) || l.Seats[seat].UserID == nil {
		return ErrForbidden
	}
	vacations, err := s.Vacations([]uint{*l.Seats[seat].UserID})
	if err != nil {
		return err
	}
	return HandOverAllowed(l, mine, seat, s.now(), vacations)
}

// HandOverAllowed is CanHandOver at now, given when the last vacation of
// each player who took one ends (Vacations).
func HandOverAllowed(l *Loaded, mine, seat int, now time.Time, vacations map[uint]time.Time) error {
	if seat < 0 || seat >= len(l.Seats) || seat == mine || l.Seats[seat].UserID == nil || l.Seats[seat].Abandoned {
		return ErrForbidden
	}
	since := l.Seats[seat].WaitingSince
	if l.Game.TurnHours > 0 || since == nil || now.Sub(*since) < IdleHandOver {
		return ErrNotIdle
	}
	from := *since
	if v := vacations[*l.Seats[seat].UserID]; v.After(from) {
		from = v
	}
	if now.Sub(from) < IdleHandOver {
		return ErrNotIdle
	}
	return nil
}

// others calls tell with each user at l's table but seat's player.
func others(l *Loaded, seat int, tell func(user uint) error) error {
	for i, other := range l.Seats {
		if i != seat && other.UserID != nil {
			if err := tell(*other.UserID); err != nil {
				return err
			}
		}
	}
	return nil
}

// handedBy reads which seat handed a seat over from a LogAbandon entry's
// data: -1 when its time ran out.
func handedBy(data string) (int, error) {
	d := abandonData{By: -1}
	if err := json.Unmarshal([]byte(data), &d); err != nil {
		return 0, fmt.Errorf("abandon entry: %w", err)
	}
	return d.By, nil
}
