package models

import (
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"cacao/engine"
	"cacao/models/rating"
)

// keepResults writes, in tx, each seat's place and total of finished game
// l, and rates the bots seated (rateBots) against the people's ratings
// before the game, then the people (rate).
func (s *Store) keepResults(tx *gorm.DB, l *Loaded) error {
	if err := scoreSeats(tx, l); err != nil {
		return err
	}
	// Every player's row at once, in one order, before any is rated: two
	// games ending together with players in common (people or bot
	// accounts) rate them one after the other, never each waiting on the
	// other.
	var ids []uint
	for _, seat := range l.Seats {
		if p := seat.Player(); p != nil {
			ids = append(ids, *p)
		}
	}
	if len(ids) > 0 {
		var locked []uint
		if err := tx.Model(&User{}).Clauses(clause.Locking{Strength: "UPDATE"}).Where("id IN ?", ids).Order("id").Pluck("id", &locked).Error; err != nil {
			return err
		}
	}
	if err := s.rateBots(tx, l); err != nil {
		return err
	}
	return s.rate(tx, l)
}

// scoreSeats writes, in tx, each seat's place and total of finished game
// l.
func scoreSeats(tx *gorm.DB, l *Loaded) error {
	scores := l.Play.State().Score().Scores
	places := Places(scores, l.Seats)
	for i := range l.Seats {
		seat := &l.Seats[i]
		seat.Place, seat.Score = places[i], scores[i].Total
		if err := tx.Model(&Seat{}).Where("id = ?", seat.ID).Updates(map[string]any{"place": seat.Place, "score": seat.Score}).Error; err != nil {
			return err
		}
	}
	l.Game.Scored = true
	return tx.Model(&Game{}).Where("id = ?", l.Game.ID).Update("scored", true).Error
}

// rate updates the ratings of the players of finished game l (RatingRule),
// those of its format (FormatOf). A seat the bot finished before its
// player made MinRatedTurns turns of their own is left out of the game's
// rating. An opponent who is not established (counts) is left out of the
// others' rating period, though their own rating moves; a player with no
// counted opponent is not rated. A game with a guest's seat (as they are
// when it ends) is not rated: a guest is a name made in a second, and
// their results would move the others' ratings as throwaway accounts'
// would. Bot accounts are rated apart (rateBots), as the site's bots.
func (s *Store) rate(tx *gorm.DB, l *Loaded) error {
	var seats []*Seat
	var ids []uint
	for i := range l.Seats {
		seat := &l.Seats[i]
		if p := seat.Player(); p != nil && !(botFinished(seat) && l.ownTurns(i) < MinRatedTurns) {
			seats, ids = append(seats, seat), append(ids, *p)
		}
	}
	if len(seats) < 2 {
		return nil
	}
	f := FormatOf(len(l.Seats))
	cols := f.columns()
	var users []User
	// Two games ending together rate their players one after the other.
	if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Select("id", cols.rating, cols.dev, cols.vol, "created_at", "guest", "bot_account").Where("id IN ?", ids).Order("id").Find(&users).Error; err != nil {
		return err
	}
	byID := map[uint]User{}
	for _, u := range users {
		if u.Guest {
			return nil // a game with a guest is rated for nobody
		}
		byID[u.ID] = u
	}
	k := 0 // bot accounts are rated apart (rateBots): the people among themselves
	for i := range seats {
		if !byID[ids[i]].BotAccount {
			seats[k], ids[k] = seats[i], ids[i]
			k++
		}
	}
	if seats, ids = seats[:k], ids[:k]; len(seats) < 2 {
		return nil
	}
	before := make([]rating.Rating, len(seats))
	ranks := make([]int, len(seats))
	counts := make([]bool, len(seats))
	for i, seat := range seats {
		u := byID[ids[i]]
		before[i], _, _ = u.RatingIn(f)
		ranks[i] = rank(l, seat)
		var err error
		if counts[i], err = s.established(tx, &u, l.Game.ID); err != nil {
			return err
		}
	}
	after, rated := rating.Table(before, ranks, counts)
	for i, seat := range seats {
		if !rated[i] {
			continue
		}
		if err := s.keepRating(tx, f, seat, ids[i], before[i], after[i]); err != nil {
			return err
		}
	}
	return nil
}

