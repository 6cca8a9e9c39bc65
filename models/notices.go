package models

import (
	"encoding/json"
	"fmt"

	"gorm.io/gorm"
)

// notify tells a user something about a game: an in-app notification and,
// for a user who wants each event by email, a message in the outbox, both
// in tx. "Your turn" and "a choice waits" mail is held back by the mail
// delay so that a player at the table gets none.
// The text is a message (format) and its arguments, kept apart too so that
// pages and mail tell it in the reader's language (see NoteArgs).
func (s *Store) notify(tx *gorm.DB, userID, gameID uint, kind, format string, args ...any) error {
	text := fmt.Sprintf(format, args...)
	argJSON, err := json.Marshal(args)
	if err != nil {
		return err
	}
	now := s.now()
	if err := tx.Create(&Notification{UserID: userID, GameID: gameID, Kind: kind, Text: text, Format: format, Args: string(argJSON), CreatedAt: now}).Error; err != nil {
		return err
	}
	var u User
	if err := tx.Select("id", "email_mode", "email_verified").Take(&u, userID).Error; err != nil {
		return err
	}
	if u.EmailMode != MailEach || !u.EmailVerified {
		return nil
	}
	at := now
	if kind == "turn" || kind == "reaction" {
		at = at.Add(s.opts.mailDelay)
	}
	return tx.Create(&Mail{UserID: userID, GameID: gameID, Kind: kind, Text: text, Format: format, Args: string(argJSON), Status: MailPending, NextAttempt: at, CreatedAt: now}).Error
}

// NoteArgs returns a notification's message arguments: strings and
// numbers (integral numbers as int).
func (n Notification) NoteArgs() []any { return decodeArgs(n.Args) }

// NoteArgs returns a mail's message arguments, as Notification.NoteArgs.
func (m Mail) NoteArgs() []any { return decodeArgs(m.Args) }

func decodeArgs(args string) []any {
	var raw []any
	if json.Unmarshal([]byte(args), &raw) != nil {
		return nil
	}
	for i, a := range raw {
		if f, ok := a.(float64); ok && f == float64(int(f)) {
			raw[i] = int(f)
		}
	}
	return raw
}

// Notifications returns a user's newest notifications and the unread count.
func (s *Store) Notifications(userID uint, limit int) ([]Notification, int64, error) {
	var ns []Notification
	if err := s.db.Where("user_id = ?", userID).Order("id desc").Limit(limit).Find(&ns).Error; err != nil {
		return nil, 0, err
	}
	unread, err := s.Unread(userID)
	return ns, unread, err
}

// Unread counts a user's unread notifications.
func (s *Store) Unread(userID uint) (int64, error) {
	var n int64
	err := s.db.Model(&Notification{}).Where("user_id = ? AND read = ?", userID, false).Count(&n).Error
	return n, err
}

// MarkRead marks all of a user's notifications read.
func (s *Store) MarkRead(userID uint) error {
	return s.w.Model(&Notification{}).Where("user_id = ? AND read = ?", userID, false).Update("read", true).Error
}

// SeeGameNotices marks read the user's notifications about game id: they
// opened its page, so "your turn", a choice waiting or the result are news
// no more. Notifications that come after this stay unread.
func (s *Store) SeeGameNotices(userID, gameID uint) error {
	return s.w.Model(&Notification{}).Where("user_id = ? AND game_id = ? AND read = ?", userID, gameID, false).Update("read", true).Error
}

// SeeShownNotices is SeeGameNotices for a page that shows game gameID at
// version: a move's answer, which shows what the bots did after it (the
// turn they hand back, the result). The notices are marked read only if
// the game is still at that version, so that none of a later move is taken
// as seen.
func (s *Store) SeeShownNotices(userID, gameID uint, version int) error {
	return s.w.Model(&Notification{}).
		Where("user_id = ? AND game_id = ? AND read = ? AND (SELECT version FROM games WHERE id = ?) = ?", userID, gameID, false, gameID, version).
		Update("read", true).Error
}

// MarkSeen records that the player at seat of l has seen the game as
// loaded, when there is something new to them: what is shown as new, and
// whether a "your turn" mail is still needed, depend on it.
func (s *Store) MarkSeen(l *Loaded, seat int) error {
	if seat < 0 || seat >= len(l.Seats) {
		return nil
	}
	st := &l.Seats[seat]
	stale := st.WaitingSince != nil && (st.SeenAt == nil || st.SeenAt.Before(*st.WaitingSince))
	if st.SeenSeq >= len(l.Log) && !stale {
		return nil
	}
	now := s.now()
	st.SeenSeq, st.SeenAt = len(l.Log), &now
	return s.w.Model(&Seat{}).Where("id = ? AND seen_seq <= ?", st.ID, st.SeenSeq).
		Updates(map[string]any{"seen_seq": st.SeenSeq, "seen_at": now}).Error
}
