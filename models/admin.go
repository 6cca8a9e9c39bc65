package models

import (
	"strings"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"
)

// Audit is one line of the admins' audit log: who did what to whom, and
// why. AdminID 0 is the command line (cacao admin).
type Audit struct {
	ID        uint   `gorm:"primaryKey"`
	AdminID   uint   `gorm:"not null"`
	AdminName string `gorm:"not null"`
	Action    string `gorm:"not null"` // one of the Audit* actions
	Target    string `gorm:"not null"` // a username, or "" for a game
	GameID    uint   `gorm:"not null;default:0"`
	Reason    string `gorm:"not null"`
	CreatedAt time.Time
}

// Admin actions, as the audit log names them.
const (
	AuditGrant  = "grant"
	AuditRevoke = "revoke"
	AuditBan    = "ban"
	AuditUnban  = "unban"
	AuditCancel = "cancel"
	AuditEnd    = "end"
	AuditHide   = "hide"    // a reported chat message hidden
	AuditKeep   = "dismiss" // a reported chat message kept
	AuditRename = "rename"  // an account renamed (its new name the target; the reason its old one)
)

// MaxReasonLen bounds the reason an admin gives.
const MaxReasonLen = 300

// Refusals of admin actions.
var (
	ErrNoReason     = invalid("give a reason (at most %d characters): the user is shown it, and the audit log keeps it", MaxReasonLen)
	ErrBanAdmin     = invalid("an admin cannot be banned: revoke their role first")
	ErrNotBanned    = invalid("this account is not banned")
	ErrAdminNotOpen = invalid("only a table that has not started can be cancelled; a running game can be ended")
)

// BannedError refuses a banned user's log-in, with the admin's reason.
type BannedError struct{ Reason string }

func (e *BannedError) Error() string { return "models: banned: " + e.Reason }

// Is makes a BannedError an ErrForbidden.
func (e *BannedError) Is(target error) bool { return target == ErrForbidden }

// SetAdmin grants (admin true) or revokes the admin role of the user called
// name, from the command line; the audit log keeps it.
func (s *Store) SetAdmin(name string, admin bool) (*User, error) {
	var u User
	err := s.transaction(func(tx *gorm.DB) error {
		if err := userNamed(tx, name, &u); err != nil {
			return notFound(err)
		}
		if err := tx.Model(&User{}).Where("id = ?", u.ID).Update("admin", admin).Error; err != nil {
			return err
		}
		u.Admin = admin
		action := map[bool]string{true: AuditGrant, false: AuditRevoke}[admin]
		return tx.Create(&Audit{AdminName: "command line", Action: action, Target: u.Username, CreatedAt: s.now()}).Error
	})
	if err != nil {
		return nil, err
	}
	return &u, nil
}

// RenameUser gives the account named old the name new, from the command
// line (cacao admin rename): new must be a name a sign-up could take. The
// account's seats show the new name; the audit log keeps the old one.
func (s *Store) RenameUser(old, new string) (*User, error) {
	new = strings.TrimSpace(new)
	if err := ValidateUsername(new); err != nil {
		return nil, err
	}
	var u User
	err := s.transaction(func(tx *gorm.DB) error {
		if err := userNamed(tx, old, &u); err != nil {
			return notFound(err)
		}
		if err := s.nameFree(tx, new); err != nil {
			return err
		}
		was := u.Username
		u.Username = new
		key := nameKey(new)
		if err := tx.Model(&User{}).Where("id = ?", u.ID).Updates(map[string]any{"username": new, "name_key": key}).Error; err != nil {
			return err
		}
		if err := tx.Model(&Seat{}).Where("user_id = ?", u.ID).Update("name", new).Error; err != nil {
			return err
		}
		return tx.Create(&Audit{AdminName: "command line", Action: AuditRename, Target: new, Reason: was, CreatedAt: s.now()}).Error
	})
	if err != nil {
		return nil, err
	}
	return &u, nil
}

// reason checks an admin's reason and returns it trimmed.
func reason(r string) (string, error) {
	r = strings.TrimSpace(r)
	if r == "" || utf8.RuneCountInString(r) > MaxReasonLen {
		return "", ErrNoReason
	}
	return r, nil
}

// audit writes one line of the audit log for admin: action on the user
// called target, or on game.
func (s *Store) audit(tx *gorm.DB, admin *User, action, target string, game uint, why string) error {
	return tx.Create(&Audit{AdminID: admin.ID, AdminName: admin.Username, Action: action, Target: target, GameID: game, Reason: why, CreatedAt: s.now()}).Error
}

// Ban bans the user called name, for admin, with a reason the user is
// shown when they try to log in: every session and mail link of theirs
// stops working, their tables not started are cancelled, the seats they
// took or were invited to at others' tables are open again, and in each
// running game the stand-in bot takes their seat (as when resigning). It
// returns the running games whose seat went to the bot, for their bots to
// play on. An admin cannot be banned.
func (s *Store) Ban(admin *User, name, why string) ([]uint, error) {
	why, err := reason(why)
	if err != nil {
		return nil, err
	}
	var u User
	if err := userNamed(s.db, name, &u); err != nil {
		return nil, notFound(err)
	}
	if u.Admin {
		return nil, ErrBanAdmin
	}
	err = s.transaction(func(tx *gorm.DB) error {
		err := tx.Model(&User{}).Where("id = ?", u.ID).Updates(map[string]any{
			"banned_at": s.now(), "ban_reason": why, "token_version": gorm.Expr("token_version + 1")}).Error
		if err != nil {
			return err
		}
		if err := endSessions(tx, u.ID); err != nil {
			return err
		}
		if err := forgetDevices(tx, u.ID); err != nil {
			return err
		}
		return s.audit(tx, admin, AuditBan, u.Username, 0, why)
	})
	if err != nil {
		return nil, err
	}
	return s.leaveAll(&u, func(tx *gorm.DB, p *people, g *Game, to uint) error {
		return s.notify(tx, p, to, g.ID, KindCancelled, "An admin cancelled game %d before it started.", g.ID)
	})
}

