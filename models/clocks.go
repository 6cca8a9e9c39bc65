package models

import (
	"slices"
	"time"

	"gorm.io/gorm"
)

// day is a calendar day's length for deadlines and vacations.
const day = 24 * time.Hour

// reminderLead is how long before a deadline its player is reminded: 24
// hours, or half the limit when that is shorter.
func reminderLead(limit time.Duration) time.Duration {
	return min(day, limit/2)
}

// choiceLimit is the time a pending choice has in a game without a turn
// limit (the rules' "Time limits and vacations"); the turn itself has no limit there.
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
func (s *Store) startWaiting(tx *gorm.DB, p *people, g *Game, seat *Seat, now time.Time, kind Kind, choosing bool) error {
	seat.WaitingSince, seat.Deadline, seat.RemindAt, seat.Reminded = &now, nil, nil, false
	person := seat.UserID != nil && !seat.Abandoned // the bot plays an abandoned seat at once
	if limit := waitLimit(g, choosing); limit > 0 && person {
		u, err := p.get(*seat.UserID)
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
	if err != nil || kind == "" || !person {
		return err
	}
	switch kind {
	case KindReaction:
		return s.notify(tx, p, *seat.UserID, g.ID, kind, "A choice is waiting for you in game %d: your workers were activated.", g.ID)
	case turnAndChoice:
		return s.notify(tx, p, *seat.UserID, g.ID, KindTurn, "It is your turn in game %d, and a choice is waiting for you: your workers were activated.", g.ID)
	}
	return s.notify(tx, p, *seat.UserID, g.ID, kind, "It is your turn in game %d.", g.ID)
}

// turnAndChoice asks startWaiting for a "turn" notice that also tells of
// a pending choice.
const turnAndChoice Kind = "turn+choice"

// clearDeadline takes the clock off a seat that is still waited on.
func clearDeadline(tx *gorm.DB, seat *Seat) error {
	seat.Deadline, seat.RemindAt, seat.Reminded = nil, nil, false
	return tx.Model(&Seat{}).Where("id = ?", seat.ID).Updates(map[string]any{"deadline": nil, "remind_at": nil, "reminded": false}).Error
}

// setClock writes seat's clock: since when it is waited on, its deadline
// and reminder.
func setClock(tx *gorm.DB, seat *Seat) error {
	return tx.Model(&Seat{}).Where("id = ?", seat.ID).Updates(map[string]any{
		"waiting_since": seat.WaitingSince, "deadline": seat.Deadline, "remind_at": seat.RemindAt, "reminded": seat.Reminded}).Error
}

func stopWaiting(tx *gorm.DB, seat *Seat) error {
	seat.WaitingSince, seat.Deadline, seat.RemindAt, seat.Reminded = nil, nil, nil, false
	return setClock(tx, seat)
}

// DueTimeouts lists, oldest deadline first, up to limit seats of active
// games whose deadline has passed: the seats someone must play for.
func (s *Store) DueTimeouts(limit int) ([]Seat, error) {
	var due []Seat
	err := s.db.Where("seats.deadline IS NOT NULL AND seats.deadline <= ? AND "+inActiveGame, s.now(), StatusActive).
		Order("seats.deadline").Limit(limit).Find(&due).Error
	return due, err
}

// inActiveGame is a seat's condition of being in a game whose status is the
// argument after its own: a seat's own index (its deadline, its reminder,
// how long a bot has waited) finds the few seats due, and each one's game
// is looked up by its id, rather than every running game's seats read.
const inActiveGame = "EXISTS (SELECT 1 FROM games WHERE games.id = seats.game_id AND games.status = ?)"

// StalledBots lists, up to limit, the running games that have waited on a
// bot (or an abandoned seat, which the stand-in bot plays) for longer than
// after: its move was due when someone else's commit ended, and was lost
// (a crash, a failed request) before the bot played it, or was not kept
// (autoplay.Runner keeps a few of a person's games waiting). The longest
// waiting come first, so that every game's turn comes.
func (s *Store) StalledBots(after time.Duration, limit int) ([]uint, error) {
	// A game has at most four seats: limit games are among the 4×limit
	// seats that waited longest.
	var seats []uint
	// (bot <> '' OR abandoned) is idx_seats_bots_waiting's condition, as
	// written there, so that the index serves.
	err := s.db.Model(&Seat{}).Where("seats.waiting_since <= ? AND (bot <> '' OR abandoned) AND "+inActiveGame, s.now().Add(-after), StatusActive).
		Order("seats.waiting_since, seats.game_id").Limit(4*limit).Pluck("seats.game_id", &seats).Error
	var ids []uint
	for _, id := range seats {
		if len(ids) < limit && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, err
}

// ClearStale takes a passed deadline off a seat of an active game that has
// nothing left to play before it: no choice, and a turn without a clock
// (a deadline left over with nothing behind it would be due for ever).
// Nothing else changes; a seat that was played meanwhile is left alone.
func (s *Store) ClearStale(seat Seat) error {
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

// SendReminders tells every player whose reminder time has come that their
// deadline is near, once per wait. It returns how many it reminded.
func (s *Store) SendReminders() (int, error) {
	now := s.now()
	var due []Seat
	err := s.db.Where("seats.remind_at <= ? AND seats.reminded = ? AND seats.deadline > ? AND seats.user_id IS NOT NULL AND "+inActiveGame, now, false, now, StatusActive).
		Limit(500).Find(&due).Error
	if err != nil {
		return 0, err
	}
	n := 0
	for _, seat := range due {
		reminded := false
		err := s.transaction(func(tx *gorm.DB) error {
			reminded = false
			res := tx.Model(&Seat{}).Where("id = ? AND reminded = ? AND remind_at = ?", seat.ID, false, seat.RemindAt).Update("reminded", true)
			if res.Error != nil || res.RowsAffected != 1 {
				return res.Error
			}
			reminded = true
			left := max(1, int(seat.Deadline.Sub(now).Round(time.Hour)/time.Hour))
			p, err := peopleIn(tx, nil, *seat.UserID)
			if err != nil {
				return err
			}
			return s.notify(tx, p, *seat.UserID, seat.GameID, KindReminder, "Game %d is waiting for you: your time runs out in about %d hours.", seat.GameID, left)
		})
		if err != nil {
			return n, err
		}
		if reminded {
			n++
		}
	}
	return n, nil
}

// clockFacts is what decides a seat's clock after a change (seatClock).
type clockFacts struct {
	Choosing    bool // a choice of the seat's waits at the head of its queue
	MyTurn      bool // it is the seat's turn (the game is not over)
	Waiting     bool // the seat was waited on before the change
	HasDeadline bool // its wait had a deadline
	Overdue     bool // that deadline has passed
	Acted       bool // the seat made the change
	HadTurn     bool // it was the seat's turn before the change
	TurnLimit   bool // the game limits a turn's time
}

// clockStep is what a seat's clock does after a change.
type clockStep int

const (
	clockKeep   clockStep = iota // as it is
	clockStart                   // a fresh clock from now (startWaiting), with news of kind ("": none)
	clockClear                   // the deadline goes: only a turn is left, and a turn has no clock here
	clockNotify                  // as it is, and the player is told it is their turn
	clockStop                    // the seat is waited on no more
)

// seatClock is the rule of a seat's clock after a change (afterChange
// applies it to each seat): a seat waited on from now starts its clock
// and its player is told what waits; the seat that acted and is still
// waited on (a choice made, the turn left, or the other way) gets a fresh
// clock without news; a turn that comes to a seat starts the clock anew,
// except that an overdue choice stays overdue (its timeout plays it and
// the turn), and that in a game without a turn limit a choice that waited
// keeps its deadline (the turn itself has none) and the player is only
// told; a seat no longer waited on stops its clock.
func seatClock(f clockFacts) (clockStep, Kind) {
	waiting := f.Choosing || f.MyTurn
	kind := KindTurn
	if f.Choosing {
		kind = map[bool]Kind{false: KindReaction, true: turnAndChoice}[f.MyTurn]
	}
	switch {
	case waiting && !f.Waiting:
		return clockStart, kind
	case waiting && !f.Choosing && f.HasDeadline && !f.TurnLimit:
		return clockClear, ""
	case waiting && f.Acted:
		return clockStart, ""
	case waiting && f.MyTurn && !f.HadTurn && f.Overdue:
		return clockKeep, ""
	case waiting && f.MyTurn && !f.HadTurn && f.Choosing && !f.TurnLimit && f.HasDeadline:
		return clockNotify, ""
	case waiting && f.MyTurn && !f.HadTurn:
		return clockStart, KindTurn
	case !waiting && f.Waiting:
		return clockStop, ""
	}
	return clockKeep, ""
}
