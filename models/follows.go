package models

import (
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Follow is a player following another (one way, as on lichess): they are
// told when the other opens a public table, and list them with their last
// visit.
type Follow struct {
	UserID     uint `gorm:"primaryKey;autoIncrement:false"`
	FollowedID uint `gorm:"primaryKey;autoIncrement:false;index"`
	CreatedAt  time.Time
}

// MaxFollows is how many players one may follow; FollowNews, how many of a
// player's followers (the latest) are told of a public table they open,
// and FollowQuiet, how long until they are told of another.
const (
	MaxFollows  = 500
	FollowNews  = 1000
	FollowQuiet = 6 * time.Hour
)

// Refusals of a follow.
var (
	ErrFollowSelf  = invalid("you cannot follow yourself")
	ErrFollowMany  = invalid("you follow %d players already: unfollow one first", MaxFollows)
	ErrFollowGuest = invalid("guests neither follow players nor are followed")
)

// FollowUser has user follow the player called name: not themselves, nor
// someone who blocked them or whom they blocked, no guest either way, and
// at most MaxFollows (counted with user's row locked).
func (s *Store) FollowUser(user *User, name string) error {
	other, err := s.UserNamed(name)
	if err != nil {
		return err
	}
	switch {
	case other.ID == user.ID:
		return ErrFollowSelf
	case user.Guest || other.Guest:
		return ErrFollowGuest
	}
	return s.transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, user.ID); err != nil {
			return err
		}
		var n int64
		if err := tx.Model(&Block{}).Where("user_id = ? AND blocked_id = ? OR user_id = ? AND blocked_id = ?", other.ID, user.ID, user.ID, other.ID).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return invalid("you cannot follow %s", other.Username) // one blocked the other
		}
		if err := tx.Model(&Follow{}).Where("user_id = ?", user.ID).Count(&n).Error; err != nil {
			return err
		}
		if n >= MaxFollows {
			return ErrFollowMany
		}
		return tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&Follow{UserID: user.ID, FollowedID: other.ID, CreatedAt: s.now()}).Error
	})
}

// Unfollow has user follow the player called name no more.
func (s *Store) Unfollow(user uint, name string) error {
	other, err := s.UserNamed(name)
	if err != nil {
		return err
	}
	return s.w.Where("user_id = ? AND followed_id = ?", user, other.ID).Delete(&Follow{}).Error
}

// Follows reports whether user follows other.
func (s *Store) Follows(user, other uint) (bool, error) {
	var n int64
	err := s.db.Model(&Follow{}).Where("user_id = ? AND followed_id = ?", user, other).Count(&n).Error
	return n > 0, err
}

// Followed is a player someone follows: their name and when they were last
// on the site (nil when they hide it, or never signed in since).
type Followed struct {
	Name     string
	Bot      bool // a bot account
	LastSeen *time.Time
}

// Following lists the players user follows, by name, each with their last
// visit unless they hide it.
func (s *Store) Following(user uint) ([]Followed, error) {
	var rows []struct {
		ID           uint
		Username     string
		HideLastSeen bool
		BotAccount   bool
	}
	err := s.db.Model(&User{}).Select("users.id, users.username, users.hide_last_seen, users.bot_account").
		Joins("JOIN follows ON follows.followed_id = users.id AND follows.user_id = ?", user).
		Order("users.username").Limit(MaxFollows).Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	var shown []uint
	for _, r := range rows {
		if !r.HideLastSeen {
			shown = append(shown, r.ID)
		}
	}
	var logins []Login
	if len(shown) > 0 {
		if err := s.db.Select("user_id", "last_seen").Where("user_id IN ?", shown).Find(&logins).Error; err != nil {
			return nil, err
		}
	}
	last := map[uint]time.Time{}
	for _, l := range logins {
		if l.LastSeen.After(last[l.UserID]) {
			last[l.UserID] = l.LastSeen
		}
	}
	out := make([]Followed, len(rows))
	for i, r := range rows {
		out[i].Name, out[i].Bot = r.Username, r.BotAccount
		if at, ok := last[r.ID]; ok {
			out[i].LastSeen = &at
		}
	}
	return out, nil
}

// LastSeen is when u was last on the site, as those who follow them see
// it: nil when they hide it (or never signed in).
func (s *Store) LastSeen(u *User) (*time.Time, error) {
	if u.HideLastSeen {
		return nil, nil
	}
	var at []time.Time
	err := s.db.Model(&Login{}).Where("user_id = ?", u.ID).Order("last_seen DESC").Limit(1).Pluck("last_seen", &at).Error
	if err != nil || len(at) == 0 {
		return nil, err
	}
	return &at[0], nil
}

// SetHideLastSeen keeps whether user hides when they were last on the site
// from those who follow them.
func (s *Store) SetHideLastSeen(user uint, hide bool) error {
	return s.w.Model(&User{}).Where("id = ?", user).Update("hide_last_seen", hide).Error
}

// tellFollowers tells, in tx, the latest FollowNews followers of the
// creator of public table g that it is open: at most once in FollowQuiet,
// so that tables opened and cancelled again and again tell them once.
func (s *Store) tellFollowers(tx *gorm.DB, g *Game, creator *User) error {
	now := s.now()
	res := tx.Model(&User{}).Where("id = ? AND (tables_told_at IS NULL OR tables_told_at <= ?)", creator.ID, now.Add(-FollowQuiet)).
		Update("tables_told_at", now)
	if res.Error != nil || res.RowsAffected == 0 {
		return res.Error
	}
	var ids []uint
	err := tx.Model(&Follow{}).Where("followed_id = ?", creator.ID).Order("created_at DESC").Limit(FollowNews).Pluck("user_id", &ids).Error
	if err != nil || len(ids) == 0 {
		return err
	}
	p, err := peopleIn(tx, nil, append(ids, creator.ID)...) // the creator too: their name is marked
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := s.notify(tx, p, id, g.ID, KindFollowed, "%s, whom you follow, opened a public table: game %d.", creator.Username, g.ID); err != nil {
			return err
		}
	}
	return nil
}
