package models

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"cacao/models/pairing"
)

// TourWork is what one pass over the tournaments did (RunTournaments).
type TourWork struct {
	Started, Cancelled, Rounds, Finished int
	// Handed are the running games whose people's seats went to the
	// stand-in bot at the end of their round: the bots play them on.
	Handed []uint
}

// errTourMoved ends, without a change, a step another worker (or an
// earlier pass) took first.
var errTourMoved = errors.New("models: the tournament moved on")

// ByRoundEnd is the seat that handed a seat to the stand-in bot when the
// round of its tournament ended (LogAbandon's data; a seat's own timeouts
// are -1).
const ByRoundEnd = -2

// RunTournaments is the worker's pass over the tournaments, up to limit of
// each kind: those whose sign-up closed start (or, with fewer than
// MinTourPlayers signed up, are cancelled); a running one whose round's
// games are all over pairs and starts the next round, or finishes after
// its last; one whose round's time is over hands the seats of its people
// still playing to the stand-in bot, which finishes those games (they
// cannot take them back). Each step is guarded in the database, so two
// workers at once take it once.
//
// A player whose seat the stand-in took for AbandonAfter time-outs in a
// row, and who did not take it back before the game ended, is withdrawn
// from the later rounds (their results stand, and they stay in the
// standings).
//
// A tournament whose step fails is logged and left for the next pass: the
// others go on.
func (s *Store) RunTournaments(limit int) (TourWork, error) {
	var w TourWork
	var due []uint
	if err := s.db.Model(&Tournament{}).Where("state = ? AND signup_until <= ?", TourSignup, s.now()).Order("signup_until").Limit(limit).Pluck("id", &due).Error; err != nil {
		return w, err
	}
	for _, id := range due {
		started, err := s.startTournament(id)
		if errors.Is(err, errTourMoved) {
			continue
		}
		if err != nil {
			s.opts.log.Error("starting a tournament", "tournament", id, "err", err)
			continue
		}
		if started {
			w.Started++
		} else {
			w.Cancelled++
		}
	}
	var running []Tournament
	if err := s.db.Where("state = ?", TourRunning).Order("round_ends, id").Limit(limit).Find(&running).Error; err != nil {
		return w, err
	}
	for _, t := range running {
		var playing []uint
		if err := s.db.Model(&Game{}).Where("tournament_id = ? AND tour_round = ? AND (status = ? OR status = ? AND scored = ?)", t.ID, t.Round, StatusActive, StatusFinished, false).
			Pluck("id", &playing).Error; err != nil {
			return w, err
		}
		if len(playing) == 0 {
			finished, err := s.nextRound(t.ID, t.Round)
			if errors.Is(err, errTourMoved) {
				continue
			}
			if err != nil {
				s.opts.log.Error("a tournament's next round", "tournament", t.ID, "err", err)
				continue
			}
			if finished {
				w.Finished++
			} else {
				w.Rounds++
			}
			continue
		}
		if t.RoundEnds == nil || s.now().Before(*t.RoundEnds) {
			continue
		}
		for _, id := range playing {
			handed, err := s.endRoundGame(id)
			if err != nil {
				return w, err
			}
			if handed {
				w.Handed = append(w.Handed, id)
			}
		}
	}
	return w, nil
}

// lockTour is loadTour of tournament id after locking its row in tx, so
// that a join or a leave (which lock it too) lands wholly before the
// players are read, or after the step.
func lockTour(tx *gorm.DB, id uint) (*tourData, error) {
	if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&Tournament{}, id).Error; err != nil {
		return nil, notFound(err)
	}
	return loadTour(tx, id)
}

// guardTour moves tournament id from state and round to the changes in
// tx, or ends the transaction with errTourMoved when another did first.
func guardTour(tx *gorm.DB, id uint, state TourState, round int, changes map[string]any) error {
	res := tx.Model(&Tournament{}).Where("id = ? AND state = ? AND round = ?", id, state, round).Updates(changes)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected != 1 {
		return errTourMoved
	}
	return nil
}

