package models

import (
	"time"

	"gorm.io/gorm"
)

// VacationAllowance is how many days a year a user may pause their clocks.
const VacationAllowance = 14

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
	err := s.transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, userID); err != nil {
			return err
		}
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
	err := s.transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, userID); err != nil {
			return err
		}
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
