package models

import (
	"errors"
	"strings"
	"time"

	"gorm.io/gorm"
)

// GuestLife is how long a guest plays: their session signs them in for
// that long after they came, and then the worker gives their running seats
// to the stand-in bot (ExpireGuests). Making an account keeps everything.
const GuestLife = 30 * day

// Refusals of what guests may not do, and of making an account of one.
var (
	ErrGuestTable  = invalid("a guest plays bots and takes the seats they are invited to: make an account to open a table for other players")
	ErrGuestPublic = invalid("a guest takes a seat through the invitation link of a private table: make an account to join public tables")
	ErrGuestChat   = invalid("a guest chats at the private tables they were invited to: make an account to chat here")
	ErrGuestOnly   = invalid("this is for guests: you have an account already")
)

// GuestUntil is when u's guest seat ends (GuestLife after they came).
func (u *User) GuestUntil() time.Time { return u.CreatedAt.Add(GuestLife) }

// GuestExpired reports whether u is a guest whose time is over at now: no
// session signs them in any more.
func (u *User) GuestExpired(now time.Time) bool { return u.Guest && !now.Before(u.GuestUntil()) }

// CheckGuestName refuses a guest's name CreateGuest would refuse (as an
// account's name); nil when it is free now.
func (s *Store) CheckGuestName(name string) error {
	name = strings.TrimSpace(name)
	if err := ValidateUsername(name); err != nil {
		return err
	}
	return s.nameFree(s.db, name)
}

// CreateGuest makes a guest called name: a user marked Guest, with no
// password (none logs them in) and no channel but the site's notices. A
// guest's name is an account's name, taken like one, so that the seats,
// the chat and the profile name them as they name everyone; it stays
// theirs when they make an account (BecomeAccount).
func (s *Store) CreateGuest(name string) (*User, error) {
	name = strings.TrimSpace(name)
	if err := ValidateUsername(name); err != nil {
		return nil, err
	}
	key := nameKey(name)
	u := &User{Username: name, NameKey: &key, PasswordHash: []byte{}, Guest: true, CreatedAt: s.now()}
	err := s.transaction(func(tx *gorm.DB) error {
		if err := s.nameFree(tx, name); err != nil {
			return err
		}
		return tx.Create(u).Error
	})
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return nil, ErrUsernameTaken
	}
	if err != nil {
		return nil, err
	}
	return u, nil
}

// BecomeAccount makes guest id an account called name (their own name, or
// another that is free) with password: their games, seats, messages and
// notices stay theirs, their seats are no longer marked, and from now on
// they log in as anyone, are rated, and choose their channels. The
// account's age (RatedAge) counts from now. ErrGuestOnly when id is an
// account already (a second submit of the form), and nothing changes.
func (s *Store) BecomeAccount(id uint, name, password string) (*User, error) {
	name = strings.TrimSpace(name)
	if err := ValidateUsername(name); err != nil {
		return nil, err
	}
	u, err := s.UserByID(id)
	if err != nil {
		return nil, err
	}
	if !u.Guest {
		return nil, ErrGuestOnly
	}
	if name != u.Username {
		if err := s.nameFree(s.db, name); err != nil {
			// Taken by this guest's own account, made meanwhile by another
			// submit, is a second submit.
			if again, e := s.UserByID(id); e == nil && !again.Guest {
				return nil, ErrGuestOnly
			}
			return nil, err
		}
	}
	hash, err := s.hashPassword(password)
	if err != nil {
		return nil, err
	}
	err = s.transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, id); err != nil {
			return err
		}
		var now User // as another submit may have left it
		if err := tx.Select("id", "username", "guest").Take(&now, id).Error; err != nil {
			return err
		}
		if !now.Guest {
			return ErrGuestOnly
		}
		if name != now.Username {
			if err := s.nameFree(tx, name); err != nil {
				return err
			}
		}
		key := nameKey(name)
		res := tx.Model(&User{}).Where("id = ? AND guest = ?", id, true).Updates(map[string]any{
			"guest": false, "username": name, "name_key": key, "password_hash": hash, "created_at": s.now()})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected != 1 {
			return ErrGuestOnly // made an account meanwhile
		}
		err := tx.Model(&Seat{}).Where("user_id = ? OR resigned_id = ?", id, id).Updates(map[string]any{"guest": false, "name": name}).Error
		if err != nil {
			return err
		}
		return tx.Model(&ChatMessage{}).Where("user_id = ?", id).Update("name", name).Error
	})
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return nil, ErrUsernameTaken
	}
	if err != nil {
		return nil, err
	}
	return s.UserByID(id)
}

// ExpireGuests ends up to limit guests whose GuestLife is over and who
// still hold something: the stand-in bot takes their seats in running
// games (as when resigning, the others told), their tables not started are
// cancelled, the seats they took or were invited to at others' tables are
// open again, and their sessions end. It returns the running games whose
// seat went to the bot, for their bots to play on. A guest ended so keeps
// their finished games, under their name.
func (s *Store) ExpireGuests(limit int) ([]uint, error) {
	notOver := s.db.Model(&Game{}).Select("id").Where("status IN ?", []string{StatusOpen, StatusActive})
	seated := s.db.Model(&Seat{}).Select("user_id").Where("user_id IS NOT NULL AND game_id IN (?)", notOver)
	invited := s.db.Model(&Seat{}).Select("invited_id").Where("invited_id IS NOT NULL AND game_id IN (?)", notOver)
	signedIn := s.db.Model(&Login{}).Select("user_id")
	var us []User
	err := s.db.Where("guest = ? AND created_at <= ?", true, s.now().Add(-GuestLife)).
		Where("id IN (?) OR id IN (?) OR id IN (?)", seated, invited, signedIn).Order("id").Limit(limit).Find(&us).Error
	if err != nil {
		return nil, err
	}
	var running []uint
	for i := range us {
		u := &us[i]
		games, err := s.leaveAll(u, func(tx *gorm.DB, p *people, g *Game, to uint) error {
			return s.notify(tx, p, to, g.ID, KindCancelled, "%s cancelled game %d before it started.", u.Username, g.ID)
		})
		if err != nil {
			return running, err
		}
		running = append(running, games...)
		err = s.transaction(func(tx *gorm.DB) error {
			if err := endSessions(tx, u.ID); err != nil {
				return err
			}
			return tx.Model(&User{}).Where("id = ?", u.ID).Update("token_version", gorm.Expr("token_version + 1")).Error
		})
		if err != nil {
			return running, err
		}
	}
	return running, nil
}
