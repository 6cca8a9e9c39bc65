package models

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"sync"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Mail kinds besides the notification kinds (turn, reaction, invited, ...).
const (
	KindVerify = "verify" // confirm an email address
	KindDigest = "digest" // the daily list of games waiting on the user
)

// MailGiveUp is how long the outbox retries a message before marking it
// failed.
const MailGiveUp = 48 * time.Hour

// notify tells a user something about a game: an in-app notification and,
// for a user who wants each event by email, a message in the outbox, both
// in tx. "Your turn" and "a choice waits" mail is held back by MailDelay so
// a player at the table gets none.
// The text is a message (format) and its arguments, kept apart too so that
// pages and mail tell it in the reader's language (see NoteArgs).
func (s *Store) notify(tx *gorm.DB, userID, gameID uint, kind, format string, args ...any) error {
	text := fmt.Sprintf(format, args...)
	argJSON, err := json.Marshal(args)
	if err != nil {
		return err
	}
	if _, err := rawExec(tx, `INSERT INTO notifications (user_id, game_id, kind, text, format, args, read, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		userID, gameID, kind, text, format, string(argJSON), false, s.now()); err != nil {
		return err
	}
	expectUnread(tx, userID, 1, 1)     // the insert trigger's
	u, err := s.settingsIn(tx, userID) // cached: mail settings change in their own transactions
	if err != nil {
		return err
	}
	if u.EmailMode != MailEach || !u.EmailVerified {
		return nil
	}
	at := s.now()
	if kind == "turn" || kind == "reaction" {
		delay := s.MailDelay
		if delay == 0 {
			delay = DefaultMailDelay
		}
		at = at.Add(delay)
	}
	return tx.Create(&Mail{UserID: userID, GameID: gameID, Kind: kind, Text: text, Format: format, Args: string(argJSON), Status: MailPending, NextAttempt: at, CreatedAt: s.now()}).Error
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
	// Waiting lists the games waiting on the user (for a digest).
	Waiting []GameSummary
}

// MailRecipient decides whether m is still wanted and to which address.
// A non-empty skip says why not: the address is no longer verified or the
// user unsubscribed; a "your turn" the player already opened the game for,
// or that is no longer theirs; a digest with nothing waiting.
func (s *Store) MailRecipient(m *Mail) (r Recipient, skip string, err error) {
	if err := s.FlushSeen(); err != nil {
		return r, "", err
	}
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
	r.To = u.Email
	want := MailEach
	if m.Kind == KindDigest {
		want = MailDigest
	}
	if u.Email == "" || !u.EmailVerified || u.EmailMode != want {
		return r, "the user does not want this mail now", nil
	}
	switch m.Kind {
	case "turn", "reaction":
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
		if seat.SeenAt != nil && !seat.SeenAt.Before(m.CreatedAt) {
			return r, "the player opened the game since", nil
		}
	case KindDigest:
		games, _, err := s.MyGames(m.UserID, 0)
		if err != nil {
			return r, "", err
		}
		for _, g := range games {
			if g.WaitingOnMe {
				r.Waiting = append(r.Waiting, g)
			}
		}
		if len(r.Waiting) == 0 {
			return r, "no game waits on the user", nil
		}
	}
	return r, "", nil
}

// QueueDigests puts a digest in the outbox for every user who chose one,
// at most one a day (the outbox key is the user and the date). It returns
// how many it queued.
func (s *Store) QueueDigests() (int, error) {
	now := s.now()
	var users []User
	err := s.db.Select("id", "last_digest_at").Where("email_mode = ? AND email_verified = ? AND (last_digest_at IS NULL OR last_digest_at <= ?)",
		MailDigest, true, now.Add(-day)).Find(&users).Error
	if err != nil {
		return 0, err
	}
	n := 0
	for _, u := range users {
		var waiting int64
		err := s.db.Model(&Seat{}).Joins("JOIN games ON games.id = seats.game_id AND games.status = ?", StatusActive).
			Where("seats.user_id = ? AND seats.waiting_since IS NOT NULL", u.ID).Count(&waiting).Error
		if err != nil {
			return n, err
		}
		if waiting == 0 {
			continue
		}
		key := fmt.Sprintf("digest:%d:%s", u.ID, now.Format("2006-01-02"))
		err = s.w.Transaction(func(tx *gorm.DB) error {
			res := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&Mail{UserID: u.ID, Kind: KindDigest, Text: "Games waiting for you",
				Key: &key, Status: MailPending, NextAttempt: now, CreatedAt: now})
			if res.Error != nil {
				return res.Error
			}
			if res.RowsAffected == 1 {
				n++
			}
			return tx.Model(&User{}).Where("id = ?", u.ID).Update("last_digest_at", now).Error
		})
		s.users.drop(u.ID)
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// SetEmail sets user's address and what mail they want. A new address is
// unverified until its owner follows the link in the verification mail
// queued here; MailOff needs no address.
func (s *Store) SetEmail(userID uint, address, mode string) (*User, error) {
	address = strings.TrimSpace(address)
	if mode != MailOff && mode != MailEach && mode != MailDigest {
		return nil, invalid("choose no email, an email for each event, or a daily digest")
	}
	if address != "" {
		a, err := mail.ParseAddress(address)
		if err != nil || a.Address != address || len(address) > 254 {
			return nil, invalid("“%s” is not an email address", address)
		}
	}
	if address == "" && mode != MailOff {
		return nil, invalid("give an email address to get email")
	}
	var u User
	err := s.w.Transaction(func(tx *gorm.DB) error {
		if err := tx.Take(&u, userID).Error; err != nil {
			return err
		}
		changed := u.Email != address
		u.Email, u.EmailMode = address, mode
		if changed {
			u.EmailVerified = false
		}
		if err := tx.Model(&User{}).Where("id = ?", u.ID).Updates(map[string]any{"email": u.Email, "email_mode": mode, "email_verified": u.EmailVerified}).Error; err != nil {
			return err
		}
		if changed && address != "" {
			now := s.now()
			return tx.Create(&Mail{UserID: u.ID, Kind: KindVerify, To: address, Text: "Confirm your email address",
				Status: MailPending, NextAttempt: now, CreatedAt: now}).Error
		}
		return nil
	})
	s.users.drop(userID)
	if err != nil {
		return nil, err
	}
	return &u, nil
}

// VerifyEmail marks address verified for user, if it is still their address.
func (s *Store) VerifyEmail(userID uint, address string) error {
	res := s.w.Model(&User{}).Where("id = ? AND email = ? AND email <> ''", userID, address).Update("email_verified", true)
	s.users.drop(userID)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected != 1 {
		return invalid("this link is for an address that is no longer yours")
	}
	return nil
}

// Unsubscribe turns all of user's email off (one click from any mail).
func (s *Store) Unsubscribe(userID uint) error {
	err := s.w.Model(&User{}).Where("id = ?", userID).Update("email_mode", MailOff).Error
	s.users.drop(userID)
	return err
}

// Secret returns the site's secret called name, made at random on first use
// and kept in the database so that it survives restarts.
func (s *Store) Secret(name string) ([]byte, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	if err := s.w.Clauses(clause.OnConflict{DoNothing: true}).Create(&Setting{Key: name, Value: key}).Error; err != nil {
		return nil, err
	}
	var st Setting
	if err := s.db.Take(&st, "key = ?", name).Error; err != nil {
		return nil, err
	}
	return st.Value, nil
}

// MarkSeen records that the player at seat of l has seen the game as
// loaded, when there is something new to them. The marks are written in
// batches, at most SeenFlush later (and before any mail is decided on);
// until then loads see them from memory. A crash may forget the last
// second's marks: they only decide what is shown as new and whether a
// "your turn" mail is needed.
func (s *Store) MarkSeen(l *Loaded, seat int) error {
	if seat < 0 || seat >= len(l.Seats) {
		return nil
	}
	st := &l.Seats[seat]
	now := s.now()
	stale := st.WaitingSince != nil && (st.SeenAt == nil || st.SeenAt.Before(*st.WaitingSince))
	if st.SeenSeq >= len(l.Log) && !stale {
		return nil
	}
	st.SeenSeq, st.SeenAt = len(l.Log), &now
	s.seen.mu.Lock()
	if s.seen.m == nil {
		s.seen.m = map[uint]seenMark{}
	}
	if old, ok := s.seen.m[st.ID]; !ok || old.seq <= st.SeenSeq {
		s.seen.m[st.ID] = seenMark{seq: st.SeenSeq, at: now}
	}
	due := time.Since(s.seen.flushed) >= SeenFlush
	s.seen.mu.Unlock()
	if due {
		return s.FlushSeen()
	}
	return nil
}

// SeenFlush is how long seen marks may wait in memory.
const SeenFlush = time.Second

// seenMarks are the marks not yet written, by seat id; writing holds
// those being written. The lock is never held while waiting for the
// database: a commit, which holds the write connection, reads the marks.
type seenMarks struct {
	mu      sync.Mutex
	m       map[uint]seenMark
	writing map[uint]seenMark
	flushed time.Time
	// notices are the notifications seen at their game's page, to mark
	// read: by user and game, the last id seen. Marking them read again
	// changes nothing, so a batch that fails is simply kept.
	notices map[noticesOf]uint
	// writingNotices are those being written.
	writingNotices map[noticesOf]uint
}

type noticesOf struct{ user, game uint }

type seenMark struct {
	seq int
	at  time.Time
}

// FlushSeen writes the seen marks kept in memory.
func (s *Store) FlushSeen() error {
	s.seen.mu.Lock()
	s.seen.flushed = time.Now()
	if len(s.seen.m) == 0 && len(s.seen.notices) == 0 || s.seen.writing != nil {
		s.seen.mu.Unlock()
		return nil
	}
	batch, notices := s.seen.m, s.seen.notices
	if batch == nil {
		batch = map[uint]seenMark{} // writing marks a flush under way
	}
	s.seen.m, s.seen.writing, s.seen.notices, s.seen.writingNotices = map[uint]seenMark{}, batch, nil, notices
	s.seen.mu.Unlock()
	err := s.w.Transaction(func(tx *gorm.DB) error {
		for id, mk := range batch {
			if err := tx.Model(&Seat{}).Where("id = ? AND seen_seq <= ?", id, mk.seq).Updates(map[string]any{"seen_seq": mk.seq, "seen_at": mk.at}).Error; err != nil {
				return err
			}
		}
		for k, last := range notices {
			res, err := rawExec(tx, `UPDATE notifications SET read = true WHERE user_id = ? AND game_id = ? AND read = false AND id <= ?`, k.user, k.game, last)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err == nil { // the update trigger's, one a row
				expectUnread(tx, k.user, int(n), -int(n))
			}
		}
		return nil
	})
	s.seen.mu.Lock()
	defer s.seen.mu.Unlock()
	s.seen.writing, s.seen.writingNotices = nil, nil
	if err != nil {
		for id, mk := range batch { // keep them for the next flush
			if old, ok := s.seen.m[id]; !ok || old.seq < mk.seq {
				s.seen.m[id] = mk
			}
		}
		for k, last := range notices {
			s.seeNotices(k, last)
		}
	}
	return err
}

// seeNotices keeps game k's notices up to id last to mark read (s.seen.mu
// held).
func (s *Store) seeNotices(k noticesOf, last uint) {
	if s.seen.notices == nil {
		s.seen.notices = map[noticesOf]uint{}
	}
	s.seen.notices[k] = max(s.seen.notices[k], last)
}

// expectUnread tells the writer's pool that the statement just run in
// transaction tx changed the user's unread count by delta, in rows changes
// of the user's row (see writePool.expectUnread). Outside a transaction
// the statement has already told its changes: the user is dropped.
func expectUnread(tx *gorm.DB, userID uint, rows, delta int) {
	if t, ok := tx.Statement.ConnPool.(*writeTx); ok {
		t.p.expectUnread(userID, rows, delta)
	}
}

// SeeGameNotices records that a user opened game id's page: its unread
// notifications ("your turn", a choice waiting, the result) are news no
// more. They are marked read with the seen marks (at most SeenFlush later,
// or at once when a flush is due, see FlushSeenIfDue); until then UnreadAt
// leaves them out of the count the game's pages show, and other pages
// still count them. Notifications that come after this stay unread.
// unreadHere is that count for the page opening: the user's unread
// notifications without the game's, counted in the same reading.
func (s *Store) SeeGameNotices(userID, gameID uint) (unreadHere int, err error) {
	var unread, n int
	var last uint
	err = rawRow(s.db, `SELECT (SELECT unread FROM users WHERE id = ?), coalesce(max(id), 0), count(*)
		FROM notifications WHERE user_id = ? AND read = false AND game_id = ?`, userID, userID, gameID).Scan(&unread, &last, &n)
	if err != nil {
		return 0, err
	}
	if last > 0 {
		s.seen.mu.Lock()
		s.seeNotices(noticesOf{userID, gameID}, last)
		s.seen.mu.Unlock()
	}
	return unread - n, nil
}

// SeeShownNotices is SeeGameNotices for a page that shows game gameID at
// version, loaded before: a move's answer, which shows what the bots did
// after it (the turn they hand back, the result). The game's notices are
// news no more only if the game is still at that version when they are
// counted (one reading), so that none of a later move is taken as seen.
func (s *Store) SeeShownNotices(userID, gameID uint, version int) error {
	var now int
	var last uint
	err := rawRow(s.db, `SELECT version, (SELECT coalesce(max(id), 0) FROM notifications WHERE user_id = ? AND read = false AND game_id = ?)
		FROM games WHERE id = ?`, userID, gameID, gameID).Scan(&now, &last)
	if err != nil || last == 0 || now != version {
		return err
	}
	s.seen.mu.Lock()
	s.seeNotices(noticesOf{userID, gameID}, last)
	s.seen.mu.Unlock()
	return nil
}

// UnreadAt is the user's unread count as a page of game id shows it: when
// notices of the game were seen and are not yet written as read, without
// them, both counted in one reading (cached is the count otherwise).
func (s *Store) UnreadAt(userID, gameID uint, cached int) (int, error) {
	k := noticesOf{userID, gameID}
	s.seen.mu.Lock()
	last := max(s.seen.notices[k], s.seen.writingNotices[k])
	s.seen.mu.Unlock()
	if last == 0 {
		return cached, nil
	}
	var unread, n int
	err := rawRow(s.db, `SELECT (SELECT unread FROM users WHERE id = ?), count(*)
		FROM notifications WHERE user_id = ? AND read = false AND game_id = ? AND id <= ?`, userID, userID, gameID, last).Scan(&unread, &n)
	if err != nil {
		return cached, err
	}
	return unread - n, nil
}

// FlushSeenIfDue writes the seen marks and the notices seen when the last
// flush is SeenFlush old.
func (s *Store) FlushSeenIfDue() error {
	s.seen.mu.Lock()
	due := time.Since(s.seen.flushed) >= SeenFlush
	s.seen.mu.Unlock()
	if due {
		return s.FlushSeen()
	}
	return nil
}

// overlaySeen puts the marks not yet written onto freshly read seats.
func (s *Store) overlaySeen(seats []Seat) (stored []seenOf) {
	s.seen.mu.Lock()
	defer s.seen.mu.Unlock()
	for i := range seats {
		was := seenOf{id: seats[i].ID, seq: seats[i].SeenSeq, at: seats[i].SeenAt}
		for _, marks := range []map[uint]seenMark{s.seen.writing, s.seen.m} {
			if mk, ok := marks[seats[i].ID]; ok && mk.seq >= seats[i].SeenSeq {
				at := mk.at
				seats[i].SeenSeq, seats[i].SeenAt = mk.seq, &at
			}
		}
		if seats[i].SeenSeq != was.seq || seats[i].SeenAt != was.at {
			stored = append(stored, was)
		}
	}
	return stored
}

// seenOf is a seat's seen mark as stored.
type seenOf struct {
	id  uint
	seq int
	at  *time.Time
}
