package models

import (
	"slices"
	"sort"
	"time"

	"gorm.io/gorm"
)

// GameSummary is a line of a games list.
type GameSummary struct {
	Game         Game
	Seats        []Seat
	MySeat       int
	WaitingOnMe  bool
	WaitingSince *time.Time
	Deadline     *time.Time // when my time for it runs out (nil: no limit)
	ChatUnread   int        // messages of its chat I have not seen
	Resigned     bool       // I resigned my seat: the stand-in bot plays it
}

// MyGames lists, limit at a time from offset, the games not over in which
// user has a seat, or resigned one: those waiting on them first, the
// longest waiting first, then the others, most recently changed first;
// and how many there are in all. The order is the database's, so a page
// reads only its games (and their seats, in one more statement).
func (s *Store) MyGames(userID uint, offset, limit int) ([]GameSummary, int, error) {
	q := s.mine(userID, true, StatusOpen, StatusActive)
	total, err := count(q)
	if err != nil {
		return nil, 0, err
	}
	const waiting = "games.status = 'active' AND me.waiting_since IS NOT NULL AND me.user_id IS NOT NULL" // as GameSummary.WaitingOnMe
	var games []Game
	err = q.Preload("Seats").Select("games.*").
		Order("CASE WHEN " + waiting + " THEN 0 ELSE 1 END").
		Order("CASE WHEN " + waiting + " THEN me.waiting_since END").
		Order("games.updated_at DESC, games.id DESC").Offset(offset).Limit(limit).Find(&games).Error
	if err != nil {
		return nil, 0, err
	}
	return mySummaries(games, userID), total, nil
}

// HistoryFilter narrows a list of finished games: to those with the
// player Opponent (0: anyone), of Players players (0: any number), and
// those the user won (Result "won") or did not ("lost"; "" either). With
// Public, the list is read by Reader (nil: nobody signed in) on the
// player's profile: a private game is listed only to its players and to
// admins, who alone may open it (Watchable).
type HistoryFilter struct {
	Opponent uint
	Players  int
	Result   string
	Public   bool
	Reader   *User
}

// MyFinished lists, limit at a time from offset, the games over (finished
// or ended) in which user has a seat that pass f, latest first, and how
// many there are in all; a limit below 0 lists them all.
func (s *Store) MyFinished(userID uint, f HistoryFilter, offset, limit int) ([]GameSummary, int, error) {
	q := s.mine(userID, true, StatusFinished, StatusEnded)
	if f.Opponent != 0 {
		q = q.Where("EXISTS (SELECT 1 FROM seats o WHERE o.game_id = games.id AND (o.user_id = ? OR o.resigned_id = ?))", f.Opponent, f.Opponent)
	}
	if f.Players != 0 {
		q = q.Where("games.num_players = ?", f.Players)
	}
	if f.Public && (f.Reader == nil || !f.Reader.Admin) {
		var reader uint // 0: nobody's seat
		if f.Reader != nil {
			reader = f.Reader.ID
		}
		q = q.Where("(games.private = ? OR EXISTS (SELECT 1 FROM seats r WHERE r.game_id = games.id AND (r.user_id = ? OR r.resigned_id = ?)))", false, reader, reader)
	}
	switch f.Result {
	case "won": // a seat the stand-in bot finished is lost (Stats)
		q = q.Where("me.place = 1 AND me.resigned_id IS NULL AND NOT me.abandoned")
	case "lost":
		q = q.Where("(me.place > 1 OR me.resigned_id IS NOT NULL OR me.abandoned)")
	}
	total, err := count(q)
	if err != nil {
		return nil, 0, err
	}
	var games []Game
	// finished_at is written from the store's clock in UTC: its text sorts
	// as the time.
	err = q.Preload("Seats").Select("games.*").Order("games.finished_at DESC, games.id DESC").Offset(offset).Limit(limit).Find(&games).Error
	if err != nil {
		return nil, 0, err
	}
	return mySummaries(games, userID), total, nil
}

// mine is the query of the games of statuses in which user has a seat
// ("me" is their seat), or with resigned, had one they resigned.
func (s *Store) mine(userID uint, resigned bool, statuses ...string) *gorm.DB {
	on := "JOIN seats me ON me.game_id = games.id AND me.user_id = ?"
	args := []any{userID}
	if resigned {
		on, args = "JOIN seats me ON me.game_id = games.id AND (me.user_id = ? OR me.resigned_id = ?)", []any{userID, userID}
	}
	return s.db.Model(&Game{}).Joins(on, args...).Where("games.status IN ?", statuses)
}

