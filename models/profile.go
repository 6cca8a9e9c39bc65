package models

import (
	"slices"
	"time"
)

// Stats is what a profile tells of a player's finished games: how many,
// how many they won (a shared first place counts), in each place
// (Places[0] first), their average total, and how many they resigned or
// let time run out in (each timeout counted). A seat the stand-in bot
// finished for its player (resigned, or away to the end) is lost, as the
// rating counts it: in no place, whatever the bot made of it.
type Stats struct {
	Finished, Wins         int
	Places                 [4]int
	AverageScore           float64
	Resignations, Timeouts int
}

// statsPlace is a seat's place as Stats counts it: 0 for one the bot
// finished.
const statsPlace = "CASE WHEN " + botFinishedSQL + " THEN 0 ELSE seats.place END"

// Stats counts userID's finished games, in one reading of their seats.
func (s *Store) Stats(userID uint) (Stats, error) {
	var st Stats
	var rows []struct {
		Place, N, Resigned, Timeouts int
		Sum                          float64
	}
	err := s.db.Model(&Seat{}).
		Select(statsPlace+" AS place, COUNT(*) AS n, SUM(seats.score) AS sum, SUM(CASE WHEN seats.resigned_id IS NOT NULL THEN 1 ELSE 0 END) AS resigned, SUM(seats.timed_out) AS timeouts").
		Joins("JOIN games ON games.id = seats.game_id AND games.status = ? AND games.scored = ?", StatusFinished, true).
		Where("seats.user_id = ? OR seats.resigned_id = ?", userID, userID).Group(statsPlace).Scan(&rows).Error
	var sum float64
	for _, r := range rows {
		st.Finished += r.N
		st.Resignations += r.Resigned
		st.Timeouts += r.Timeouts
		sum += r.Sum
		if r.Place >= 1 && r.Place <= len(st.Places) {
			st.Places[r.Place-1] = r.N
		}
	}
	st.Wins = st.Places[0]
	if st.Finished > 0 {
		st.AverageScore = sum / float64(st.Finished)
	}
	return st, err
}

// RatingPoint is a player's rating before and after one rated game.
type RatingPoint struct {
	GameID   uint
	At       time.Time
	From, To float64
}

// RatingHistory returns userID's latest limit rated games of format f,
// oldest first.
func (s *Store) RatingHistory(userID uint, f Format, limit int) ([]RatingPoint, error) {
	var pts []RatingPoint
	players := "games.num_players = 2"
	if f == MorePlayers {
		players = "games.num_players > 2"
	}
	err := s.db.Model(&Seat{}).Select("seats.game_id AS game_id, games.finished_at AS at, seats.rated_from AS \"from\", seats.rated_to AS \"to\"").
		Joins("JOIN games ON games.id = seats.game_id AND "+players).
		Where("(seats.user_id = ? OR seats.resigned_id = ?) AND seats.rated_to > 0", userID, userID).
		Order("games.finished_at DESC, games.id DESC").Limit(limit).Scan(&pts).Error
	slices.Reverse(pts)
	return pts, err
}

// Ratings returns the ratings of users ids (of both formats), by id.
func (s *Store) Ratings(ids []uint) (map[uint]User, error) {
	out := map[uint]User{}
	if len(ids) == 0 {
		return out, nil
	}
	var us []User
	if err := s.db.Select("id", "rating", "rated_games", "multi_rating", "multi_rated_games").Where("id IN ?", ids).Find(&us).Error; err != nil {
		return nil, err
	}
	for _, u := range us {
		out[u.ID] = u
	}
	return out, nil
}
