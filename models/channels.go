package models

import "gorm.io/gorm"

// News is a kind of news a player chooses the channels of; a set of
// them is a bitmask (see User.AppNews).
type News int

// The kinds of news, in the order Settings lists them.
const (
	NewsTurn       News = 1 << iota // it is your turn
	NewsChoice                      // a choice waits (your workers were activated)
	NewsReminder                    // your time runs out soon
	NewsTimeout                     // a time ran out, a seat went to or came back from the stand-in
	NewsInvitation                  // invitations, and tables starting or cancelled
	NewsChat                        // a new message at one of your tables
	NewsResult                      // a game is over
	NewsFollow                      // a player one follows opened a public table
)

// Kinds lists every kind of news.
var Kinds = []News{NewsTurn, NewsChoice, NewsReminder, NewsTimeout, NewsInvitation, NewsChat, NewsResult, NewsFollow}

// AllNews is the set of every kind of news.
const AllNews = NewsTurn | NewsChoice | NewsReminder | NewsTimeout | NewsInvitation | NewsChat | NewsResult | NewsFollow

// newNews sets a new account's news by channel (see User.AppNews), as the
// columns' defaults of a database made by an older release do not.
func (u *User) newNews() {
	u.AppNews, u.MailNews, u.PushNews, u.HookNews = AllNews&^NewsChat, AllNews&^(NewsChat|NewsFollow), AllNews, AllNews
}

// WaitingNews is the news of a game waiting on the player: a digest lists
// those games.
const WaitingNews = NewsTurn | NewsChoice | NewsReminder

// Name is the news's name in forms and webhooks.
func (e News) Name() string {
	switch e {
	case NewsTurn:
		return "turn"
	case NewsChoice:
		return "choice"
	case NewsReminder:
		return "reminder"
	case NewsTimeout:
		return "timeout"
	case NewsInvitation:
		return "invitation"
	case NewsChat:
		return "chat"
	case NewsResult:
		return "result"
	case NewsFollow:
		return "follow"
	}
	return ""
}

// Channels a notice goes by.
const (
	ChanApp    = "app"    // the site's own notices
	ChanMail   = "mail"   // an email each
	ChanPush   = "push"   // a web push to each device the player registered
	ChanHook   = "hook"   // a post to the player's webhook
	ChanDigest = "digest" // a line in the daily email
)

// ChannelNames lists the channels, in the order Settings shows them.
var ChannelNames = []string{ChanApp, ChanMail, ChanPush, ChanHook, ChanDigest}

// Choices is a player's events for each channel.
type Choices map[string]News

// Choices returns the user's events for each channel.
func (u *User) Choices() Choices {
	return Choices{ChanApp: u.AppNews, ChanMail: u.MailNews, ChanPush: u.PushNews, ChanHook: u.HookNews, ChanDigest: u.DigestNews}
}

// Wants reports whether the user wants news of kind by channel ch.
func (u *User) Wants(ch string, kind Kind) bool {
	if kind == KindTest {
		return ch == ChanPush || ch == ChanHook
	}
	e := NewsOf(kind)
	return e != 0 && u.Choices()[ch]&e != 0
}

// Presets of mail, for SetEmail: none, an email for every event, or a
// daily digest of the games waiting and the chats unread.
const (
	MailOff    = "off"
	MailEach   = "each"
	MailDigest = "digest"
)

// mailPreset is the mail and digest events of a preset.
func mailPreset(preset string) (mail, digest News, ok bool) {
	switch preset {
	case MailOff:
		return 0, 0, true
	case MailEach: // the tables of those one follows are no mail of one's own games
		return AllNews &^ (NewsChat | NewsFollow), 0, true
	case MailDigest:
		return 0, WaitingNews | NewsChat, true
	}
	return 0, 0, false
}

// ErrBadChoices refuses news that is not in the list.
var ErrBadChoices = invalid("choose news from the list for each channel")

// SetChoices keeps the user's events for each channel given in c (those
// not given stay as they are). The site's own notices of a chat are its
// unread marks, always shown: ChanApp ignores NewsChat.
func (s *Store) SetChoices(userID uint, c Choices) error {
	cols := map[string]string{ChanApp: "app_news", ChanMail: "mail_news", ChanPush: "push_news", ChanHook: "hook_news", ChanDigest: "digest_news"}
	upd := map[string]any{}
	for ch, e := range c {
		col, ok := cols[ch]
		if !ok || e&^AllNews != 0 {
			return ErrBadChoices
		}
		if ch == ChanApp {
			e &^= NewsChat
		}
		upd[col] = int(e)
	}
	if len(upd) == 0 {
		return nil
	}
	return s.w.Model(&User{}).Where("id = ?", userID).Updates(upd).Error
}

// migrateMailMode turns the mail mode of databases from before choices
// per channel (users.email_mode: off, each or digest) into the mail and
// digest events, once, and drops the column.
func migrateMailMode(w *gorm.DB) error {
	m := w.Migrator()
	if !m.HasColumn(&User{}, "email_mode") {
		return nil
	}
	return w.Transaction(func(tx *gorm.DB) error {
		for _, p := range []string{MailOff, MailEach, MailDigest} {
			mail, digest, _ := mailPreset(p)
			err := tx.Exec("UPDATE users SET mail_news = ?, digest_news = ? WHERE email_mode = ?", int(mail), int(digest), p).Error
			if err != nil {
				return err
			}
		}
		return tx.Exec("ALTER TABLE users DROP COLUMN email_mode").Error
	})
}

// NewsNamed is the news called name (0 for none).
func NewsNamed(name string) News {
	for _, n := range Kinds {
		if n.Name() == name {
			return n
		}
	}
	return 0
}

// Names lists the names of the news in c for each channel.
func (c Choices) Names() map[string][]string {
	out := map[string][]string{}
	for ch, set := range c {
		out[ch] = []string{}
		for _, n := range Kinds {
			if set&n != 0 {
				out[ch] = append(out[ch], n.Name())
			}
		}
	}
	return out
}

// ErrTooManyTests refuses test notices past the limit.
var ErrTooManyTests = invalid("you sent test notices just now: wait a minute")

// QueueTest puts a test notice in the outbox for each of userID's devices
// and their webhook switched on, and returns how many.
func (s *Store) QueueTest(userID uint) (int, error) {
	var u User
	if err := s.db.Take(&u, userID).Error; err != nil {
		return 0, err
	}
	m, err := newsOf(KindTest, 0, "This is a test notice from Cacao: news of your games will come like this.")
	if err != nil {
		return 0, err
	}
	u.PushNews, u.HookNews = AllNews, AllNews
	n := 0
	err = s.transaction(func(tx *gorm.DB) error {
		p, err := peopleIn(tx, nil, userID)
		if err != nil {
			return err
		}
		n = len(p.subs[userID])
		if u.HookOn() {
			n++
		}
		return s.queue(tx, p, u, m)
	})
	return n, err
}

// NewHookSecret gives userID's webhook a new signing key: posts are signed
// with it from now on (the poster reads the key when it posts), and the
// old key no longer verifies any.
func (s *Store) NewHookSecret(userID uint) error {
	secret, err := newKey()
	if err != nil {
		return err
	}
	return s.w.Model(&User{}).Where("id = ?", userID).Update("hook_secret", secret).Error
}
