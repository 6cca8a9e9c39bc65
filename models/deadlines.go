package models

import (
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"

	"cacao/engine"
	"cacao/engine/bot"
)

// VacationAllowance is how many days a year a user may pause their clocks.
const VacationAllowance = 14

// day is a calendar day's length for deadlines and vacations.
const day = 24 * time.Hour

// reminderLead is how long before a deadline its player is reminded: 24
// hours, or half the limit when that is shorter.
func reminderLead(limit time.Duration) time.Duration {
	return min(day, limit/2)
}

// choiceLimit is the time a pending choice has in a game without a turn
// limit (RULES.md section 7); the turn itself has no limit there.
const choiceLimit = 3 * day

// waitLimit is the time a seat of g has for what it is waited on for: the
// game's turn limit, or choiceLimit for a pending choice (choosing) in a
// game without one; 0 is no limit.
func waitLimit(g *Game, choosing bool) time.Duration {
	switch {
	case g.TurnHours > 0:
		return time.Duration(g.TurnHours) * time.Hour
	case choosing:
		return choiceLimit
	}
	return 0
}

// startWaiting starts (or restarts) the clock of a seat that is waited on
// from now, and tells its player what waits when kind is not empty.
// choosing says the seat has a choice pending (the head of its queue
// reached it now, or is still there). A player on vacation gets the whole
// limit after their vacation ends.
func (s *Store) startWaiting(tx *gorm.DB, g *Game, seat *Seat, now time.Time, kind string, choosing bool) error {
	seat.WaitingSince, seat.Deadline, seat.RemindAt, seat.Reminded = &now, nil, nil, false
	if limit := waitLimit(g, choosing); limit > 0 && seat.UserID != nil {
		u, err := s.settingsIn(tx, *seat.UserID) // cached: vacations change in their own transactions
		if err != nil {
			return err
		}
		start := now
		if u.OnVacation(now) {
			start = *u.VacationUntil
		}
		deadline, remind := start.Add(limit), start.Add(limit-reminderLead(limit))
		seat.Deadline, seat.RemindAt = &deadline, &remind
	}
	err := setClock(tx, seat)
	if err != nil || kind == "" || seat.UserID == nil {
		return err
	}
	switch kind {
	case "reaction":
		return s.notify(tx, *seat.UserID, g.ID, kind, "A choice is waiting for you in game %d: your workers were activated.", g.ID)
	case turnAndChoice:
		return s.notify(tx, *seat.UserID, g.ID, "turn", "It is your turn in game %d, and a choice is waiting for you: your workers were activated.", g.ID)
	}
	return s.notify(tx, *seat.UserID, g.ID, kind, "It is your turn in game %d.", g.ID)
}

// turnAndChoice asks startWaiting for a "turn" notice that also tells of
// a pending choice.
const turnAndChoice = "turn+choice"

// clearDeadline takes the clock off a seat that is still waited on.
func clearDeadline(tx *gorm.DB, seat *Seat) error {
	seat.Deadline, seat.RemindAt, seat.Reminded = nil, nil, false
	_, err := rawExec(tx, `UPDATE seats SET deadline = NULL, remind_at = NULL, reminded = ? WHERE id = ?`, false, seat.ID)
	return err
}

// setClock writes seat's clock: since when it is waited on, its deadline
// and reminder.
func setClock(tx *gorm.DB, seat *Seat) error {
	_, err := rawExec(tx, `UPDATE seats SET waiting_since = ?, deadline = ?, remind_at = ?, reminded = ? WHERE id = ?`,
		seat.WaitingSince, seat.Deadline, seat.RemindAt, seat.Reminded, seat.ID)
	return err
}

// clearStale takes a passed deadline off a seat of an active game that has
// nothing left to play before it: no choice, and a turn without a clock.
// Nothing else changes; a seat that was played meanwhile is left alone.
func (s *Store) clearStale(seat Seat) error {
	l, err := s.LoadGame(seat.GameID)
	if err != nil || l.Play == nil || l.Game.Status != StatusActive {
		return err
	}
	st := l.Play.State()
	if len(st.Player(seat.Index).Queue()) > 0 || l.Game.TurnHours > 0 && !st.Over() && st.Current() == seat.Index {
		return nil
	}
	return s.w.Model(&Seat{}).Where("id = ? AND deadline = ?", seat.ID, seat.Deadline).
		Updates(map[string]any{"deadline": nil, "remind_at": nil, "reminded": false}).Error
}

