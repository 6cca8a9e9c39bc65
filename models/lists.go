package models

import (
	"sort"
	"time"
)

// GameSummary is a line of a games list.
type GameSummary struct {
	Game         Game
	Seats        []Seat
	MySeat       int
	WaitingOnMe  bool
	WaitingSince *time.Time
	Deadline     *time.Time // when my time for it runs out (nil: no limit)
}

// MyGames lists the games user has a seat in: those waiting on them first,
// oldest wait first, then the others, most recently changed first. Of the
// finished games it takes the latest, at most finished of them (all when
// finished < 0), and it says how many finished games the user has in all
// (0 when finished is 0: then it reads none of them).
// It reads the games and their seats in a few statements whatever their
// number (one per game made the home page of a seasoned player slow).
func (s *Store) MyGames(userID uint, finished int) ([]GameSummary, int, error) {
	mine := s.db.Model(&Seat{}).Select("game_id").Where("user_id = ?", userID)
	over := []string{StatusFinished, StatusEnded}
	var games []Game
	if err := s.db.Preload("Seats").Where("status IN ? AND id IN (?)", []string{StatusOpen, StatusActive}, mine).Find(&games).Error; err != nil {
		return nil, 0, err
	}
	var total int64
	if finished != 0 {
		if err := s.db.Model(&Game{}).Where("status IN ? AND id IN (?)", over, mine).Count(&total).Error; err != nil {
			return nil, 0, err
		}
	}
	if finished != 0 && total > 0 {
		var done []Game
		// finished_at is written from the store's clock in UTC: its text
		// sorts as the time.
		q := s.db.Preload("Seats").Where("status IN ? AND id IN (?)", over, mine).Order("finished_at DESC, id DESC")
		if finished > 0 {
			q = q.Limit(finished)
		}
		if err := q.Find(&done).Error; err != nil {
			return nil, 0, err
		}
		// A game that finished between the reads is listed once, finished.
		listed := make(map[uint]int, len(games))
		for i, g := range games {
			listed[g.ID] = i
		}
		for _, g := range done {
			if i, ok := listed[g.ID]; ok {
				games[i] = g
				continue
			}
			games = append(games, g)
		}
	}
	out := make([]GameSummary, 0, len(games))
	for _, g := range games {
		i := UserSeat(g.Seats, userID)
		if i < 0 {
			continue
		}
		me := g.Seats[i]
		gs := GameSummary{Game: g, Seats: g.Seats, MySeat: me.Index, WaitingSince: me.WaitingSince, Deadline: me.Deadline}
		gs.WaitingOnMe = me.WaitingSince != nil && g.Status == StatusActive
		sortSeats(gs.Seats, g.Status)
		out = append(out, gs)
	}
	sort.SliceStable(out, func(a, b int) bool {
		x, y := out[a], out[b]
		if x.WaitingOnMe != y.WaitingOnMe {
			return x.WaitingOnMe
		}
		if x.WaitingOnMe {
			return x.WaitingSince.Before(*y.WaitingSince)
		}
		if !x.Game.UpdatedAt.Equal(y.Game.UpdatedAt) {
			return x.Game.UpdatedAt.After(y.Game.UpdatedAt)
		}
		return x.Game.ID > y.Game.ID
	})
	return out, int(total), nil
}

// UserSeat is the position in seats of user's seat, or -1.
func UserSeat(seats []Seat, userID uint) int {
	for i, seat := range seats {
		if seat.UserID != nil && *seat.UserID == userID {
			return i
		}
	}
	return -1
}

// Invitations lists the open games that keep a seat for user, newest first.
func (s *Store) Invitations(userID uint) ([]GameSummary, error) {
	var games []Game
	err := s.db.Preload("Seats").Where("status = ? AND id IN (?)", StatusOpen,
		s.db.Model(&Seat{}).Select("game_id").Where("invited_id = ?", userID)).Order("created_at desc").Find(&games).Error
	if err != nil {
		return nil, err
	}
	return summaries(games), nil
}

// Vacations returns when the vacations of those of users who are on
// vacation end.
func (s *Store) Vacations(users []uint) (map[uint]time.Time, error) {
	out := map[uint]time.Time{}
	if len(users) == 0 {
		return out, nil
	}
	var us []User
	if err := s.db.Select("id", "vacation_until").Where("id IN ? AND vacation_until > ?", users, s.now()).Find(&us).Error; err != nil {
		return nil, err
	}
	for _, u := range us {
		out[u.ID] = *u.VacationUntil
	}
	return out, nil
}

// GameVersion returns a game's current version.
func (s *Store) GameVersion(id uint) (int, error) {
	var g Game
	err := s.db.Select("id", "version").Take(&g, id).Error
	return g.Version, notFound(err)
}

// GameByInvite returns the game an invite token opens, with its seats.
func (s *Store) GameByInvite(token string) (*Game, error) {
	var g Game
	if err := s.db.Preload("Seats").Where("invite_token = ?", token).Take(&g).Error; err != nil {
		return nil, notFound(err)
	}
	sortSeats(g.Seats, g.Status)
	return &g, nil
}

// OpenGames lists games with an open seat, newest first.
func (s *Store) OpenGames() ([]GameSummary, error) {
	var games []Game
	if err := s.db.Preload("Seats").Where("status = ? AND private = ?", StatusOpen, false).Order("created_at desc").Limit(100).Find(&games).Error; err != nil {
		return nil, err
	}
	return summaries(games), nil
}

// summaries lists games for someone without a seat in them.
func summaries(games []Game) []GameSummary {
	out := make([]GameSummary, 0, len(games))
	for _, g := range games {
		sortSeats(g.Seats, g.Status)
		out = append(out, GameSummary{Game: g, Seats: g.Seats, MySeat: -1})
	}
	return out
}

func sortSeats(seats []Seat, status string) {
	sort.Slice(seats, func(a, b int) bool {
		if status == StatusOpen {
			return seats[a].Slot < seats[b].Slot
		}
		return seats[a].Index < seats[b].Index
	})
}
