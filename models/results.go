package models

import (
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"cacao/engine"
	"cacao/models/rating"
)

// keepResults writes, in tx, each seat's place and total of finished game
// l, and rates its players.
func (s *Store) keepResults(tx *gorm.DB, l *Loaded) error {
	if err := scoreSeats(tx, l); err != nil {
		return err
	}
	return s.rate(tx, l)
}

// scoreSeats writes, in tx, each seat's place and total of finished game
// l.
func scoreSeats(tx *gorm.DB, l *Loaded) error {
	scores := l.Play.State().Score().Scores
	places := engine.Places(scores)
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

// rate updates the ratings of the players of finished game l (RatingRule).
func (s *Store) rate(tx *gorm.DB, l *Loaded) error {
	var seats []*Seat
	var ids []uint
	for i := range l.Seats {
		if p := l.Seats[i].Player(); p != nil {
			seats, ids = append(seats, &l.Seats[i]), append(ids, *p)
		}
	}
	if len(seats) < 2 {
		return nil
	}
	var users []User
	q := tx
	if s.pg { // two games ending together rate their players one after the other
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	if err := q.Select("id", "rating", "rating_dev", "rating_vol").Where("id IN ?", ids).Order("id").Find(&users).Error; err != nil {
		return err
	}
	byID := map[uint]User{}
	for _, u := range users {
		byID[u.ID] = u
	}
	before := make([]rating.Rating, len(seats))
	ranks := make([]int, len(seats))
	for i, seat := range seats {
		u := byID[ids[i]]
		before[i] = rating.Rating{R: u.Rating, RD: u.RatingDev, Vol: u.RatingVol}
		ranks[i] = seat.Place
		if seat.ResignedID != nil || seat.Abandoned {
			ranks[i] = len(l.Seats) + 1 // the bot finished it: behind every player who finished their own
		}
	}
	after := rating.Table(before, ranks)
	for i, seat := range seats {
		seat.RatedFrom, seat.RatedTo = before[i].R, after[i].R
		if err := tx.Model(&Seat{}).Where("id = ?", seat.ID).Updates(map[string]any{"rated_from": seat.RatedFrom, "rated_to": seat.RatedTo}).Error; err != nil {
			return err
		}
		err := tx.Model(&User{}).Where("id = ?", ids[i]).Updates(map[string]any{"rating": after[i].R, "rating_dev": after[i].RD,
			"rating_vol": after[i].Vol, "rated_games": gorm.Expr("rated_games + 1")}).Error
		if err != nil {
			return err
		}
	}
	return nil
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
