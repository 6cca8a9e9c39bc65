package models

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// ChatMessage is one message of a game's table chat, written by a player
// seated at it (Name as the table knows them). An admin may hide it
// (Hidden): it stays, its text no longer shown.
type ChatMessage struct {
	ID        uint      `gorm:"primaryKey"`
	GameID    uint      `gorm:"index:idx_chat_game,priority:1;not null"`
	UserID    uint      `gorm:"index:idx_chat_user_created,priority:1;not null"`
	Name      string    `gorm:"not null"`
	Text      string    `gorm:"not null"`
	Hidden    bool      `gorm:"not null;default:false"`
	CreatedAt time.Time `gorm:"index:idx_chat_user_created,priority:2;not null"`
}

// ChatReport is a reader's report of a message to the admins; Closed once
// an admin dealt with it.
type ChatReport struct {
	ID         uint      `gorm:"primaryKey"`
	MessageID  uint      `gorm:"uniqueIndex:idx_chat_report,priority:1;not null"`
	ReporterID uint      `gorm:"uniqueIndex:idx_chat_report,priority:2;not null"`
	Closed     bool      `gorm:"index;not null;default:false"`
	CreatedAt  time.Time `gorm:"not null"`
}

// Limits of the table chat: a message's length in characters, the least
// time between two messages of one player, and how many one player may
// write a day (in all games).
const (
	ChatMaxLength = 500
	ChatGap       = 2 * time.Second
	ChatPerDay    = 200
	// ChatShown is how many messages a page of the chat shows.
	ChatShown = 50
	// ReportsPerDay is how many messages one player may report a day.
	ReportsPerDay = 20
)

// Refusals of a chat message.
var (
	ErrChatEmpty   = invalid("write a message first")
	ErrChatLong    = invalid("a message has at most %d characters", ChatMaxLength)
	ErrChatFast    = invalid("wait a moment before your next message")
	ErrChatDay     = invalid("you have written %d messages today: the chat opens again for you tomorrow", ChatPerDay)
	ErrChatNotSeat = invalid("only the players of this game write in its chat")
	ErrReportsDay  = invalid("you have reported %d messages today: the admins read them first", ReportsPerDay)
)

// Say posts text in the chat of game gameID as user, who holds (or held,
// before resigning) a seat there. The other players' unread counts grow,
// save theirs who muted it.
func (s *Store) Say(user *User, gameID uint, text string) (ChatMessage, error) {
	text = strings.TrimSpace(strings.ToValidUTF8(text, "�"))
	if text == "" {
		return ChatMessage{}, ErrChatEmpty
	}
	if utf8.RuneCountInString(text) > ChatMaxLength {
		return ChatMessage{}, ErrChatLong
	}
	now := s.now()
	msg := ChatMessage{GameID: gameID, UserID: user.ID, Text: text, CreatedAt: now}
	var seats []Seat
	err := s.transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, user.ID); err != nil { // the pace and the day's count
			return err
		}
		if err := tx.Where("game_id = ?", gameID).Find(&seats).Error; err != nil {
			return err
		}
		for _, seat := range seats {
			if p := seat.Player(); p != nil && *p == user.ID {
				msg.Name = seat.Name
			}
		}
		if msg.Name == "" {
			return ErrChatNotSeat
		}
		if user.Guest {
			// A guest's seat at a private table was given through its link
			// or kept for them: everyone there was invited.
			var g Game
			if err := tx.Select("id", "private").Take(&g, gameID).Error; err != nil {
				return err
			}
			if !g.Private {
				return ErrGuestChat
			}
		}
		var last ChatMessage
		err := tx.Where("user_id = ?", user.ID).Order("created_at DESC").Limit(1).Find(&last).Error
		if err != nil {
			return err
		}
		if last.ID != 0 && now.Sub(last.CreatedAt) < ChatGap {
			return ErrChatFast
		}
		var today int64
		if err := tx.Model(&ChatMessage{}).Where("user_id = ? AND created_at > ?", user.ID, now.Add(-day)).Count(&today).Error; err != nil {
			return err
		}
		if today >= ChatPerDay {
			return ErrChatDay
		}
		if err := tx.Create(&msg).Error; err != nil {
			return err
		}
		if err := tx.Model(&Game{}).Where("id = ?", gameID).UpdateColumn("last_chat", msg.ID).Error; err != nil {
			return err
		}
		if err := s.chatNews(tx, seats, user.ID, msg); err != nil {
			return err
		}
		return tx.Model(&Seat{}).Where("game_id = ? AND user_id IS NOT NULL AND user_id <> ? AND chat_muted = ?", gameID, user.ID, false).
			Update("chat_unread", gorm.Expr("chat_unread + 1")).Error
	})
	if err != nil {
		return ChatMessage{}, err
	}
	s.chatChanged(gameID, seats, msg.ID)
	return msg, nil
}

