package models

import (
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"cacao/engine"
)

// Actor says who submits a change: a user (UserID), a bot seat or an
// abandoned one (Bot true, Seat its engine seat), or whoever plays for a seat whose time ran out
// (Timeout true, Seat).
type Actor struct {
	UserID  uint
	Bot     bool
	Timeout bool
	Seat    int
}

// Play is one action of a seat: its turn (Move), or the resolution of the
// batch at the head of its queue (Acts, when Move is nil).
type Play struct {
	Move *engine.Move
	Acts []engine.Act
}

// CommitTurn commits a turn made on version of game id by actor. It returns
// ErrConflict when the game moved on since version (the loser of a double
// submit), ErrForbidden when actor has no seat, an engine.ErrIllegal error
// when the move is illegal; in every error case nothing changes.
func (s *Store) CommitTurn(id uint, version int, actor Actor, m engine.Move) (*Loaded, error) {
	return s.Commit(id, version, actor, Play{Move: &m})
}

// CommitResolve resolves the batch at the head of actor's queue with acts.
func (s *Store) CommitResolve(id uint, version int, actor Actor, acts []engine.Act) (*Loaded, error) {
	return s.Commit(id, version, actor, Play{Acts: acts})
}

// Commit commits plays, in order, for actor's seat in one change of game
// id made on version, as CommitTurn does. A timeout (actor.Timeout) is
// refused with an error matching ErrForbidden unless the seat's deadline
// has passed and plays are given; everyone at the table is told of it,
// and the seat is abandoned when its time ran out AbandonAfter times in a
// row (a play of the seat's player ends the run). A player whose seat is
// abandoned is refused (ErrAbandoned) until they take it back.
func (s *Store) Commit(id uint, version int, actor Actor, plays ...Play) (*Loaded, error) {
	l, err := s.LoadGame(id)
	if err != nil {
		return nil, err
	}
	return s.CommitOn(l, version, actor, plays...)
}

// CommitOn is Commit on game l as just loaded (LoadGame), which it does
// not read again; l itself is left as it was. The version check is the
// same: a commit since l was loaded makes ErrConflict.
func (s *Store) CommitOn(loaded *Loaded, version int, actor Actor, plays ...Play) (*Loaded, error) {
	if actor.Timeout && len(plays) == 0 {
		return nil, errNotDue
	}
	var count func(tx *gorm.DB, p *people, l *Loaded, seat int) error
	l, err := s.commitOn(loaded.copy(), version, actor, func(l *Loaded, seat int, add func(LogEntry) error) error {
		person := !actor.Bot && !actor.Timeout
		if person && l.Seats[seat].Abandoned {
			return ErrAbandoned
		}
		for _, p := range plays {
			var e LogEntry
			var err error
			if p.Move != nil {
				e, err = turnEntry(l, seat, *p.Move)
			} else {
				e, err = resolveEntry(l, seat, p.Acts)
			}
			if err != nil {
				return err
			}
			if err := add(e); err != nil {
				return err
			}
		}
		var err error
		switch {
		case actor.Timeout:
			count, err = countTimeout(l, seat, add)
		case person:
			count = resetTimeouts(l, seat)
		}
		return err
	}, func(tx *gorm.DB, p *people, l *Loaded, seat int) error {
		if count == nil {
			return nil
		}
		return count(tx, p, l, seat)
	})
	if errors.Is(err, errMoved) {
		err = ErrConflict
	}
	return l, err
}

// turnEntry checks seat's move on a copy of the position and returns its
// log entry, every choice explicit.
func turnEntry(l *Loaded, seat int, m engine.Move) (LogEntry, error) {
	m.Reactions = nil // live play: other players' batches join their queues
	out, err := l.Play.State().Clone().Play(seat, m)
	if err != nil {
		return LogEntry{}, err
	}
	data, err := engine.MarshalTurn(engine.RecordTurn{Seat: seat, Move: engine.Move{
		Placement: out.Placement, Fills: out.Fills, Acts: out.Acts,
	}})
	return LogEntry{Kind: LogTurn, Seat: seat, Turn: l.Play.State().Turns(), Data: string(data)}, err
}

// resolveEntry checks the resolution of seat's first pending batch.
func resolveEntry(l *Loaded, seat int, acts []engine.Act) (LogEntry, error) {
	q := l.Play.State().Player(seat).Queue()
	if len(q) == 0 {
		return LogEntry{}, &engine.IllegalError{Reason: "you have no pending choice", Format: "you have no pending choice"}
	}
	turn := q[0].Turn
	rs, err := l.Play.State().Clone().Resolve(seat, acts)
	if err != nil {
		return LogEntry{}, err
	}
	data, err := engine.MarshalActs(rs[0].Acts)
	return LogEntry{Kind: LogResolve, Seat: seat, Turn: turn, Data: string(data)}, err
}

// errMoved says the game changed between reading it and writing.
var errMoved = errors.New("models: the game moved while the change was prepared")

