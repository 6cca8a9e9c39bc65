package models

import (
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Mail kinds besides the notification kinds (turn, reaction, invited, ...).
const (
	KindVerify = "verify" // confirm an email address
	KindReset  = "reset"  // a link to set a new password
	KindDigest = "digest" // the daily list of games waiting on the user
)

// MailGiveUp is how long the outbox retries a message before marking it
// failed.
const MailGiveUp = 48 * time.Hour

// DueMail returns up to limit outbox messages whose time has come, oldest
// first.
func (s *Store) DueMail(limit int) ([]Mail, error) {
	var ms []Mail
	err := s.db.Where("status = ? AND next_attempt <= ?", MailPending, s.now()).Order("id").Limit(limit).Find(&ms).Error
	return ms, err
}

// ClaimMail takes m for one delivery attempt: it pushes the message's next
// attempt lease into the future, so that another worker skips it. False
// means someone else took it first.
func (s *Store) ClaimMail(m *Mail, lease time.Duration) (bool, error) {
	next := s.now().Add(lease)
	res := s.w.Model(&Mail{}).Where("id = ? AND status = ? AND next_attempt = ?", m.ID, MailPending, m.NextAttempt).
		Updates(map[string]any{"next_attempt": next, "attempts": gorm.Expr("attempts + 1")})
	if res.Error != nil || res.RowsAffected != 1 {
		return false, res.Error
	}
	m.NextAttempt, m.Attempts = next, m.Attempts+1
	return true, nil
}

// MailSent records that m was delivered.
func (s *Store) MailSent(m *Mail) error {
	now := s.now()
	return s.w.Model(&Mail{}).Where("id = ?", m.ID).Updates(map[string]any{"status": MailSent, "sent_at": now, "last_error": ""}).Error
}

// MailHeld puts m off until then (the recipient's quiet hours), its
// claim not counted as an attempt.
func (s *Store) MailHeld(m *Mail, until time.Time) error {
	// In UTC, as every time stored: SQLite compares them as text.
	return s.w.Model(&Mail{}).Where("id = ?", m.ID).Updates(map[string]any{"next_attempt": until.UTC(), "attempts": gorm.Expr("attempts - 1")}).Error
}

// Held reports whether mail of kind waits out its recipient's quiet
// hours: all but the account mail they asked for just now.
func Held(kind string) bool { return kind != KindVerify && kind != KindReset }

// MailSkipped records that m is no longer wanted, and why.
func (s *Store) MailSkipped(m *Mail, why string) error {
	return s.w.Model(&Mail{}).Where("id = ?", m.ID).Updates(map[string]any{"status": MailSkipped, "last_error": why}).Error
}

// MailRetry records a failed attempt: m is tried again after backoff, or
// marked failed once it is older than MailGiveUp.
func (s *Store) MailRetry(m *Mail, cause error) error {
	upd := map[string]any{"last_error": cause.Error(), "next_attempt": s.now().Add(Backoff(m.Attempts))}
	if s.now().Sub(m.CreatedAt) > MailGiveUp {
		upd["status"] = MailFailed
	}
	return s.w.Model(&Mail{}).Where("id = ?", m.ID).Updates(upd).Error
}

// Backoff is the wait after the attempts-th failed attempt: 30 s doubling
// up to an hour.
func Backoff(attempts int) time.Duration {
	d := 30 * time.Second
	for i := 1; i < attempts && d < time.Hour; i++ {
		d *= 2
	}
	return min(d, time.Hour)
}

// MailCount counts outbox messages with a status.
func (s *Store) MailCount(status string) (int64, error) {
	var n int64
	err := s.db.Model(&Mail{}).Where("status = ?", status).Count(&n).Error
	return n, err
}

// Recipient is who an outbox message goes to, as things are when it is sent.
type Recipient struct {
	User User
	To   string
	// Waiting lists the games waiting on the user, Chats those whose chat
	// has messages they have not seen (for a digest).
	Waiting, Chats []GameSummary
}

// MailRecipient decides whether m is still wanted and to which address.
// A non-empty skip says why not: the address is no longer verified or the
// user unsubscribed; a "your turn" the player already opened the game for,
// or that is no longer theirs; a digest with nothing waiting.
func (s *Store) MailRecipient(m *Mail) (r Recipient, skip string, err error) {
	if err := s.db.Take(&r.User, m.UserID).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return r, "the user is gone", nil
		}
		return r, "", err
	}
	u := &r.User
	if m.Kind == KindVerify {
		if u.Email != m.To || u.EmailVerified {
			return r, "the address changed or is verified already", nil
		}
		r.To = m.To
		return r, "", nil
	}
	if m.Kind == KindReset {
		// Whatever mail the user wants: they asked for this one.
		if u.Email != m.To || !u.EmailVerified {
			return r, "the address changed or is no longer verified", nil
		}
		r.To = m.To
		return r, "", nil
	}
	r.To = u.Email
	want := MailEach
	if m.Kind == KindDigest {
		want = MailDigest
	}
	if u.Email == "" || !u.EmailVerified || u.EmailMode != want {
		return r, "the user does not want this mail now", nil
	}
	switch m.Kind {
	case "turn", "reaction", "reminder":
		var seat Seat
		err := s.db.Where("game_id = ? AND user_id = ?", m.GameID, m.UserID).Take(&seat).Error
		if err != nil {
			return r, "", err
		}
		// A wait that began after the mail was written is another wait: the
		// one the mail is about has ended.
		if seat.WaitingSince == nil || seat.WaitingSince.After(m.CreatedAt) {
			return r, "the game no longer waits on the player", nil
		}
		if m.Kind == "reminder" {
			// Held by quiet hours past the time it warns of.
			if seat.Deadline == nil || !seat.Deadline.After(s.now()) {
				return r, "the time it reminds of has run out", nil
			}
		} else if seat.SeenAt != nil && !seat.SeenAt.Before(m.CreatedAt) {
			return r, "the player opened the game since", nil
		}
	case KindDigest:
		// The games waiting on the user come first: a digest lists at most
		// DigestGames of them.
		games, _, err := s.MyGames(m.UserID, 0, DigestGames)
		if err != nil {
			return r, "", err
		}
		for _, g := range games {
			if g.WaitingOnMe {
				r.Waiting = append(r.Waiting, g)
			}
		}
		if r.Chats, err = s.ChatGames(m.UserID, DigestGames); err != nil {
			return r, "", err
		}
		if len(r.Waiting) == 0 && len(r.Chats) == 0 {
			return r, "no game waits on the user and no message is unread", nil
		}
	}
	return r, "", nil
}