// startTournament starts tournament id, whose sign-up is over: seeded by
// rating, its rounds counted, its first round paired; or cancels it when
// too few signed up (false), its players told.
func (s *Store) startTournament(id uint) (started bool, err error) {
	var games []*Game
	err = s.transaction(func(tx *gorm.DB) error {
		games, started = nil, false
		now := s.now()
		d, err := lockTour(tx, id)
		if err != nil {
			return err
		}
		if len(d.entrants) < MinTourPlayers {
			if err := guardTour(tx, id, TourSignup, 0, map[string]any{"state": TourCancelled, "finished_at": now}); err != nil {
				return err
			}
			p, err := peopleIn(tx, nil, d.present()...)
			if err != nil {
				return err
			}
			for _, e := range d.entrants {
				if err := s.notify(tx, p, e.UserID, 0, KindTourEnded, "The tournament %s was cancelled: fewer than %d players signed up.", d.t.Name, MinTourPlayers); err != nil {
					return err
				}
			}
			return nil
		}
		size := d.t.Size()
		rounds := pairing.RoundRobinRounds(len(d.entrants), size)
		if d.t.Format.ChosenRounds() {
			rounds = min(d.t.Rounds, rounds)
		}
		if err := guardTour(tx, id, TourSignup, 0, map[string]any{"state": TourRunning, "started_at": now, "rounds": rounds}); err != nil {
			return err
		}
		d.t.State, d.t.StartedAt, d.t.Rounds = TourRunning, &now, rounds
		// Seeds: the best rated first, then who signed up first.
		rating := func(id uint) float64 { u := d.users[id]; r, _, _ := u.RatingIn(d.format()); return r.R }
		slices.SortStableFunc(d.entrants, func(a, b Entrant) int { return cmp.Compare(rating(b.UserID), rating(a.UserID)) })
		for i := range d.entrants {
			d.entrants[i].Seed = i + 1
			if err := tx.Model(&Entrant{}).Where("tournament_id = ? AND user_id = ?", id, d.entrants[i].UserID).Update("seed", i+1).Error; err != nil {
				return err
			}
		}
		games, err = s.startRound(tx, d, 1)
		started = true
		return err
	})
	if err != nil {
		return false, err
	}
	for _, g := range games {
		s.changed(g, g.Seats, !g.Private)
	}
	return started, nil
}

// present is d.ids() but the entrants whose account is gone: those who
// may be told.
func (d *tourData) present() []uint {
	var ids []uint
	for _, id := range d.ids() {
		if !d.deleted[id] {
			ids = append(ids, id)
		}
	}
	return ids
}

// ids are the users of d's entrants.
func (d *tourData) ids() []uint {
	ids := make([]uint, len(d.entrants))
	for i, e := range d.entrants {
		ids[i] = e.UserID
	}
	return ids
}

// nextRound ends round of tournament id, whose games are all over: it
// withdraws the players the stand-in replaced for their time-outs, then
// starts the next round, or finishes the tournament after its last round
// or when fewer players are left than a table seats (true).
func (s *Store) nextRound(id uint, round int) (finished bool, err error) {
	var games []*Game
	err = s.transaction(func(tx *gorm.DB) error {
		games, finished = nil, false
		d, err := lockTour(tx, id)
		if err != nil {
			return err
		}
		if d.t.State != TourRunning || d.t.Round != round {
			return errTourMoved
		}
		for i := range d.entrants {
			e := &d.entrants[i]
			if e.WithdrawnAfter != 0 {
				continue
			}
			for _, g := range d.games {
				for _, seat := range g.Seats {
					if g.TourRound == round && seat.UserID != nil && *seat.UserID == e.UserID && seat.Abandoned && seat.Timeouts >= AbandonAfter {
						e.WithdrawnAfter = round
					}
				}
			}
			if e.WithdrawnAfter != 0 {
				if err := tx.Model(&Entrant{}).Where("tournament_id = ? AND user_id = ?", id, e.UserID).Update("withdrawn_after", round).Error; err != nil {
					return err
				}
			}
		}
		playing := 0
		for _, e := range d.entrants {
			if e.WithdrawnAfter == 0 {
				playing++
			}
		}
		least := 2 // a table of two; of three at least for tables of three or four
		if d.t.Multi {
			least = 3
		}
		if round >= d.t.Rounds || playing < least {
			finished = true
			return s.finishTournament(tx, d)
		}
		games, err = s.startRound(tx, d, round+1)
		return err
	})
	if err != nil {
		return false, err
	}
	for _, g := range games {
		s.changed(g, g.Seats, !g.Private)
	}
	return finished, nil
}

