package models

import (
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// MailGiveUp is how long the outbox retries a message before marking it
// failed.
const MailGiveUp = 48 * time.Hour

// postChannels are the channels whose news is posted to servers the
// players chose (DuePosts); the rest is mail (DueMail).
var postChannels = []string{ChanPush, ChanHook}

// DueMail returns up to limit outbox mails whose time has come, oldest
// first: not the pushes and webhook posts (DuePosts).
func (s *Store) DueMail(limit int) ([]Mail, error) {
	var ms []Mail
	err := s.db.Where("status = ? AND next_attempt <= ? AND channel NOT IN ?", MailPending, s.now(), postChannels).Order("id").Limit(limit).Find(&ms).Error
	return ms, err
}

// DuePosts returns up to limit pushes and webhook posts whose time has
// come, at most one of each user (their oldest), none of the users in
// skip; the users whose oldest post is oldest first.
func (s *Store) DuePosts(limit int, skip []uint) ([]Mail, error) {
	oldest := s.db.Model(&Mail{}).Select("MIN(id)").Where("status = ? AND channel IN ? AND next_attempt <= ?", MailPending, postChannels, s.now())
	if len(skip) > 0 {
		oldest = oldest.Where("user_id NOT IN ?", skip)
	}
	var ms []Mail
	err := s.db.Where("id IN (?)", oldest.Group("user_id")).Order("id").Limit(limit).Find(&ms).Error
	return ms, err
}

// ClaimMail takes m for one delivery attempt: it pushes the message's next
// attempt lease into the future, so that another worker skips it. False
// means someone else took it first.
func (s *Store) ClaimMail(m *Mail, lease time.Duration) (bool, error) {
	next := s.now().Add(lease)
	res := s.w.Model(&Mail{}).Where("id = ? AND status = ? AND next_attempt = ?", m.ID, MailPending, m.NextAttempt).
		// Claimed, it is no longer held (SetQuietHours releases none in flight).
		Updates(map[string]any{"next_attempt": next, "attempts": gorm.Expr("attempts + 1"),
			"last_error": gorm.Expr("CASE WHEN last_error = ? THEN '' ELSE last_error END", HeldQuiet)})
	if res.Error != nil || res.RowsAffected != 1 {
		return false, res.Error
	}
	m.NextAttempt, m.Attempts = next, m.Attempts+1
	return true, nil
}

// MailSent records that m was delivered, and with a digest the lines it
// told (news).
func (s *Store) MailSent(m *Mail, news ...Mail) error {
	now := s.now()
	sent := map[string]any{"status": MailSent, "sent_at": now, "last_error": ""}
	return s.transaction(func(tx *gorm.DB) error {
		if len(news) > 0 {
			ids := make([]uint, len(news))
			for i, n := range news {
				ids[i] = n.ID
			}
			if err := tx.Model(&Mail{}).Where("id IN ? AND status = ?", ids, MailForDigest).Updates(sent).Error; err != nil {
				return err
			}
		}
		if m.Channel == ChanPush || m.Channel == ChanHook {
			if err := postWent(tx, m); err != nil {
				return err
			}
		}
		return tx.Model(&Mail{}).Where("id = ?", m.ID).Updates(sent).Error
	})
}

// MailHeld puts m off until then, for the reason why (HeldQuiet: the
// recipient's quiet hours), its claim not counted as an attempt.
func (s *Store) MailHeld(m *Mail, until time.Time, why string) error {
	// In UTC, as every time stored: SQLite compares them as text.
	return s.w.Model(&Mail{}).Where("id = ?", m.ID).
		Updates(map[string]any{"next_attempt": until.UTC(), "attempts": gorm.Expr("attempts - 1"), "last_error": why}).Error
}

// HeldQuiet is why news waits out its recipient's quiet hours (MailHeld):
// changing them releases it (SetQuietHours).
const HeldQuiet = "held: quiet hours"

// Held reports whether mail of kind waits out its recipient's quiet
// hours: all but the account mail they asked for just now (kinds).
func Held(kind Kind) bool { return !kinds[kind].asked }

// MailSkipped records that m is no longer wanted, and why.
func (s *Store) MailSkipped(m *Mail, why string) error {
	return s.w.Model(&Mail{}).Where("id = ?", m.ID).Updates(map[string]any{"status": MailSkipped, "last_error": why}).Error
}

// MailRetry records a failed attempt: m is tried again after backoff, or
// marked failed once it is older than MailGiveUp.
func (s *Store) MailRetry(m *Mail, cause error) error {
	return s.w.Model(&Mail{}).Where("id = ?", m.ID).Updates(s.retry(m, cause)).Error
}

// retry is what MailRetry writes.
func (s *Store) retry(m *Mail, cause error) map[string]any {
	upd := map[string]any{"last_error": cause.Error(), "next_attempt": s.now().Add(Backoff(m.Attempts))}
	if s.now().Sub(m.CreatedAt) > MailGiveUp {
		upd["status"] = MailFailed
	}
	return upd
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
	To   string   // the address of mail
	Push *PushSub // the device of a push
	// Waiting lists the games waiting on the user, Chats those whose chat
	// has messages they have not seen, News the lines queued for the
	// digest (for a digest, each as the user chose).
	Waiting, Chats []GameSummary
	News           []Mail
}

// MailRecipient decides whether m is still wanted and where it goes. A
// non-empty skip says why not: the user no longer wants that news by that
// channel (or has no confirmed address, device or webhook for it); a "your
// turn" the player already opened the game for, or that is no longer
// theirs; a chat's news once they read it; a digest with nothing to tell.
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
	switch {
	case m.Kind == KindDigest && u.DigestNews == 0, m.Kind != KindDigest && !u.Wants(m.Channel, m.Kind):
		return r, "the user does not want this news by " + m.Channel + " now", nil
	}
	switch m.Channel {
	case ChanMail:
		if u.Email == "" || !u.EmailVerified {
			return r, "the user has no confirmed address", nil
		}
		r.To = u.Email
	case ChanPush:
		if r.Push, err = s.pushSub(m); err != nil || r.Push == nil {
			return r, "the device is no longer registered, or switched off", err
		}
	case ChanHook:
		if !u.HookOn() {
			return r, "the user has no webhook now, or it is switched off", nil
		}
	}
	switch {
	case kinds[m.Kind].seat:
		var seat Seat
		err := s.db.Where("game_id = ? AND user_id = ?", m.GameID, m.UserID).Take(&seat).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return r, "the player left the game", nil
		} else if err != nil {
			return r, "", err
		}
		if m.Kind == KindChat {
			if seat.ChatUnread == 0 || seat.ChatMuted {
				return r, "the player read or muted the chat since", nil
			}
			break
		}
		// A wait that began after the mail was written is another wait: the
		// one the mail is about has ended.
		if seat.WaitingSince == nil || seat.WaitingSince.After(m.CreatedAt) {
			return r, "the game no longer waits on the player", nil
		}
		if m.Kind == KindReminder {
			// Held by quiet hours past the time it warns of.
			if seat.Deadline == nil || !seat.Deadline.After(s.now()) {
				return r, "the time it reminds of has run out", nil
			}
		} else if seat.SeenAt != nil && !seat.SeenAt.Before(m.CreatedAt) {
			return r, "the player opened the game since", nil
		}
	case m.Kind == KindDigest:
		if u.DigestNews&digestListed&^NewsChat != 0 {
			// The games waiting on the user come first: a digest lists at
			// most DigestGames of them.
			games, _, err := s.MyGames(m.UserID, 0, DigestGames)
			if err != nil {
				return r, "", err
			}
			for _, g := range games {
				if g.WaitingOnMe {
					r.Waiting = append(r.Waiting, g)
				}
			}
		}
		if u.DigestNews&NewsChat != 0 {
			if r.Chats, err = s.ChatGames(m.UserID, DigestGames); err != nil {
				return r, "", err
			}
		}
		if r.News, err = s.digestNews(m); err != nil {
			return r, "", err
		}
		if len(r.Waiting) == 0 && len(r.Chats) == 0 && len(r.News) == 0 {
			return r, "nothing waits on the user, no message is unread and there is no news", nil
		}
	}
	return r, "", nil
}