func stopWaiting(tx *gorm.DB, seat *Seat) error {
	seat.WaitingSince, seat.Deadline, seat.RemindAt, seat.Reminded = nil, nil, nil, false
	return setClock(tx, seat)
}

// TimeOut plays for seat of game id, whose time ran out: the greedy bot
// makes the seat's pending choices (the best-value choice) and, if it is
// the seat's turn in a game with a turn limit, its turn, all in one commit
// marked as a timeout; everyone at the table is told and the player keeps
// the seat. In a game without a limit only choices run out of time: the
// turn waits. A seat whose deadline has not passed (or whose timeout was
// already played, by this or another worker) is refused with an error
// matching ErrForbidden, and nothing changes.
func (s *Store) TimeOut(id uint, seat int) (*Loaded, error) {
	r := engine.NewRand(randomUint64())
	greedy, _ := bot.ByName("greedy")
	l, err := s.commit(id, -1, Actor{Timeout: true, Seat: seat}, func(l *Loaded, seat int, add func(LogEntry) error) error {
		played := false
		for step := 0; step < 64; step++ {
			st := l.Play.State()
			var e LogEntry
			var err error
			switch {
			case len(st.Player(seat).Queue()) > 0:
				e, err = resolveEntry(l, seat, greedy.Resolve(st, seat, r))
			case l.Game.TurnHours > 0 && !st.Over() && st.Current() == seat:
				var m engine.Move
				if m, err = greedy.Move(st, r); err == nil {
					m.Fills = append([]engine.Fill(nil), m.Fills...)
					e, err = turnEntry(l, seat, m)
				}
			default:
				step = 64
				continue
			}
			if err != nil {
				return err
			}
			if err := add(e); err != nil {
				return err
			}
			played = true
		}
		if !played {
			return errNotDue
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Tell the table in a second, small transaction: the commit above is
	// what must never happen twice, and it cannot.
	err = s.w.Transaction(func(tx *gorm.DB) error {
		who := l.Seats[seat].Name
		for i, other := range l.Seats {
			if other.UserID == nil {
				continue
			}
			var err error
			if i == seat {
				err = s.notify(tx, *other.UserID, id, "timeout", "Your time ran out in game %d: the greedy bot played for you. Your seat is still yours.", id)
			} else {
				err = s.notify(tx, *other.UserID, id, "timeout", "%s's time ran out in game %d: the greedy bot played for them.", who, id)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	return l, err
}

// RunTimeouts plays every seat whose deadline has passed (see TimeOut),
// then lets the bots of those games move. It returns how many seats it
// played for.
func (s *Store) RunTimeouts() (int, error) {
	var due []Seat
	err := s.db.Joins("JOIN games ON games.id = seats.game_id AND games.status = ?", StatusActive).
		Where("seats.deadline IS NOT NULL AND seats.deadline <= ?", s.now()).Order("seats.deadline").Limit(100).Find(&due).Error
	if err != nil {
		return 0, err
	}
	n := 0
	for _, seat := range due {
		_, err := s.TimeOut(seat.GameID, seat.Index)
		if errors.Is(err, errNotDue) {
			// Nothing to play: a deadline left over with nothing behind it
			// would be picked up at every run.
			if err := s.clearStale(seat); err != nil {
				return n, err
			}
			continue
		}
		if errors.Is(err, ErrForbidden) || errors.Is(err, ErrNotActive) || errors.Is(err, ErrConflict) {
			continue // played by someone else meanwhile, or moved on
		}
		if err != nil {
			return n, fmt.Errorf("models: timeout of game %d seat %d: %w", seat.GameID, seat.Index, err)
		}
		n++
		if err := s.DriveBots(seat.GameID); err != nil {
			return n, err
		}
	}
	return n, nil
}

// SendReminders tells every player whose reminder time has come that their
// deadline is near, once per wait. It returns how many it reminded.
func (s *Store) SendReminders() (int, error) {
	now := s.now()
	var due []Seat
	err := s.db.Joins("JOIN games ON games.id = seats.game_id AND games.status = ?", StatusActive).
		Where("seats.remind_at <= ? AND seats.reminded = ? AND seats.deadline > ? AND seats.user_id IS NOT NULL", now, false, now).
		Limit(500).Find(&due).Error
	if err != nil {
		return 0, err
	}
	n := 0
	for _, seat := range due {
		err := s.w.Transaction(func(tx *gorm.DB) error {
			res := tx.Model(&Seat{}).Where("id = ? AND reminded = ? AND remind_at = ?", seat.ID, false, seat.RemindAt).Update("reminded", true)
			if res.Error != nil || res.RowsAffected != 1 {
				return res.Error
			}
			n++
			left := max(1, int(seat.Deadline.Sub(now).Round(time.Hour)/time.Hour))
			return s.notify(tx, *seat.UserID, seat.GameID, "reminder", "Game %d is waiting for you: your time runs out in about %d hours.", seat.GameID, left)
		})
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// VacationLeft is how many vacation days u has left in now's year.
func (u *User) VacationLeft(now time.Time) int {
	if u.VacationYear != now.Year() {
		return VacationAllowance
	}
	return VacationAllowance - u.VacationDays
}

// StartVacation pauses user's clocks for days days from now, out of the
// yearly allowance: every running deadline moves by that much, and turns
// that come during the vacation get their full time after it.
func (s *Store) StartVacation(userID uint, days int) (*User, error) {
	now := s.now()
	var u User
	err := s.w.Transaction(func(tx *gorm.DB) error {
		if err := tx.Take(&u, userID).Error; err != nil {
			return err
		}
		if u.OnVacation(now) {
			return invalid("you are on vacation already; end it before starting another")
		}
		left := u.VacationLeft(now)
		if days < 1 || days > left {
			return invalid("you can take 1 to %d days of vacation (%d a year)", left, VacationAllowance)
		}
		if u.VacationYear != now.Year() {
			u.VacationYear, u.VacationDays = now.Year(), 0
		}
		until := now.Add(time.Duration(days) * day)
		u.VacationUntil, u.VacationDays = &until, u.VacationDays+days
		if err := tx.Model(&User{}).Where("id = ?", u.ID).Updates(map[string]any{"vacation_until": until, "vacation_year": u.VacationYear, "vacation_days": u.VacationDays}).Error; err != nil {
			return err
		}
		return shiftDeadlines(tx, userID, time.Duration(days)*day, now)
	})
	s.users.drop(userID)
	if err != nil {
		return nil, err
	}
	return &u, nil
}

// EndVacation ends user's vacation now: the whole days not used go back to
// the allowance and the clocks run again (deadlines move back by the time
// not used).
func (s *Store) EndVacation(userID uint) (*User, error) {
	now := s.now()
	var u User
	err := s.w.Transaction(func(tx *gorm.DB) error {
		if err := tx.Take(&u, userID).Error; err != nil {
			return err
		}
		if !u.OnVacation(now) {
			return invalid("you are not on vacation")
		}
		unused := u.VacationUntil.Sub(now)
		if u.VacationYear == now.Year() {
			u.VacationDays = max(0, u.VacationDays-int(unused/day))
		}
		u.VacationUntil = nil
		if err := tx.Model(&User{}).Where("id = ?", u.ID).Updates(map[string]any{"vacation_until": nil, "vacation_days": u.VacationDays}).Error; err != nil {
			return err
		}
		return shiftDeadlines(tx, userID, -unused, now)
	})
	s.users.drop(userID)
	if err != nil {
		return nil, err
	}
	return &u, nil
}

// shiftDeadlines moves the running deadlines and reminders of user's seats
// in active games by d; a reminder moved into the future is due again.
func shiftDeadlines(tx *gorm.DB, userID uint, d time.Duration, now time.Time) error {
	var seats []Seat
	err := tx.Joins("JOIN games ON games.id = seats.game_id AND games.status = ?", StatusActive).
		Where("seats.user_id = ? AND seats.deadline IS NOT NULL", userID).Find(&seats).Error
	if err != nil {
		return err
	}
	for _, seat := range seats {
		deadline, remind := seat.Deadline.Add(d), seat.RemindAt.Add(d)
		err := tx.Model(&Seat{}).Where("id = ?", seat.ID).Updates(map[string]any{
			"deadline": deadline, "remind_at": remind, "reminded": seat.Reminded && !remind.After(now)}).Error
		if err != nil {
			return err
		}
	}
	return nil
}