// AccountGames lists every game in which user has a seat or resigned one,
// whatever its status, the newest first: the account's own data.
func (s *Store) AccountGames(userID uint) ([]GameSummary, error) {
	var games []Game
	err := s.mine(userID, true, StatusOpen, StatusActive, StatusFinished, StatusEnded).Preload("Seats").Select("games.*").
		Order("games.id DESC").Find(&games).Error
	if err != nil {
		return nil, err
	}
	return mySummaries(games, userID), nil
}

// count is how many rows q finds.
func count(q *gorm.DB) (int, error) {
	var n int64
	err := q.Session(&gorm.Session{}).Count(&n).Error
	return int(n), err
}

// mySummaries lists games as user sees them in their lists (their seat:
// the one they play or resigned).
func mySummaries(games []Game, userID uint) []GameSummary {
	out := make([]GameSummary, 0, len(games))
	for _, g := range games {
		i := slices.IndexFunc(g.Seats, func(seat Seat) bool { return seat.Player() != nil && *seat.Player() == userID })
		if i < 0 {
			continue
		}
		me := g.Seats[i]
		gs := GameSummary{Game: g, Seats: g.Seats, MySeat: me.Index, WaitingSince: me.WaitingSince, Deadline: me.Deadline, ChatUnread: me.ChatUnread,
			Resigned: me.ResignedID != nil}
		gs.WaitingOnMe = me.WaitingSince != nil && g.Status == StatusActive && !gs.Resigned
		sortSeats(gs.Seats, g.Status)
		out = append(out, gs)
	}
	return out
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

// PlayedBy reports whether user played one of seats: holds it, or held it
// until they resigned it.
func PlayedBy(seats []Seat, user uint) bool {
	return slices.ContainsFunc(seats, func(seat Seat) bool { p := seat.Player(); return p != nil && *p == user })
}

// Invitations lists, limit at a time from offset, the open games that keep
// a seat for user, newest first, and how many there are in all.
func (s *Store) Invitations(userID uint, offset, limit int) ([]GameSummary, int, error) {
	q := s.db.Model(&Game{}).Where("status = ? AND id IN (?)", StatusOpen,
		s.db.Model(&Seat{}).Select("game_id").Where("invited_id = ?", userID))
	total, err := count(q)
	if err != nil {
		return nil, 0, err
	}
	var games []Game
	if err := q.Preload("Seats").Order("created_at desc, id desc").Offset(offset).Limit(limit).Find(&games).Error; err != nil {
		return nil, 0, err
	}
	return summaries(games), total, nil
}

// Vacations returns when the last vacation of each of users who took one
// ends, over or not: a seat's clock tells of one not over, a hand-over
// does not count the days of either.
func (s *Store) Vacations(users []uint) (map[uint]time.Time, error) {
	out := map[uint]time.Time{}
	if len(users) == 0 {
		return out, nil
	}
	var us []User
	if err := s.db.Select("id", "vacation_until").Where("id IN ? AND vacation_until IS NOT NULL", users).Find(&us).Error; err != nil {
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

// OpenGames lists, limit at a time from offset, the tables of the lobby
// that viewer may join: public, with a seat open to anyone, and none of
// theirs; newest first, and how many there are.
func (s *Store) OpenGames(viewer uint, offset, limit int) ([]GameSummary, int, error) {
	q := s.db.Model(&Game{}).Where("status = ? AND private = ?", StatusOpen, false).
		Where("id IN (?)", s.db.Model(&Seat{}).Select("game_id").Where("user_id IS NULL AND bot = '' AND invited_id IS NULL")).
		Where("id NOT IN (?)", s.db.Model(&Seat{}).Select("game_id").Where("user_id = ? OR invited_id = ?", viewer, viewer))
	total, err := count(q)
	if err != nil {
		return nil, 0, err
	}
	var games []Game
	if err := q.Preload("Seats").Order("created_at desc, id desc").Offset(offset).Limit(limit).Find(&games).Error; err != nil {
		return nil, 0, err
	}
	return summaries(games), total, nil
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
