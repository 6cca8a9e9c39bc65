package mail

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"cacao/handlers/hook"
	"cacao/handlers/push"
	"cacao/models"
	"cacao/views"
	"cacao/views/i18n"
)

// stopped is the end of a delivery that is neither sent nor to retry:
// skipped for good (why), or held until a time.
type stopped struct {
	why   string
	until time.Time
}

func (s *stopped) Error() string { return s.why }

// PushesPerHour bounds the pushes to one player's devices in an hour, each
// attempt counted: past it, their news waits.
const PushesPerHour = 120

// limit takes one of the perHour tries of key, or says until when the news
// waits.
func (o *Outbox) limit(key string, perHour int) error {
	k := models.LimitKey{Key: key, Rule: models.LimitRule{Burst: perHour, Every: time.Hour / time.Duration(perHour)}}
	wait, err := o.Store.LimitTake(k)
	if err != nil {
		return err
	}
	if wait > 0 {
		return &stopped{why: "too many tries this hour", until: o.Store.Clock().Add(wait)}
	}
	return nil
}

// HooksPerHour bounds the posts to one player's webhook in an hour, each
// attempt counted (one that fails too): past it, their news waits.
const HooksPerHour = 30

// PushLife is how long a push service keeps a push for a device that is
// off.
const PushLife = 24 * time.Hour

// notice is news m told in the recipient's language: the text and the
// address of its game.
func (o *Outbox) notice(m *models.Mail, r models.Recipient) (l *i18n.Lang, text, link string) {
	l = readerLang(&r.User)
	link = strings.TrimRight(o.BaseURL, "/") + "/"
	if m.GameID != 0 {
		link += fmt.Sprintf("games/%d", m.GameID)
	} else {
		link += strings.TrimPrefix(m.Kind.Page(), "/")
	}
	return l, views.NoticeText(l, m.Text, m.Format, m.NoteArgs()), link
}

// readerLang is u's language for what they are sent (the one they chose
// for the site; English if none: mail has no Accept-Language), with dates
// in their time zone.
func readerLang(u *models.User) *i18n.Lang {
	l, ok := i18n.Get(u.Lang)
	if !ok {
		l = i18n.En
	}
	return l.In(u.Zone())
}

// push sends news m to the device r.Push, at most PushesPerHour tries an
// hour to one player's devices; a device the push service no longer knows
// is forgotten.
func (o *Outbox) push(ctx context.Context, m *models.Mail, r models.Recipient) error {
	if o.Push == nil {
		return &stopped{why: "push is not set up"}
	}
	if err := o.limit(fmt.Sprintf("push:%d", m.UserID), PushesPerHour); err != nil {
		return err
	}
	_, text, link := o.notice(m, r)
	tag := "cacao"
	if m.GameID != 0 {
		tag = fmt.Sprintf("game-%d", m.GameID)
	}
	payload, err := json.Marshal(push.Message{Title: "Cacao", Body: text, URL: link, Tag: tag})
	if err != nil {
		return err
	}
	urgent := models.NewsOf(m.Kind)&models.WaitingNews != 0
	ctx, cancel := context.WithTimeout(ctx, postTimeout)
	defer cancel()
	err = o.Push.Send(ctx, r.Push, payload, PushLife, urgent)
	if errors.Is(err, push.ErrGone) {
		if err := o.Store.PushGone(r.Push.ID); err != nil {
			return err
		}
		return &stopped{why: "the push service says the device is gone"}
	}
	if errors.Is(err, push.ErrRefused) {
		return &stopped{why: err.Error()}
	}
	return err
}

// hook posts news m to the recipient's webhook, at most HooksPerHour an
// hour; an address the webhook refuses for good stops it.
func (o *Outbox) hook(ctx context.Context, m *models.Mail, r models.Recipient) error {
	if o.Hooks == nil {
		return &stopped{why: "webhooks are not set up"}
	}
	if err := o.limit(fmt.Sprintf("hook:%d", m.UserID), HooksPerHour); err != nil {
		return err
	}
	now := o.Store.Clock()
	l, text, link := o.notice(m, r)
	kind := models.NewsOf(m.Kind).Name()
	if m.Kind == models.KindTest {
		kind = string(models.KindTest)
	}
	ev := hook.Event{Kind: kind, Game: m.GameID, Title: l.T("Cacao: %s", views.NewsName(l, kind)), Text: text, URL: link, At: m.CreatedAt, Sent: now}
	ctx, cancel := context.WithTimeout(ctx, postTimeout)
	defer cancel()
	err := hook.Post(ctx, o.Hooks, r.User.HookURL, r.User.HookSecret, ev)
	if err != nil && hook.Permanent(err) {
		return &stopped{why: err.Error()}
	}
	return err
}