// DigestGames bounds the games a digest lists.
const DigestGames = 50

// QueueDigests puts a digest in the outbox for every user who chose one
// and has a game waiting on them or a message unread, in the hour they
// chose of their time zone, at most one a day of theirs (the outbox key is
// the user and their date): a day with nothing to tell then has none. It
// returns how many it queued.
func (s *Store) QueueDigests() (int, error) {
	now := s.now()
	var users []User
	// A digest goes in one hour of the user's day: one sent over an hour
	// ago cannot be this hour's. Which are due is decided in each user's
	// time zone below.
	err := s.db.Select("id", "last_digest_at", "time_zone", "digest_hour").Where("email_mode = ? AND email_verified = ? AND (last_digest_at IS NULL OR last_digest_at <= ?)",
		MailDigest, true, now.Add(-time.Hour)).Find(&users).Error
	if err != nil {
		return 0, err
	}
	n := 0
	for _, u := range users {
		loc := u.Zone()
		local := now.In(loc)
		if local.Hour() != u.DigestHour {
			continue
		}
		if u.LastDigestAt != nil && u.LastDigestAt.In(loc).Format("2006-01-02") == local.Format("2006-01-02") {
			continue
		}
		var waiting int64
		err := s.db.Model(&Seat{}).Joins("JOIN games ON games.id = seats.game_id AND games.status = ?", StatusActive).
			Where("seats.user_id = ? AND seats.waiting_since IS NOT NULL", u.ID).Count(&waiting).Error
		if err != nil {
			return n, err
		}
		if waiting == 0 { // a digest may still tell of unread messages
			chat, err := s.ChatUnread(u.ID)
			if err != nil {
				return n, err
			}
			if chat == 0 {
				continue
			}
		}
		key := fmt.Sprintf("digest:%d:%s", u.ID, local.Format("2006-01-02"))
		err = s.w.Transaction(func(tx *gorm.DB) error {
			res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&Mail{UserID: u.ID, Kind: KindDigest, Text: "Games waiting for you",
				Key: &key, Status: MailPending, NextAttempt: now, CreatedAt: now})
			if res.Error != nil {
				return res.Error
			}
			if res.RowsAffected != 1 {
				return nil // that day's digest is queued already (the zone changed meanwhile)
			}
			n++
			return tx.Model(&User{}).Where("id = ?", u.ID).Update("last_digest_at", now).Error
		})
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