// keepRating writes, in tx, the rating of user in format f moved from
// before to after by the game of seat: on the seat and in the user's
// columns of f, one more rated game.
func (s *Store) keepRating(tx *gorm.DB, f Format, seat *Seat, user uint, before, after rating.Rating) error {
	seat.RatedFrom, seat.RatedTo = before.R, after.R
	if err := tx.Model(&Seat{}).Where("id = ?", seat.ID).Updates(map[string]any{"rated_from": seat.RatedFrom, "rated_to": seat.RatedTo}).Error; err != nil {
		return err
	}
	cols := f.columns()
	return tx.Model(&User{}).Where("id = ?", user).Updates(map[string]any{cols.rating: after.R, cols.dev: after.RD,
		cols.vol: after.Vol, cols.games: gorm.Expr(cols.games + " + 1"), cols.at: s.now()}).Error
}

// RatedAge is how old an account is before its games move others' ratings.
const RatedAge = 24 * time.Hour

// established reports whether u's result in game counts for the other
// players' ratings: u signed up RatedAge ago or more, and finished another
// game before in their own seat (not resigned, which leaves the seat, nor
// played to the end by the stand-in bot: abandoned). New accounts made to lose
// on purpose so lift nobody. With game 0, whether u is established at
// all (a player, not a throwaway account: checkConfirmations).
func (s *Store) established(tx *gorm.DB, u *User, game uint) (bool, error) {
	if u.CreatedAt.After(s.now().Add(-RatedAge)) {
		return false, nil
	}
	var n int64
	err := tx.Model(&Seat{}).Where("user_id = ? AND NOT abandoned AND game_id <> ? AND game_id IN (?)", u.ID, game,
		tx.Model(&Game{}).Select("id").Where("status = ?", StatusFinished)).Limit(1).Count(&n).Error
	return n > 0, err
}

// Places are the seats' places in a finished game: by score (engine.Places)
// among the seats played to the end by their own player or bot, then the
// seats the stand-in bot finished for a player who resigned or was away,
// by score among themselves. A player who left loses to everyone who
// stayed, whatever the stand-in scored for them, as the ratings count it.
func Places(scores []engine.Score, seats []Seat) []int {
	places := make([]int, len(scores))
	for i, a := range scores {
		places[i] = 1
		for j, b := range scores {
			left, other := botFinished(&seats[i]), botFinished(&seats[j])
			if left != other && left || left == other && b.Ahead(a) {
				places[i]++
			}
		}
	}
	return places
}

// botFinished reports whether the stand-in bot played seat to the end for
// its player, who resigned or was away.
func botFinished(seat *Seat) bool { return seat.ResignedID != nil || seat.Abandoned }

// botFinishedSQL is botFinished of the row of seats.
const botFinishedSQL = "(seats.resigned_id IS NOT NULL OR seats.abandoned)"

// ownTurns is how many turns seat's player made themselves in l.
func (l *Loaded) ownTurns(seat int) int {
	n := 0
	for _, e := range l.Log {
		if e.Kind == LogTurn && e.Seat == seat && e.UserID != nil {
			n++
		}
	}
	return n
}

// ScoreOld gives up to limit games finished before places and scores were
// kept their seats' places and totals (they are not rated: ratings count
// from then on). It returns how many it scored; 0 once none is left.
func (s *Store) ScoreOld(limit int) (int, error) {
	var ids []uint
	if err := s.db.Model(&Game{}).Where("status = ? AND scored = ?", StatusFinished, false).Limit(limit).Pluck("id", &ids).Error; err != nil {
		return 0, err
	}
	for _, id := range ids {
		l, err := s.LoadGame(id)
		if err != nil {
			return 0, err
		}
		err = s.transaction(func(tx *gorm.DB) error { return scoreSeats(tx, l) })
		if err != nil {
			return 0, err
		}
	}
	return len(ids), nil
}
