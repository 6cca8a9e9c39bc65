package models

import (
	"errors"
	"fmt"
	"slices"

	"cacao/engine"
)

// SetAutoDecide sets user's standing policy "always decide for me"
// (the rules' "Time limits and vacations"): a batch of theirs that needs a decision is resolved
// at once with the best-value choice, the most gold, then the most fruit.
// Turned on, it resolves at once, in each of the user's active games, what
// waits for them already (a game whose commit raced with this is caught by
// its next commit, or by CatchUpPolicies).
func (s *Store) SetAutoDecide(userID uint, on bool) error {
	if err := s.w.Model(&User{}).Where("id = ?", userID).Update("auto_decide", on).Error; err != nil {
		return err
	}
	if !on {
		return nil
	}
	var games []uint
	err := s.db.Model(&Seat{}).Joins("JOIN games ON games.id = seats.game_id AND games.status = ?", StatusActive).
		Where("seats.user_id = ? AND seats.waiting_since IS NOT NULL", userID).Order("seats.game_id").Pluck("seats.game_id", &games).Error
	if err != nil {
		return err
	}
	for _, id := range games {
		if err := s.decideNow(id, userID); err != nil {
			return err
		}
	}
	return nil
}

// CatchUpPolicies decides, in a commit of its own, the choices waiting in
// game l for a player whose policy is to decide at once (their policy
// changed while the game's last commit was prepared). It reports whether
// there was one; the game is then at a new version.
func (s *Store) CatchUpPolicies(l *Loaded) (bool, error) {
	_, users, err := s.autoDeciders(l)
	if err != nil || len(users) == 0 {
		return false, err
	}
	return true, s.decideNow(l.Game.ID, users[0])
}

// decideBest resolves every batch waiting for seat with the best-value
// choice (the most gold, then the most fruit), each as
// its own log entry given to add. It returns how many it added.
func decideBest(l *Loaded, seat int, add func(LogEntry) error) (int, error) {
	n := 0
	for {
		p := l.Play.State().Player(seat)
		q := p.Queue()
		if len(q) == 0 {
			return n, nil
		}
		e, err := resolveEntry(l, seat, engine.BestActs(*p, q[0].Edges))
		if err != nil {
			return n, err
		}
		if err := add(e); err != nil {
			return n, err
		}
		n++
	}
}

// autoDeciders returns the seats of l with a choice waiting whose players'
// standing policy is "always decide for me", with their users.
func (s *Store) autoDeciders(l *Loaded) (seats []int, users []uint, err error) {
	st := l.Play.State()
	var waiting []uint
	for i, seat := range l.Seats {
		if seat.UserID != nil && len(st.Player(i).Queue()) > 0 {
			waiting = append(waiting, *seat.UserID)
		}
	}
	if len(waiting) == 0 {
		return nil, nil, nil
	}
	var deciders []uint
	if err := s.db.Model(&User{}).Where("id IN ? AND auto_decide = ?", waiting, true).Pluck("id", &deciders).Error; err != nil {
		return nil, nil, err
	}
	for i, seat := range l.Seats {
		if seat.UserID != nil && len(st.Player(i).Queue()) > 0 && slices.Contains(deciders, *seat.UserID) {
			seats, users = append(seats, i), append(users, *seat.UserID)
		}
	}
	return seats, users, nil
}

// decideForPolicies resolves, with the best-value choice, every batch
// waiting for a player whose standing policy is "always decide for me",
// giving each entry to add with the player it was decided for. The engine's
// own policy flag stays off: the log, not a setting, says what was chosen,
// so replays never depend on it.
func (s *Store) decideForPolicies(l *Loaded, add func(e LogEntry, user uint) error) error {
	seats, users, err := s.autoDeciders(l)
	if err != nil {
		return err
	}
	for k, seat := range seats {
		if _, err := decideBest(l, seat, func(e LogEntry) error { return add(e, users[k]) }); err != nil {
			return err
		}
	}
	return nil
}

// errNothingToDecide refuses an empty commit: no choice waits for the
// seat, or its player no longer wants it decided for them.
var errNothingToDecide = fmt.Errorf("%w: no choice waits to be decided", ErrForbidden)

// decideNow resolves, with the best-value choice, what waits for user in
// game id if their policy says so, in a commit of its own. A game with
// nothing to decide is left alone; one that moved meanwhile is tried again
// on its new position.
func (s *Store) decideNow(id, user uint) error {
	for attempt := 0; attempt < 5; attempt++ {
		_, err := s.commit(id, -1, Actor{UserID: user}, func(l *Loaded, seat int, add func(LogEntry) error) error {
			u, err := s.UserByID(user)
			if err != nil {
				return err
			}
			if !u.AutoDecide {
				return errNothingToDecide
			}
			n, err := decideBest(l, seat, func(e LogEntry) error { e.Auto = true; return add(e) })
			if err == nil && n == 0 {
				err = errNothingToDecide
			}
			return err
		})
		if errors.Is(err, errMoved) {
			continue
		}
		if errors.Is(err, errNothingToDecide) || errors.Is(err, ErrNotActive) {
			return nil
		}
		return err
	}
	return nil // the game's next commit decides it
}
