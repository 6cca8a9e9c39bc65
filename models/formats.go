package models

import (
	"time"

	"cacao/models/rating"
)

// Format is a kind of game rated apart: two players, or three or four.
type Format int

// The formats.
const (
	TwoPlayers Format = iota
	MorePlayers
)

// FormatOf is the format of a game of n players.
func FormatOf(n int) Format {
	if n > 2 {
		return MorePlayers
	}
	return TwoPlayers
}

// formatColumns are the columns of users that keep a format's rating.
type formatColumns struct{ rating, dev, vol, games, at string }

func (f Format) columns() formatColumns {
	if f == MorePlayers {
		return formatColumns{"multi_rating", "multi_rating_dev", "multi_rating_vol", "multi_rated_games", "multi_rated_at"}
	}
	return formatColumns{"rating", "rating_dev", "rating_vol", "rated_games", "rated_at"}
}

// RatingIn is u's rating in format f, from how many games, the last ending
// when (nil: none yet).
func (u *User) RatingIn(f Format) (r rating.Rating, games int, when *time.Time) {
	if f == MorePlayers {
		return rating.Rating{R: u.MultiRating, RD: u.MultiRatingDev, Vol: u.MultiRatingVol}, u.MultiRatedGames, u.MultiRatedAt
	}
	return rating.Rating{R: u.Rating, RD: u.RatingDev, Vol: u.RatingVol}, u.RatedGames, u.RatedAt
}
