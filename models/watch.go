package models

// CanWatch reports whether u (nil: nobody signed in) may see game id: a
// public game anyone may; a private one only its players, those invited
// to it, and admins. A game that does not exist is ErrNotFound.
func (s *Store) CanWatch(id uint, u *User) (bool, error) {
	var g Game
	if err := s.db.Select("id", "private").Take(&g, id).Error; err != nil {
		return false, notFound(err)
	}
	if !g.Private {
		return true, nil
	}
	if u == nil {
		return false, nil
	}
	if u.Admin {
		return true, nil
	}
	var n int64
	err := s.db.Model(&Seat{}).Where("game_id = ? AND (user_id = ? OR resigned_id = ? OR invited_id = ?)", id, u.ID, u.ID, u.ID).Count(&n).Error
	return n > 0, err
}

// PublicGames lists, limit at a time from offset, the public games being
// played, the latest moved first, and how many there are.
func (s *Store) PublicGames(offset, limit int) ([]GameSummary, int, error) {
	q := s.db.Model(&Game{}).Where("status = ? AND private = ?", StatusActive, false)
	total, err := count(q)
	if err != nil {
		return nil, 0, err
	}
	var games []Game
	if err := q.Preload("Seats").Order("updated_at DESC, id DESC").Offset(offset).Limit(limit).Find(&games).Error; err != nil {
		return nil, 0, err
	}
	return summaries(games), total, nil
}
