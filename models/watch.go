package models

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

// PublicGames lists, limit at a time from offset, the public games being
// played, the newest first, and how many there are. (Newest by id, which
// the status index keeps in order: ordering by the latest move would need
// an index that every move writes to.)
func (s *Store) PublicGames(offset, limit int) ([]GameSummary, int, error) {
	q := s.db.Model(&Game{}).Where("status = ? AND private = ?", StatusActive, false)
	total, err := count(q)
	if err != nil {
		return nil, 0, err
	}
	var games []Game
	if err := q.Preload("Seats").Order("id DESC").Offset(offset).Limit(limit).Find(&games).Error; err != nil {
		return nil, 0, err
	}
	return summaries(games), total, nil
}
