package models

import (
	"cmp"
	"slices"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"cacao/models/rating"
)

// BotRating is a bot level's rating in a format, from its games against
// people only: a bot's results move no person's rating, and bots are on no
// leaderboard of people.
type BotRating struct {
	Kind      string `gorm:"primaryKey"` // a level of bot.Levels: easy, medium, hard
	Format    Format `gorm:"primaryKey"`
	Rating    float64
	RatingDev float64
	RatingVol float64
	Games     int
	RatedAt   *time.Time
}

// Of is r as a rating.Rating.
func (r BotRating) Of() rating.Rating {
	return rating.Rating{R: r.Rating, RD: r.RatingDev, Vol: r.RatingVol}
}

// BotLevel is the level a bot seat is rated as: the levels a player may
// seat ("greedy" is the medium bot's name in games seated before the
// levels), none for the others (random).
func BotLevel(kind string) string {
	switch kind {
	case "easy", "medium", "hard":
		return kind
	case "greedy":
		return "medium"
	}
	return ""
}

// botLevels are the levels BotLevel rates, weakest first (bot.Levels).
var botLevels = []string{"easy", "medium", "hard"}

// BotRatings is every bot level's rating in format f, by level; a level
// that has played no rated game yet is missing.
func (s *Store) BotRatings(f Format) (map[string]BotRating, error) {
	var rs []BotRating
	if err := s.db.Where("format = ?", f).Find(&rs).Error; err != nil {
		return nil, err
	}
	out := make(map[string]BotRating, len(rs))
	for _, r := range rs {
		out[r.Kind] = r
	}
	return out, nil
}

// rateBots rates, in tx, the bot levels and bot accounts seated in
// finished game l from their results against the people at the table:
// every bot seat of a level meets every person who played their own seat
// to the end (not a guest, and established, as for people's ratings), in
// one rating period of the level; a bot account's seat meets them in one
// of its own (rateAccounts). Bots meeting bots, and people's ratings, are
// left alone.
func (s *Store) rateBots(tx *gorm.DB, l *Loaded) error {
	type person struct {
		r    rating.Rating
		rank int
	}
	var people []person
	levels := map[string][]int{} // a level's seats' places
	var accounts []*Seat         // the bot accounts' seats
	f := FormatOf(len(l.Seats))
	for i := range l.Seats {
		seat := &l.Seats[i]
		if level := BotLevel(seat.Bot); level != "" {
			levels[level] = append(levels[level], seat.Place)
			continue
		}
		p := seat.Player()
		if p == nil || seat.Guest || (botFinished(seat) && l.ownTurns(i) < MinRatedTurns) {
			continue
		}
		var u User
		if err := tx.Select("id", "rating", "rating_dev", "rating_vol", "multi_rating", "multi_rating_dev", "multi_rating_vol", "created_at", "guest", "bot_account").Take(&u, *p).Error; err != nil {
			return err
		}
		if u.BotAccount {
			accounts = append(accounts, seat)
			continue
		}
		if u.Guest {
			continue
		}
		if ok, err := s.established(tx, &u, l.Game.ID); err != nil || !ok {
			if err != nil {
				return err
			}
			continue
		}
		r, _, _ := u.RatingIn(f)
		people = append(people, person{r, rank(l, seat)})
	}
	if len(people) == 0 {
		return nil
	}
	// results are a bot seat's against the people, from its rank.
	results := func(rank int) []rating.Result {
		var out []rating.Result
		for _, p := range people {
			score := 0.5
			switch {
			case rank < p.rank:
				score = 1
			case rank > p.rank:
				score = 0
			}
			out = append(out, rating.Result{Opponent: p.r, Score: score})
		}
		return out
	}
	if err := s.rateAccounts(tx, f, l, accounts, results); err != nil {
		return err
	}
	for _, level := range botLevels { // in one order: two games ending together lock the rows alike
		places, ok := levels[level]
		if !ok {
			continue
		}
		// The level's first rated game makes its row; two games ending
		// together then rate the level one after the other.
		r := BotRating{Kind: level, Format: f, Rating: rating.New.R, RatingDev: rating.New.RD, RatingVol: rating.New.Vol}
		if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&r).Error; err != nil {
			return err
		}
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("kind = ? AND format = ?", level, f).Take(&r).Error; err != nil {
			return err
		}
		var rs []rating.Result
		for _, place := range places {
			rs = append(rs, results(place)...)
		}
		after := rating.Update(r.Of(), rs)
		now := s.now()
		err := tx.Model(&BotRating{}).Where("kind = ? AND format = ?", level, f).Updates(map[string]any{
			"rating": after.R, "rating_dev": after.RD, "rating_vol": after.Vol, "games": r.Games + 1, "rated_at": now}).Error
		if err != nil {
			return err
		}
	}
	return nil
}

// rank is seat's rank in finished game l for the ratings: its place, or
// behind every seat played to the end when the stand-in finished it.
func rank(l *Loaded, seat *Seat) int {
	if botFinished(seat) {
		return len(l.Seats) + 1
	}
	return seat.Place
}

// rateAccounts rates, in tx, the bot accounts of seats (in game l, of
// format f) from their results against the game's people: a rating
// period of each, kept in its own rating columns and on the seat.
func (s *Store) rateAccounts(tx *gorm.DB, f Format, l *Loaded, seats []*Seat, results func(rank int) []rating.Result) error {
	slices.SortFunc(seats, func(a, b *Seat) int { return cmp.Compare(*a.Player(), *b.Player()) }) // rows locked in one order
	cols := f.columns()
	for _, seat := range seats {
		var u User
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Select("id", cols.rating, cols.dev, cols.vol).Take(&u, *seat.Player()).Error; err != nil {
			return err
		}
		before, _, _ := u.RatingIn(f)
		if err := s.keepRating(tx, f, seat, u.ID, before, rating.Update(before, results(rank(l, seat)))); err != nil {
			return err
		}
	}
	return nil
}