// finishTournament finishes d's tournament in tx: the final places are
// kept and everyone signed up is told who won.
func (s *Store) finishTournament(tx *gorm.DB, d *tourData) error {
	now := s.now()
	if err := guardTour(tx, d.t.ID, TourRunning, d.t.Round, map[string]any{"state": TourFinished, "finished_at": now, "round_ends": nil}); err != nil {
		return err
	}
	var winners []string
	for _, st := range d.standings() {
		if err := tx.Model(&Entrant{}).Where("tournament_id = ? AND user_id = ?", d.t.ID, st.UserID).Update("place", st.Place).Error; err != nil {
			return err
		}
		if st.Place == 1 {
			winners = append(winners, st.Name)
		}
	}
	p, err := peopleIn(tx, nil, d.present()...)
	if err != nil {
		return err
	}
	for _, id := range d.present() {
		if err := s.notify(tx, p, id, 0, KindTourEnded, "The tournament %s is over: %s won it.", d.t.Name, strings.Join(winners, ", ")); err != nil {
			return err
		}
	}
	return nil
}

// startRound pairs round of d's tournament and starts its games, in tx:
// Swiss pairs the players on in the order of the standings; a round robin
// plays its schedule of every player seeded, a withdrawn player's table
// playing without them (a player left alone there has a bye). Everyone is
// told their game, or their bye.
func (s *Store) startRound(tx *gorm.DB, d *tourData, round int) ([]*Game, error) {
	now := s.now()
	ends := now.Add(time.Duration(d.t.RoundDays) * day)
	if err := guardTour(tx, d.t.ID, TourRunning, round-1, map[string]any{"round": round, "round_ends": ends}); err != nil {
		return nil, err
	}
	d.t.Round, d.t.RoundEnds = round, &ends
	withdrawn := map[uint]bool{}
	for _, e := range d.entrants {
		if e.WithdrawnAfter != 0 {
			withdrawn[e.UserID] = true
		}
	}
	var r pairing.Round
	if d.t.Format == RoundRobin {
		schedule := pairing.RoundRobin(d.ids(), d.t.Size())
		if round > len(schedule) {
			return nil, errors.New("models: a round robin past its schedule")
		}
		for _, id := range schedule[round-1].Byes {
			if !withdrawn[id] {
				r.Byes = append(r.Byes, id)
			}
		}
		for _, table := range schedule[round-1].Tables {
			table = slices.DeleteFunc(slices.Clone(table), func(id uint) bool { return withdrawn[id] })
			switch len(table) {
			case 0:
			case 1:
				r.Byes = append(r.Byes, table[0])
			default:
				r.Tables = append(r.Tables, table)
			}
		}
	} else {
		var ranked []uint
		for _, st := range d.standings() {
			if !withdrawn[st.UserID] {
				ranked = append(ranked, st.UserID)
			}
		}
		r = pairing.Swiss(d.records(ranked), d.t.Size())
	}
	p, err := peopleIn(tx, nil, d.present()...)
	if err != nil {
		return nil, err
	}
	var games []*Game
	for _, table := range r.Tables {
		g := &Game{Status: StatusOpen, NumPlayers: len(table), CreatorID: table[0], InviteToken: randomToken(), TurnHours: d.t.TurnHours,
			Private: d.t.Private, StandIn: DefaultStandIn, TournamentID: d.t.ID, TourRound: round}
		for k, id := range table {
			g.Seats = append(g.Seats, Seat{Slot: k, Index: -1, UserID: &id, Name: d.users[id].Username})
		}
		if err := tx.Create(g).Error; err != nil {
			return nil, err
		}
		if err := s.startIfFull(tx, g); err != nil {
			return nil, err
		}
		for _, id := range table {
			if err := s.notify(tx, p, id, g.ID, KindTourRound, "Round %d of the tournament %s has started: your game is game %d.", round, d.t.Name, g.ID); err != nil {
				return nil, err
			}
		}
		games = append(games, g)
	}
	for _, id := range r.Byes {
		if err := tx.Create(&TourBye{TournamentID: d.t.ID, Round: round, UserID: id}).Error; err != nil {
			return nil, err
		}
		if err := s.notify(tx, p, id, 0, KindTourRound, "Round %d of the tournament %s has started: you sit this one out with a bye, which counts as a win.", round, d.t.Name); err != nil {
			return nil, err
		}
	}
	return games, nil
}