// chatNews tells the players at seats (as read before msg) whose chat was
// all read that msg came, by the channels they chose: one piece of news
// until they read it.
func (s *Store) chatNews(tx *gorm.DB, seats []Seat, from uint, msg ChatMessage) error {
	var to []uint
	for _, seat := range seats {
		if seat.UserID != nil && *seat.UserID != from && !seat.ChatMuted && seat.ChatUnread == 0 {
			to = append(to, *seat.UserID)
		}
	}
	if len(to) == 0 {
		return nil
	}
	p, err := peopleIn(tx, nil, append(to, msg.UserID)...) // the writer too: their name is marked
	if err != nil {
		return err
	}
	text := msg.Text
	if r := []rune(text); len(r) > 140 {
		text = string(r[:139]) + "…"
	}
	m, err := newsOf(KindChat, msg.GameID, "%s wrote in game %d: “%s”", append(p.markNames([]any{msg.Name}), msg.GameID, text)...)
	if err != nil {
		return err
	}
	for _, id := range to {
		u, err := p.get(id)
		if err != nil {
			return err
		}
		if err := s.queue(tx, p, u, m); err != nil {
			return err
		}
	}
	return nil
}

// Chat returns at most ChatShown messages of game gameID before the
// message before (0: the newest), oldest first, and whether there are
// earlier ones.
func (s *Store) Chat(gameID, before uint) ([]ChatMessage, bool, error) {
	q := s.db.Where("game_id = ?", gameID)
	if before > 0 {
		q = q.Where("id < ?", before)
	}
	return newest(q, ChatShown)
}

// newest reads at most limit of the newest messages q finds, oldest
// first, and whether there are more before them.
func newest(q *gorm.DB, limit int) ([]ChatMessage, bool, error) {
	var msgs []ChatMessage
	if err := q.Order("id DESC").Limit(limit + 1).Find(&msgs).Error; err != nil {
		return nil, false, err
	}
	more := len(msgs) > limit
	if more {
		msgs = msgs[:limit]
	}
	slices.Reverse(msgs)
	return msgs, more, nil
}

// ChatSince returns the newest messages of game gameID that others than
// viewer wrote after t (none hidden), at most limit, oldest first, and
// whether there are more before them.
func (s *Store) ChatSince(gameID, viewer uint, t time.Time, limit int) ([]ChatMessage, bool, error) {
	return newest(s.db.Where("game_id = ? AND created_at > ? AND user_id <> ? AND hidden = ?", gameID, t.UTC(), viewer, false), limit)
}

// MyMessages returns every chat message userID wrote, oldest first (for
// the download of their data).
func (s *Store) MyMessages(userID uint) ([]ChatMessage, error) {
	var msgs []ChatMessage
	err := s.db.Where("user_id = ?", userID).Order("id").Find(&msgs).Error
	return msgs, err
}

// LastChat is the id of the newest message of game gameID (0: none): the
// version of its chat.
func (s *Store) LastChat(gameID uint) (uint, error) {
	var g Game
	err := s.db.Select("id", "last_chat").Take(&g, gameID).Error
	return g.LastChat, notFound(err)
}

// ChatUnread is how many messages wait unread in the chats of userID's
// games.
func (s *Store) ChatUnread(userID uint) (int, error) {
	var n int
	err := s.db.Model(&Seat{}).Where("user_id = ? AND chat_unread > 0", userID).Select("COALESCE(SUM(chat_unread), 0)").Scan(&n).Error
	return n, err
}

// ChatGames lists at most limit of userID's games whose chat has
// messages they have not seen, most recently changed first.
func (s *Store) ChatGames(userID uint, limit int) ([]GameSummary, error) {
	var games []Game
	err := s.mine(userID, false, StatusOpen, StatusActive, StatusFinished, StatusEnded).Where("me.chat_unread > 0").Preload("Seats").Select("games.*").Order("games.updated_at DESC, games.id DESC").Limit(limit).Find(&games).Error
	if err != nil {
		return nil, err
	}
	return mySummaries(games, userID), nil
}

// NextChat is the game of userID's with unread messages written last (0:
// none).
func (s *Store) NextChat(userID uint) (uint, error) {
	var ids []uint
	err := s.db.Model(&Seat{}).Where("user_id = ? AND chat_unread > 0", userID).
		Order("(SELECT MAX(id) FROM chat_messages WHERE chat_messages.game_id = seats.game_id) DESC").Limit(1).Pluck("game_id", &ids).Error
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	return ids[0], nil
}

