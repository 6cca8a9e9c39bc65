package models

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"gorm.io/gorm"
)

// notify tells a user something about a game by each channel they want
// news of kind by (their choices in p), all in tx: an in-app notification,
// and the outbox's mail, pushes (one a device), webhook post and digest
// line. The text is a message (format) and its arguments, kept apart too
// so that pages and mail tell it in the reader's language (see NoteArgs).
func (s *Store) notify(tx *gorm.DB, p *people, userID, gameID uint, kind Kind, format string, args ...any) error {
	m, err := newsOf(kind, gameID, format, p.markNames(args)...)
	if err != nil {
		return err
	}
	u, err := p.get(userID)
	if err != nil {
		return err
	}
	if u.Wants(ChanApp, kind) {
		n := Notification{UserID: userID, GameID: gameID, Kind: kind, Text: m.Text, Format: format, Args: m.Args, CreatedAt: s.now()}
		if err := tx.Create(&n).Error; err != nil {
			return err
		}
	}
	return s.queue(tx, p, u, m)
}

// newsOf is news of kind about game gameID: a message (format) and its
// arguments, told in English (Text) and kept apart for the reader's
// language.
// guestArg is an argument of a notice naming a guest: stored as
// {"guest": name} and written "name (guest)" in the English text, so that
// the pages mark the guest in the reader's language (views.NoticeText).
// botArg is one naming a bot account, {"bot": name}, "name (bot)".
type (
	guestArg string
	botArg   string
)

func (g guestArg) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]string{"guest": string(g)})
}

func (g guestArg) String() string { return string(g) + " (guest)" }

func (b botArg) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]string{"bot": string(b)})
}

func (b botArg) String() string { return string(b) + " (bot)" }

// markNames marks, among the arguments of a notice, the names of the
// guests and bot accounts of p (guestArg, botArg).
func (p *people) markNames(args []any) []any {
	out, cloned := args, false
	for i, a := range args {
		name, ok := a.(string)
		if !ok {
			continue
		}
		for _, u := range p.m {
			if (u.Guest || u.BotAccount) && u.Username == name {
				if !cloned {
					out, cloned = slices.Clone(args), true
				}
				out[i] = guestArg(name)
				if !u.Guest {
					out[i] = botArg(name)
				}
			}
		}
	}
	return out
}

func newsOf(kind Kind, gameID uint, format string, args ...any) (Mail, error) {
	if !kind.Known() {
		return Mail{}, fmt.Errorf("models: a notice of an unknown kind %q", kind)
	}
	argJSON, err := json.Marshal(args)
	return Mail{GameID: gameID, Kind: kind, Text: fmt.Sprintf(format, args...), Format: format, Args: string(argJSON)}, err
}

