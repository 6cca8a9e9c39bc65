package models

import (
	"time"

	"gorm.io/gorm"

	"cacao/models/rating"
)

// BoardActive is how recently a player's last rated game of a format must
// have ended for them to be on its leaderboard.
const BoardActive = 90 * 24 * time.Hour

// Leader is a player on a leaderboard.
type Leader struct {
	Name   string
	Rating float64
	Games  int
}

// Leaderboard lists, limit at a time from offset, the players of format f
// whose last rated game of it ended in the last BoardActive, not banned,
// the highest rating first: those whose rating is established (from
// rating.Provisional games or more), or, with provisional, those whose
// rating is still provisional, ranked apart. It also says how many there
// are in all.
func (s *Store) Leaderboard(f Format, provisional bool, offset, limit int) ([]Leader, int, error) {
	cols := f.columns()
	q := s.board(f, provisional)
	total, err := count(q)
	if err != nil {
		return nil, 0, err
	}
	var out []Leader
	err = q.Select("username AS name, " + cols.rating + " AS rating, " + cols.games + " AS games").
		Order(cols.rating + " DESC, id").Offset(offset).Limit(limit).Scan(&out).Error
	return out, total, err
}

// BoardPlace is u's place (1 first, a tie shared) among the established
// ratings of format f's leaderboard: 0 when they are not on it.
func (s *Store) BoardPlace(u *User, f Format) (int, error) {
	r, games, when := u.RatingIn(f)
	if games < rating.Provisional || when == nil || when.Before(s.now().Add(-BoardActive)) || u.BannedAt != nil || u.BotAccount {
		return 0, nil
	}
	return s.BoardRank(f, false, r.R)
}

// BoardRank is the place on format f's leaderboard (of provisional
// ratings, or established) of a player rated r: one more than how many
// are rated higher, a tie shared.
func (s *Store) BoardRank(f Format, provisional bool, r float64) (int, error) {
	above, err := count(s.board(f, provisional).Where(f.columns().rating+" > ?", r))
	return above + 1, err
}

// board is the query of format f's leaderboard (Leaderboard).
func (s *Store) board(f Format, provisional bool) *gorm.DB {
	cols := f.columns()
	// The games > 0 term lets the index of rated players (twoRatings) serve.
	q := s.db.Model(&User{}).Where(cols.games+" > 0 AND "+cols.at+" >= ? AND banned_at IS NULL AND NOT bot_account", s.now().Add(-BoardActive))
	if provisional {
		return q.Where(cols.games+" < ?", rating.Provisional)
	}
	return q.Where(cols.games+" >= ?", rating.Provisional)
}