// errNotDue refuses a timeout for a seat whose deadline has not passed (or
// was already played: the seat is no longer waited on).
var errNotDue = fmt.Errorf("%w: that seat's time has not run out", ErrForbidden)

// commit prepares change on the game as loaded (the replay cache makes that
// cheap), after checking who acts and on which version, then writes it in
// one transaction that first moves the game's version on from the version
// read: if someone else committed meanwhile, nothing is written and the
// answer is errMoved. change appends log entries with add, which plays
// each. A version below 0 takes the game as it is. within, if given, runs
// in the transaction once the entries are written, before who is waited
// on is worked out (Resign gives the seat to the bot there).
func (s *Store) commit(id uint, version int, actor Actor, change func(l *Loaded, seat int, add func(LogEntry) error) error, within ...func(tx *gorm.DB, p *people, l *Loaded, seat int) error) (*Loaded, error) {
	l, err := s.LoadGame(id)
	if err != nil {
		return nil, err
	}
	return s.commitOn(l, version, actor, change, within...)
}

// commitOn is commit on l as loaded, which it changes.
func (s *Store) commitOn(l *Loaded, version int, actor Actor, change func(l *Loaded, seat int, add func(LogEntry) error) error, within ...func(tx *gorm.DB, p *people, l *Loaded, seat int) error) (*Loaded, error) {
	now := s.now()
	id := l.Game.ID
	if l.Game.Status != StatusActive {
		return nil, ErrNotActive
	}
	seat := actor.Seat
	switch {
	case actor.Timeout:
		if seat < 0 || seat >= len(l.Seats) {
			return nil, ErrForbidden
		}
		if d := l.Seats[seat].Deadline; d == nil || d.After(now) {
			return nil, errNotDue
		}
	case actor.Bot:
		if seat < 0 || seat >= len(l.Seats) || l.BotOf(seat) == "" {
			return nil, ErrForbidden
		}
	default:
		if seat = l.SeatOf(actor.UserID); seat < 0 {
			return nil, ErrForbidden
		}
	}
	if version >= 0 && l.Game.Version != version {
		return nil, ErrConflict
	}
	read := l.Game.Version
	prevCur := l.Play.State().Current()
	var entries []LogEntry
	put := func(e LogEntry, user *uint) error {
		e.GameID, e.Seq, e.CreatedAt, e.Timeout, e.Version, e.UserID = id, len(l.Log), now, actor.Timeout, read+1, user
		l.Log = append(l.Log, e)
		entries = append(entries, e)
		return l.apply(e)
	}
	add := func(e LogEntry) error {
		e.Stand = actor.Bot && l.Seats[seat].Bot == ""
		var user *uint
		if !actor.Bot && !actor.Timeout {
			uid := actor.UserID
			user = &uid
		}
		return put(e, user)
	}
	if err := change(l, seat, add); err != nil {
		return nil, err
	}
	// Players who told us to always decide for them have what now waits
	// for them resolved in the same commit, each resolution explicit.
	err := s.decideForPolicies(l, func(e LogEntry, user uint) error {
		e.Auto = true
		return put(e, &user)
	})
	if err != nil {
		return nil, err
	}
	err = s.transaction(func(tx *gorm.DB) error {
		if err := bumpVersion(tx, &l.Game, s.now()); err != nil {
			return err
		}
		if actor.Timeout {
			// A vacation may have moved the deadline since it was read
			// (and waits for this once it is read here).
			// (SQLite's one writer locks it already: GORM leaves FOR UPDATE out.)
			var st Seat
			if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Select("id", "deadline").Take(&st, l.Seats[seat].ID).Error; err != nil {
				return err
			}
			if st.Deadline == nil || st.Deadline.After(now) {
				return errNotDue
			}
		}
		if err := tx.Create(&entries).Error; err != nil {
			if errors.Is(err, gorm.ErrDuplicatedKey) {
				return errMoved
			}
			return err
		}
		p, err := peopleIn(tx, l.Seats)
		if err != nil {
			return err
		}
		for _, f := range within {
			if err := f(tx, p, l, seat); err != nil {
				return err
			}
		}
		if err := s.afterChange(tx, p, l, seat, prevCur, now); err != nil {
			return err
		}
		if actor.Timeout {
			if err := tx.Model(&Seat{}).Where("id = ?", l.Seats[seat].ID).Update("timed_out", gorm.Expr("timed_out + 1")).Error; err != nil {
				return err
			}
			return s.tellTimeout(tx, p, l, seat)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// The game as committed is shown without reading it again: its log
	// carries the new entries' ids as a load would.
	for i, e := range entries {
		l.Log[len(l.Log)-len(entries)+i].ID = e.ID
	}
	s.remember(l)
	s.changed(&l.Game, l.Seats, false)
	return l, nil
}

// bumpVersion moves game g on by one version, if it is still at g's:
// otherwise someone else committed first (errMoved).
func bumpVersion(tx *gorm.DB, g *Game, at time.Time) error {
	res := tx.Model(&Game{}).Where("id = ? AND version = ?", g.ID, g.Version).
		Updates(map[string]any{"version": g.Version + 1, "updated_at": at})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected != 1 {
		return errMoved
	}
	g.Version++
	g.UpdatedAt = at
	return nil
}

// tellTimeout tells everyone at the table that seat's time ran out and the
// stand-in bot played for it.
func (s *Store) tellTimeout(tx *gorm.DB, p *people, l *Loaded, seat int) error {
	id, who := l.Game.ID, l.Seats[seat].Name
	if l.Log[len(l.Log)-1].Kind == LogAbandon {
		return s.tellAbandoned(tx, p, l, seat)
	}
	for i, other := range l.Seats {
		if other.UserID == nil {
			continue
		}
		var err error
		if i == seat {
			err = s.notify(tx, p, *other.UserID, id, KindTimeout, "Your time ran out in game %d: the stand-in bot played for you. Your seat is still yours.", id)
		} else {
			err = s.notify(tx, p, *other.UserID, id, KindTimeout, "%s's time ran out in game %d: the stand-in bot played for them.", who, id)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// tellAbandoned tells everyone at the table that seat's time ran out
// AbandonAfter times in a row: the stand-in bot keeps the seat.
func (s *Store) tellAbandoned(tx *gorm.DB, p *people, l *Loaded, seat int) error {
	id, who := l.Game.ID, l.Seats[seat].Name
	err := s.notify(tx, p, *l.Seats[seat].UserID, id, KindAbandoned, "Your time ran out twice in a row in game %d: the stand-in bot plays your seat until you take it back.", id)
	if err != nil {
		return err
	}
	return others(l, seat, func(u uint) error {
		return s.notify(tx, p, u, id, KindAbandoned, "%s's time ran out twice in a row in game %d: the stand-in bot plays their seat until they take it back.", who, id)
	})
}

// afterChange updates who is waited on (and their clocks), finishes the
// game when it is over and every choice is made, and notifies people.
// acted is the seat that made the change; prevCur the player whose turn it
// was before.
func (s *Store) afterChange(tx *gorm.DB, p *people, l *Loaded, acted, prevCur int, now time.Time) error {
	st := l.Play.State()
	for i := range l.Seats {
		seat := &l.Seats[i]
		choosing := len(st.Player(i).Queue()) > 0
		step, kind := seatClock(clockFacts{
			Choosing:    choosing,
			MyTurn:      !st.Over() && st.Current() == i,
			Waiting:     seat.WaitingSince != nil,
			HasDeadline: seat.Deadline != nil,
			Overdue:     seat.Deadline != nil && !seat.Deadline.After(now),
			Acted:       i == acted,
			HadTurn:     prevCur == i,
			TurnLimit:   l.Game.TurnHours > 0,
		})
		var err error
		switch step {
		case clockStart:
			err = s.startWaiting(tx, p, &l.Game, seat, now, kind, choosing)
		case clockClear:
			err = clearDeadline(tx, seat)
		case clockNotify:
			if seat.UserID != nil && !seat.Abandoned {
				err = s.notify(tx, p, *seat.UserID, l.Game.ID, KindTurn, "It is your turn in game %d.", l.Game.ID)
			}
		case clockStop:
			err = stopWaiting(tx, seat)
		}
		if err != nil {
			return err
		}
	}
	if st.Over() && !st.Pending() && l.Game.Status == StatusActive {
		return s.finish(tx, p, l, now)
	}
	return nil
}

// finish marks l's game finished and tells each player their place.
func (s *Store) finish(tx *gorm.DB, p *people, l *Loaded, now time.Time) error {
	l.Game.Status, l.Game.FinishedAt = StatusFinished, &now
	if err := tx.Model(&Game{}).Where("id = ?", l.Game.ID).Updates(map[string]any{"status": StatusFinished, "finished_at": now}).Error; err != nil {
		return err
	}
	if err := s.keepResults(tx, l); err != nil {
		return err
	}
	places := Places(l.Play.State().Score().Scores, l.Seats)
	for i, seat := range l.Seats {
		if seat.UserID == nil {
			continue
		}
		var err error
		switch {
		case places[i] == 1 && !engine.SharedPlace(places, i):
			err = s.notify(tx, p, *seat.UserID, l.Game.ID, KindFinished, "Game %d is over: you won.", l.Game.ID)
		case places[i] == 1:
			err = s.notify(tx, p, *seat.UserID, l.Game.ID, KindFinished, "Game %d is over: you share the win.", l.Game.ID)
		default:
			err = s.notify(tx, p, *seat.UserID, l.Game.ID, KindFinished, "Game %d is over: you finished in place %d of %d.", l.Game.ID, places[i], len(l.Seats))
		}
		if err != nil {
			return err
		}
	}
	return nil
}