// Unban lifts the ban of the user called name, for admin; they may log in
// again (their games stay as the ban left them).
func (s *Store) Unban(admin *User, name string) error {
	var u User
	if err := userNamed(s.db, name, &u); err != nil {
		return notFound(err)
	}
	if u.BannedAt == nil {
		return ErrNotBanned
	}
	return s.transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&User{}).Where("id = ?", u.ID).Updates(map[string]any{"banned_at": nil, "ban_reason": ""}).Error; err != nil {
			return err
		}
		return s.audit(tx, admin, AuditUnban, u.Username, 0, "")
	})
}

// AdminCancel cancels the table id before it starts, for admin with a
// reason; everyone seated or invited is told.
func (s *Store) AdminCancel(admin *User, id uint, why string) error {
	why, err := reason(why)
	if err != nil {
		return err
	}
	_, err = s.dropOpenTable(id, func(tx *gorm.DB, g *Game) error {
		if g.Status != StatusOpen {
			return ErrAdminNotOpen
		}
		return s.audit(tx, admin, AuditCancel, "", id, why)
	}, func(tx *gorm.DB, p *people, g *Game, to uint) error {
		return s.notify(tx, p, to, g.ID, KindCancelled, "An admin cancelled game %d before it started.", g.ID)
	})
	return err
}

// EndGame ends the running game id where it stands, for admin with a
// reason: nobody plays it any more, it has no result, and everyone seated
// is told why. Its hands and piles stay hidden, as in a running game.
func (s *Store) EndGame(admin *User, id uint, why string) error {
	why, err := reason(why)
	if err != nil {
		return err
	}
	var g Game
	err = s.transaction(func(tx *gorm.DB) error {
		if err := takeGame(tx, id, "", &g); err != nil {
			return err
		}
		if g.Status != StatusActive {
			return ErrNotActive
		}
		g.EndReason = why
		if err := s.endGame(tx, &g); err != nil {
			return err
		}
		if err := s.audit(tx, admin, AuditEnd, "", id, why); err != nil {
			return err
		}
		p, err := peopleIn(tx, g.Seats)
		if err != nil {
			return err
		}
		for _, seat := range g.Seats {
			if seat.UserID != nil {
				if err := s.notify(tx, p, *seat.UserID, id, KindEnded, "An admin ended game %d: %s", id, why); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.changed(&g, g.Seats, false)
	return nil
}

// endGame ends running game g (as read, with its EndReason or Aborted set)
// in tx, where it stands, without a result: nobody is waited on any more.
// ErrConflict when it moved since it was read.
func (s *Store) endGame(tx *gorm.DB, g *Game) error {
	now := s.now()
	res := tx.Model(&Game{}).Where("id = ? AND version = ?", g.ID, g.Version).Updates(map[string]any{
		"status": StatusEnded, "end_reason": g.EndReason, "aborted": g.Aborted, "finished_at": now, "version": g.Version + 1, "updated_at": now})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected != 1 {
		return ErrConflict
	}
	g.Status, g.FinishedAt, g.Version = StatusEnded, &now, g.Version+1
	return tx.Model(&Seat{}).Where("game_id = ?", g.ID).Updates(map[string]any{
		"waiting_since": nil, "deadline": nil, "remind_at": nil, "reminded": false}).Error
}

// AuditLog lists the audit log, newest first: limit lines from offset, and
// how many there are in all.
func (s *Store) AuditLog(offset, limit int) ([]Audit, int, error) {
	var out []Audit
	var total int64
	if err := s.db.Model(&Audit{}).Count(&total).Error; err != nil {
		return nil, 0, err
	}
	err := s.db.Order("id DESC").Offset(offset).Limit(limit).Find(&out).Error
	return out, int(total), err
}

// FindUsers lists up to limit users whose name contains q (any capitals),
// from offset, by name, and how many match in all.
func (s *Store) FindUsers(q string, offset, limit int) ([]User, int, error) {
	db := s.db.Model(&User{})
	if q = strings.TrimSpace(q); q != "" {
		like := "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(q) + "%"
		db = db.Where(`lower(username) LIKE lower(?) ESCAPE '\'`, like)
	}
	var total int64
	if err := db.Session(&gorm.Session{}).Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []User
	err := db.Order("username").Offset(offset).Limit(limit).Find(&out).Error
	return out, int(total), err
}

// FindGames lists up to limit games of status (all but finished ones when
// status is ""), newest first, from offset, with their seats, and how many
// there are in all.
func (s *Store) FindGames(status string, offset, limit int) ([]Game, int, error) {
	db := s.db.Model(&Game{})
	if status != "" {
		db = db.Where("status = ?", status)
	} else {
		db = db.Where("status IN ?", []string{StatusOpen, StatusActive})
	}
	var total int64
	if err := db.Session(&gorm.Session{}).Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Game
	err := db.Preload("Seats").Order("id DESC").Offset(offset).Limit(limit).Find(&out).Error
	for i := range out {
		sortSeats(out[i].Seats, out[i].Status)
	}
	return out, int(total), err
}