// ReadChat marks the chat of game gameID read for userID: its news not
// yet sent is no longer wanted (the next message is news again).
func (s *Store) ReadChat(userID, gameID uint) error {
	return s.transaction(func(tx *gorm.DB) error {
		res := tx.Model(&Seat{}).Where("game_id = ? AND user_id = ? AND chat_unread > 0", gameID, userID).Update("chat_unread", 0)
		if res.Error != nil || res.RowsAffected == 0 {
			return res.Error
		}
		return chatNewsRead(tx, userID, gameID)
	})
}

// chatNewsRead drops the news of game gameID's chat waiting for userID.
func chatNewsRead(tx *gorm.DB, userID, gameID uint) error {
	return tx.Model(&Mail{}).Where("user_id = ? AND game_id = ? AND kind = ? AND status = ?", userID, gameID, KindChat, MailPending).
		Updates(map[string]any{"status": MailSkipped, "last_error": "the player read or muted the chat"}).Error
}

// MuteChat mutes (or unmutes) the chat of game gameID for userID, who has
// a seat there: a muted chat is not shown to them and counts nothing
// unread.
func (s *Store) MuteChat(userID, gameID uint, muted bool) error {
	return s.transaction(func(tx *gorm.DB) error {
		res := tx.Model(&Seat{}).Where("game_id = ? AND user_id = ?", gameID, userID).
			Updates(map[string]any{"chat_muted": muted, "chat_unread": 0})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return ErrChatNotSeat
		}
		return chatNewsRead(tx, userID, gameID)
	})
}

// ReportChat reports message msgID of game gameID to the admins for
// reporter, once (a second report of the same message changes nothing),
// and at most ReportsPerDay a day (counted with reporter's row locked).
func (s *Store) ReportChat(reporter, gameID, msgID uint) error {
	var msg ChatMessage
	if err := s.db.Where("id = ? AND game_id = ?", msgID, gameID).First(&msg).Error; err != nil {
		return notFound(err)
	}
	return s.transaction(func(tx *gorm.DB) error {
		if err := lockUser(tx, reporter); err != nil {
			return err
		}
		now := s.now()
		var n int64
		if err := tx.Model(&ChatReport{}).Where("reporter_id = ? AND created_at > ?", reporter, now.Add(-24*time.Hour)).Count(&n).Error; err != nil {
			return err
		}
		if n >= ReportsPerDay {
			return ErrReportsDay
		}
		return tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&ChatReport{MessageID: msgID, ReporterID: reporter, CreatedAt: now}).Error
	})
}

// chatChanged tells the change listener that the chat of game gameID
// moved to message last, which the users seated count unread.
func (s *Store) chatChanged(gameID uint, seats []Seat, last uint) {
	c := Change{Game: gameID, Chat: last}
	for _, seat := range seats {
		if seat.UserID != nil {
			c.Users = append(c.Users, *seat.UserID)
		}
	}
	s.tell(c)
}

// Reported is a reported chat message, as the admins see it.
type Reported struct {
	ChatMessage
	Reports int
}

// Reports lists, limit at a time from offset, the messages with reports
// no admin has dealt with, most reported first, and how many there are.
func (s *Store) Reports(offset, limit int) ([]Reported, int, error) {
	open := s.db.Model(&ChatReport{}).Select("message_id, COUNT(*) AS reports").Where("closed = ?", false).Group("message_id")
	total, err := count(s.db.Table("(?) AS r", open))
	if err != nil {
		return nil, 0, err
	}
	var out []Reported
	err = s.db.Table("chat_messages").Select("chat_messages.*, r.reports").Joins("JOIN (?) AS r ON r.message_id = chat_messages.id", open).
		Order("r.reports DESC, chat_messages.id DESC").Offset(offset).Limit(limit).Scan(&out).Error
	return out, total, err
}

// Moderate deals with the reports of message msgID for admin: hide hides
// the message from everyone; otherwise it stays as it is. Either way its
// reports are closed, and the audit log keeps it.
func (s *Store) Moderate(admin *User, msgID uint, hide bool) error {
	var msg ChatMessage
	if err := s.db.First(&msg, msgID).Error; err != nil {
		return notFound(err)
	}
	return s.transaction(func(tx *gorm.DB) error {
		action := AuditKeep
		if hide {
			action = AuditHide
			if err := tx.Model(&ChatMessage{}).Where("id = ?", msgID).Update("hidden", true).Error; err != nil {
				return err
			}
		}
		if err := tx.Model(&ChatReport{}).Where("message_id = ?", msgID).Update("closed", true).Error; err != nil {
			return err
		}
		return s.audit(tx, admin, action, msg.Name, msg.GameID, msg.Text)
	})
}