// digestNews is the lines queued for digest m, oldest first (at most
// DigestGames: the rest wait for the next).
func (s *Store) digestNews(m *Mail) ([]Mail, error) {
	var news []Mail
	err := s.db.Where("user_id = ? AND status = ? AND id < ?", m.UserID, MailForDigest, m.ID).Order("id").Limit(DigestGames).Find(&news).Error
	return news, err
}

// digestListed is the news a digest tells as things are when it is sent:
// the games waiting on the player (turns and choices) and the chats with
// messages unread. Of the rest it tells each piece (lines queued).
const digestListed = NewsTurn | NewsChoice | NewsChat

// digestLineLife is how long a line waits for a digest: one a player no
// longer gets a digest for is dropped then.
const digestLineLife = 7 * 24 * time.Hour

// DigestGames bounds the games a digest lists.
const DigestGames = 50

// QueueDigests puts a digest in the outbox for every user who chose one
// and has a game waiting on them or a message unread, in the hour they
// chose of their time zone, at most one a day of theirs (the outbox key is
// the user and their date): a day with nothing to tell then has none. It
// returns how many it queued.
func (s *Store) QueueDigests() (int, error) {
	now := s.now()
	err := s.w.Model(&Mail{}).Where("status = ? AND created_at < ?", MailForDigest, now.Add(-digestLineLife)).
		Updates(map[string]any{"status": MailSkipped, "last_error": "no digest came for it"}).Error
	if err != nil {
		return 0, err
	}
	var users []User
	// A digest goes in one hour of the user's day: one sent over an hour
	// ago cannot be this hour's. Which are due is decided in each user's
	// time zone below.
	err = s.db.Select("id", "last_digest_at", "time_zone", "digest_hour", "digest_news").Where("digest_news <> 0 AND email_verified AND (last_digest_at IS NULL OR last_digest_at <= ?)", // idx_users_digest's condition
		now.Add(-time.Hour)).Find(&users).Error
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
		news, err := s.digestHas(&u)
		if err != nil {
			return n, err
		}
		if !news {
			continue
		}
		key := fmt.Sprintf("digest:%d:%s", u.ID, local.Format("2006-01-02"))
		queued := false
		err = s.transaction(func(tx *gorm.DB) error {
			queued = false
			res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&Mail{UserID: u.ID, Kind: KindDigest, Text: "Games waiting for you",
				Key: &key, Status: MailPending, NextAttempt: now, CreatedAt: now})
			if res.Error != nil {
				return res.Error
			}
			if res.RowsAffected != 1 {
				return nil // that day's digest is queued already (the zone changed meanwhile)
			}
			queued = true
			return tx.Model(&User{}).Where("id = ?", u.ID).Update("last_digest_at", now).Error
		})
		if err != nil {
			return n, err
		}
		if queued {
			n++
		}
	}
	return n, nil
}

// digestHas reports whether u's digest has something to tell: a game
// waiting on them, a message unread, a line of news, each if they chose it.
func (s *Store) digestHas(u *User) (bool, error) {
	var n int64
	if u.DigestNews&digestListed&^NewsChat != 0 {
		err := s.db.Model(&Seat{}).Joins("JOIN games ON games.id = seats.game_id AND games.status = ?", StatusActive).
			Where("seats.user_id = ? AND seats.waiting_since IS NOT NULL", u.ID).Count(&n).Error
		if err != nil || n > 0 {
			return n > 0, err
		}
	}
	if u.DigestNews&NewsChat != 0 {
		chat, err := s.ChatUnread(u.ID)
		if err != nil || chat > 0 {
			return chat > 0, err
		}
	}
	err := s.db.Model(&Mail{}).Where("user_id = ? AND status = ?", u.ID, MailForDigest).Limit(1).Count(&n).Error
	return n > 0, err
}