// queue puts news m (its game, kind and text) in tx's outbox for each
// channel u wants it by: mail to a confirmed address, a push to each of
// their devices, a post to their webhook, a line for their digest (news
// other than turns, choices and chat: a digest lists the games waiting
// and the chats unread as they are when it is sent).
func (s *Store) queue(tx *gorm.DB, p *people, u User, m Mail) error {
	if u.Guest {
		return nil // a guest is told on the site only
	}
	now := s.now()
	m.UserID, m.Status, m.NextAttempt, m.CreatedAt = u.ID, MailPending, now, now
	if delayed(m.Kind) {
		m.NextAttempt = now.Add(s.opts.mailDelay)
	}
	var rows []Mail
	add := func(ch, to string) {
		r := m
		r.Channel, r.To = ch, to
		rows = append(rows, r)
	}
	if u.Wants(ChanMail, m.Kind) && u.EmailVerified && u.Email != "" {
		add(ChanMail, "")
	}
	if u.Wants(ChanPush, m.Kind) {
		for _, id := range p.subs[u.ID] {
			add(ChanPush, strconv.FormatUint(uint64(id), 10))
		}
	}
	if u.Wants(ChanHook, m.Kind) && u.HookOn() {
		add(ChanHook, "")
	}
	if u.Wants(ChanDigest, m.Kind) && NewsOf(m.Kind)&^digestListed != 0 && u.EmailVerified && u.Email != "" {
		add(ChanDigest, "")
		rows[len(rows)-1].Status = MailForDigest
	}
	if len(rows) == 0 {
		return nil
	}
	return tx.Create(&rows).Error
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

// Notifications returns limit of a user's notifications from offset, newest
// first, and the unread count.
func (s *Store) Notifications(userID uint, offset, limit int) ([]Notification, int64, error) {
	var ns []Notification
	if err := s.db.Where("user_id = ?", userID).Order("id desc").Offset(offset).Limit(limit).Find(&ns).Error; err != nil {
		return nil, 0, err
	}
	unread, err := s.Unread(userID)
	return ns, unread, err
}

// CountNotifications counts a user's notifications.
func (s *Store) CountNotifications(userID uint) (int, error) {
	var n int64
	err := s.db.Model(&Notification{}).Where("user_id = ?", userID).Count(&n).Error
	return int(n), err
}

// Unread counts a user's unread notifications.
func (s *Store) Unread(userID uint) (int64, error) {
	var n int64
	err := s.db.Model(&Notification{}).Where("user_id = ? AND read = ?", userID, false).Count(&n).Error
	return n, err
}

// MarkRead marks a user's notifications read up to id upTo, the newest a
// page showed them: one that came after stays news.
func (s *Store) MarkRead(userID, upTo uint) error {
	return s.w.Model(&Notification{}).Where("user_id = ? AND read = ? AND id <= ?", userID, false, upTo).Update("read", true).Error
}

// GameNotices is what a game's page shows of a user's notices: how many
// are unread, how many of those are about the game, and the newest of
// those.
type GameNotices struct {
	All, Here int
	Last      uint
}

// NoticesAt counts user's unread notices, and those about game id, in one
// reading: a page that opens the game counts the others in its header and
// marks the game's read (SeeGame), only those counted here, so that a
// notice that comes after stays news.
func (s *Store) NoticesAt(userID, gameID uint) (GameNotices, error) {
	var n GameNotices
	err := s.db.Model(&Notification{}).Select(`count(*) AS "all", coalesce(sum(CASE WHEN game_id = ? THEN 1 ELSE 0 END), 0) AS "here", coalesce(max(CASE WHEN game_id = ? THEN id END), 0) AS "last"`, gameID, gameID).
		Where("user_id = ? AND read = ?", userID, false).Scan(&n).Error
	return n, err
}

// SeeGame records that user saw game l as loaded, from seat (-1 for none):
// the game's notices counted in seen are read, and the seat's seen mark
// moves on, when there is something new to it (what is shown as new, and
// whether a "your turn" mail is still needed, depend on it). It writes in
// one transaction, and not at all when nothing changes.
func (s *Store) SeeGame(l *Loaded, seat int, user uint, seen GameNotices) error {
	var st *Seat
	if seat >= 0 && seat < len(l.Seats) {
		st = &l.Seats[seat]
		stale := st.WaitingSince != nil && (st.SeenAt == nil || st.SeenAt.Before(*st.WaitingSince))
		if st.SeenSeq >= len(l.Log) && !stale {
			st = nil
		}
	}
	if st == nil && seen.Last == 0 {
		return nil
	}
	now := s.now()
	return s.transaction(func(tx *gorm.DB) error {
		if seen.Last > 0 {
			err := tx.Model(&Notification{}).Where("user_id = ? AND game_id = ? AND read = ? AND id <= ?", user, l.Game.ID, false, seen.Last).
				Update("read", true).Error
			if err != nil {
				return err
			}
		}
		if st == nil {
			return nil
		}
		st.SeenSeq, st.SeenAt = len(l.Log), &now
		return tx.Model(&Seat{}).Where("id = ? AND seen_seq <= ?", st.ID, st.SeenSeq).
			Updates(map[string]any{"seen_seq": st.SeenSeq, "seen_at": now}).Error
	})
}

// SeeShownNotices marks read the user's notices about game gameID for a
// page that shows it at version: a move's answer, which shows what the bots did after it (the
// turn they hand back, the result). The notices are marked read only if
// the game is still at that version, so that none of a later move is taken
// as seen.
func (s *Store) SeeShownNotices(userID, gameID uint, version int) error {
	return s.w.Model(&Notification{}).
		Where("user_id = ? AND game_id = ? AND read = ? AND (SELECT version FROM games WHERE id = ?) = ?", userID, gameID, false, gameID, version).
		Update("read", true).Error
}
