package models

import "gorm.io/gorm"

// CanWatch reports whether u (nil: nobody signed in) may see game id (see
// Watchable). A game that does not exist is ErrNotFound.
func (s *Store) CanWatch(id uint, u *User) (bool, error) {
	var g Game
	if err := s.db.Select("id", "private").Take(&g, id).Error; err != nil {
		return false, notFound(err)
	}
	var seats []Seat
	if g.Private && u != nil {
		if err := s.db.Where("game_id = ?", id).Find(&seats).Error; err != nil {
			return false, err
		}
	}
	return Watchable(g, seats, u), nil
}

// Watchable reports whether u (nil: nobody signed in) may see game g, of
// seats: a public game anyone may; a private one only its players, those
// invited to it, and admins.
func Watchable(g Game, seats []Seat, u *User) bool {
	if !g.Private {
		return true
	}
	if u == nil {
		return false
	}
	if u.Admin {
		return true
	}
	for _, seat := range seats {
		for _, id := range []*uint{seat.UserID, seat.ResignedID, seat.InvitedID} {
			if id != nil && *id == u.ID {
				return true
			}
		}
	}
	return false
}

// PublicCounted is how many public games beyond a page PublicGames counts
// at most: a list of thousands says "more than", and counting them all
// would cost each look at it as much as there are games being played.
const PublicCounted = 1000

// PublicGames lists, limit at a time from offset, the public games being
// played, the newest first, and how many there are up to PublicCounted
// beyond the page: more says that there are more than total. (Newest by
// id, which the index keeps in order: ordering by the latest move would
// need an index that every move writes to.)
func (s *Store) PublicGames(offset, limit int) (games []GameSummary, total int, more bool, err error) {
	q := s.db.Model(&Game{}).Where("status = ? AND private = ?", StatusActive, false)
	upTo := offset + limit + PublicCounted
	var n int64
	if err := s.db.Table("(?) AS page", q.Session(&gorm.Session{}).Select("1").Limit(upTo)).Count(&n).Error; err != nil {
		return nil, 0, false, err
	}
	var rows []Game
	if err := q.Preload("Seats").Order("id DESC").Offset(offset).Limit(limit).Find(&rows).Error; err != nil {
		return nil, 0, false, err
	}
	return summaries(rows), int(n), int(n) == upTo, nil
}
