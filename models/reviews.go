package models

import (
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"cacao/engine"
)

// Review is a player's review of their own turns in a finished game: asked
// for once by the seat's player, made in the bots' slots, then kept. The
// site shows it to that player alone.
type Review struct {
	GameID  uint `gorm:"primaryKey;autoIncrement:false"`
	Seat    int  `gorm:"primaryKey;autoIncrement:false"` // engine seat
	UserID  uint `gorm:"index"`
	AskedAt time.Time
	// StartedAt is when a process last set out to make it (ClaimReview).
	StartedAt *time.Time
	DoneAt    *time.Time // nil while it is being made
}

// ReviewedTurn is one turn of a Review: the turn the player made (the log
// entry Seq, the game's turn Turn), the hard bot's choice in its place (a
// record's turn object, engine.MarshalTurn) and the shares of deals won
// after each (bot.Review).
type ReviewedTurn struct {
	GameID    uint `gorm:"primaryKey;autoIncrement:false"`
	Seat      int  `gorm:"primaryKey;autoIncrement:false"`
	Seq       int  `gorm:"primaryKey;autoIncrement:false"`
	Turn      int
	Best      string
	PlayedWon float64
	BestWon   float64
	Same      bool
}

// Lost is how much of a win share the move played gave away against the
// bot's.
func (t ReviewedTurn) Lost() float64 { return max(0, t.BestWon-t.PlayedWon) }

// Errors of reviews.
var (
	ErrReviewNotOver = invalid("a review is made of a game played to its end")
	ErrReviewAsked   = invalid("the review of your turns is asked for already")
)

// OwnTurn is a turn a seat's player made themselves: the position before
// it, as the game stood, and the move.
type OwnTurn struct {
	Seq, Turn int
	Before    *engine.State
	Move      engine.Move
}

// OwnTurns lists the turns seat's player made themselves in l (not the
// stand-in's, nor a timeout's), in order, each with the position before it,
// by replaying l's log.
func (l *Loaded) OwnTurns(seat int) ([]OwnTurn, error) {
	r := &Loaded{Game: l.Game, Seats: l.Seats, record: l.record}
	if err := r.start(); err != nil {
		return nil, err
	}
	var out []OwnTurn
	for _, e := range l.Log {
		if e.Kind == LogTurn && e.Seat == seat && e.UserID != nil && !e.Timeout && !e.Stand {
			t, err := engine.UnmarshalTurn([]byte(e.Data), len(l.Seats))
			if err != nil {
				return nil, err
			}
			m := t.Move
			m.Reactions = nil // the others' choices are theirs, not the turn's
			out = append(out, OwnTurn{Seq: e.Seq, Turn: e.Turn, Before: r.Play.State().Clone(), Move: m})
		}
		if err := r.apply(e); err != nil {
			return nil, fmt.Errorf("models: game %d does not replay: log entry %d: %w", l.Game.ID, e.Seq, err)
		}
	}
	return out, nil
}

// AskReview records that user asks for the review of their turns in game
// l, and returns their seat: only once the game is finished, for a player
// of it (one who resigned too), once.
func (s *Store) AskReview(l *Loaded, userID uint) (int, error) {
	i := UserSeat(l.Seats, userID)
	if i < 0 {
		for j, seat := range l.Seats {
			if seat.ResignedID != nil && *seat.ResignedID == userID {
				i = j
			}
		}
	}
	if i < 0 {
		return 0, ErrForbidden
	}
	if l.Game.Status != StatusFinished {
		return 0, ErrReviewNotOver
	}
	seat := l.Seats[i].Index
	res := s.w.Clauses(clause.OnConflict{DoNothing: true}).Create(&Review{GameID: l.Game.ID, Seat: seat, UserID: userID, AskedAt: s.now()})
	if res.Error != nil {
		return 0, res.Error
	}
	if res.RowsAffected == 0 {
		return seat, ErrReviewAsked
	}
	return seat, nil
}

// SaveReview keeps the turns of game's seat's review and marks it made.
func (s *Store) SaveReview(game uint, seat int, turns []ReviewedTurn) error {
	return s.transaction(func(tx *gorm.DB) error {
		for i := range turns {
			turns[i].GameID, turns[i].Seat = game, seat
		}
		if len(turns) > 0 {
			if err := tx.Clauses(clause.OnConflict{UpdateAll: true}).Create(&turns).Error; err != nil {
				return err
			}
		}
		return tx.Model(&Review{}).Where("game_id = ? AND seat = ?", game, seat).Update("done_at", s.now()).Error
	})
}

// ReviewOf is the review of game's seat and its turns in order; ErrNotFound
// when nobody asked for it.
func (s *Store) ReviewOf(game uint, seat int) (Review, []ReviewedTurn, error) {
	var r Review
	if err := s.db.Where("game_id = ? AND seat = ?", game, seat).Take(&r).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return r, nil, ErrNotFound
		}
		return r, nil, err
	}
	var turns []ReviewedTurn
	err := s.db.Where("game_id = ? AND seat = ?", game, seat).Order("seq").Find(&turns).Error
	return r, turns, err
}

// ReviewLease is how long a review set out to be made is left to the
// process making it before another may make it (that process stopped).
const ReviewLease = 15 * time.Minute

// ClaimReview reports whether the caller may make game's seat's review
// now: nobody has made it, nor set out to in the last ReviewLease. Of
// callers at once, one is told yes.
func (s *Store) ClaimReview(game uint, seat int) (bool, error) {
	now := s.now()
	res := s.w.Model(&Review{}).Where("game_id = ? AND seat = ? AND done_at IS NULL AND (started_at IS NULL OR started_at < ?)", game, seat, now.Add(-ReviewLease)).
		Update("started_at", now)
	return res.RowsAffected == 1, res.Error
}

// ReleaseReview gives up the claim on game's seat's review (ClaimReview)
// of a process that cannot make it now: the next Resume sets out again.
func (s *Store) ReleaseReview(game uint, seat int) error {
	return s.w.Model(&Review{}).Where("game_id = ? AND seat = ? AND done_at IS NULL", game, seat).Update("started_at", nil).Error
}

// RenewReview keeps the claim on game's seat's review (ClaimReview) of a
// process making it, for another ReviewLease.
func (s *Store) RenewReview(game uint, seat int) error {
	return s.w.Model(&Review{}).Where("game_id = ? AND seat = ? AND done_at IS NULL", game, seat).Update("started_at", s.now()).Error
}

// StaleReviews lists up to limit reviews asked for and not made, that no
// process has set out to make in the last ReviewLease, oldest first.
func (s *Store) StaleReviews(limit int) ([]Review, error) {
	var rs []Review
	err := s.db.Where("done_at IS NULL AND (started_at IS NULL OR started_at < ?)", s.now().Add(-ReviewLease)).Order("asked_at").Limit(limit).Find(&rs).Error
	return rs, err
}

// ReviewsBy lists user's reviews, each with its turns, by game.
func (s *Store) ReviewsBy(user uint) (map[uint][]ReviewedTurn, error) {
	var rs []Review
	if err := s.db.Where("user_id = ?", user).Find(&rs).Error; err != nil {
		return nil, err
	}
	out := make(map[uint][]ReviewedTurn, len(rs))
	for _, r := range rs {
		var turns []ReviewedTurn
		if err := s.db.Where("game_id = ? AND seat = ?", r.GameID, r.Seat).Order("seq").Find(&turns).Error; err != nil {
			return nil, err
		}
		out[r.GameID] = turns
	}
	return out, nil
}