// endRoundGame hands every seat of running game id that a person still
// plays to the stand-in bot, its round's time being over: each in a
// commit of its own, the log saying so and the player told. It reports
// whether it handed any.
func (s *Store) endRoundGame(id uint) (bool, error) {
	handed := false
	for {
		l, err := s.LoadGame(id)
		if err != nil {
			return handed, err
		}
		seat := slices.IndexFunc(l.Seats, func(st Seat) bool { return st.UserID != nil && !st.Abandoned && st.ResignedID == nil })
		if l.Game.Status != StatusActive || seat < 0 {
			return handed, nil
		}
		user := *l.Seats[seat].UserID
		_, err = s.commitOn(l, l.Game.Version, Actor{UserID: user}, func(l *Loaded, mine int, add func(LogEntry) error) error {
			return add(LogEntry{Kind: LogAbandon, Seat: mine, Turn: l.Play.State().Turns(), Data: `{"by":-2}`})
		}, func(tx *gorm.DB, p *people, l *Loaded, mine int) error {
			st := &l.Seats[mine]
			now := s.now() // the bot is waited on from now
			st.Abandoned, st.WaitingSince, st.Deadline, st.RemindAt = true, &now, nil, nil
			if err := tx.Model(&Seat{}).Where("id = ?", st.ID).Updates(map[string]any{"abandoned": true, "waiting_since": now, "deadline": nil, "remind_at": nil}).Error; err != nil {
				return err
			}
			return s.notify(tx, p, user, id, KindAbandoned, "The time of this tournament round is over: the stand-in bot finishes game %d for you.", id)
		})
		if errors.Is(err, ErrConflict) {
			continue // a move meanwhile: look again
		}
		if err != nil {
			return handed, err
		}
		handed = true
	}
}

// ErrRoundOver refuses to take back a seat of a tournament's game whose
// round's time is over.
var ErrRoundOver = invalid("this tournament round's time is over: the stand-in bot finishes the game")

// roundOver reports whether game id is of a tournament whose round's time
// is over (its seats are the stand-in's to the end).
func (s *Store) roundOver(id uint) (bool, error) {
	var g Game
	if err := s.db.Select("id", "tournament_id", "tour_round").Take(&g, id).Error; err != nil {
		return false, notFound(err)
	}
	if g.TournamentID == 0 {
		return false, nil
	}
	var t Tournament
	if err := s.db.Select("id", "round", "round_ends", "state").Take(&t, g.TournamentID).Error; err != nil {
		return false, notFound(err)
	}
	return t.Round > g.TourRound || t.State != TourRunning || t.RoundEnds != nil && !s.now().Before(*t.RoundEnds), nil
}
