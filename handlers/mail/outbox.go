package mail

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"cacao/handlers/push"
	"cacao/models"
	"cacao/views"
)

// Link purposes: what a signed link in a mail may do.
const (
	PurposeGo     = "go"     // sign in as the user and open a game
	PurposeUnsub  = "unsub"  // turn the user's email off
	PurposeVerify = "verify" // confirm an address
	PurposeReset  = "reset"  // set a new password, once
)

// GoLinkLife is how long a one-click link to a game works.
const GoLinkLife = 7 * 24 * time.Hour

// VerifyLinkLife is how long an address confirmation link works.
const VerifyLinkLife = 3 * 24 * time.Hour

// claimLease is how long one delivery attempt holds a message against other
// workers: well over a post's time (postTimeout), so that no other worker
// takes a post still under way.
const claimLease = 2 * time.Minute

// Outbox delivers the messages the store queued, composing each one as
// things are when it is sent: to the user's current verified address, with
// signed one-click links, and only if it is still wanted (see
// models.Store.MailRecipient). Mail goes in RunOnce; pushes and webhook
// posts, which wait on servers the players chose, go apart (Posts), so
// that no mail waits for them.
type Outbox struct {
	Store   *models.Store
	Mailer  Mailer
	Signer  *Signer
	BaseURL string // the site's public address, for links
	Log     *slog.Logger
	// Push sends to players' devices, Hooks posts to their webhooks (the
	// client of package hook, which refuses private addresses); without
	// them that news is skipped.
	Push  *push.Sender
	Hooks *http.Client
	// PostsAtOnce bounds the posts under way at once (0: DefaultPostsAtOnce).
	PostsAtOnce int
}

// Stats counts what a run did (Held: put off until the end of the
// recipient's quiet hours or the hour's limit; Off: posts whose device or
// webhook was switched off, failing, after them).
type Stats struct{ Sent, Skipped, Failed, Held, Off int }

// add counts what o did in st too.
func (st *Stats) add(o Stats) {
	st.Sent, st.Skipped, st.Failed, st.Held, st.Off = st.Sent+o.Sent, st.Skipped+o.Skipped, st.Failed+o.Failed, st.Held+o.Held, st.Off+o.Off
}

// RunOnce tries every mail that is due once, in turn (not the pushes and
// webhook posts: Posts). A failed attempt is retried later with backoff
// (models.Backoff); the message is never lost.
func (o *Outbox) RunOnce(ctx context.Context) (Stats, error) {
	var st Stats
	due, err := o.Store.DueMail(100)
	if err != nil {
		return st, err
	}
	for i := range due {
		did, err := o.deliver(ctx, &due[i])
		st.add(did)
		if err != nil {
			return st, err
		}
	}
	return st, nil
}

// deliver tries m once and returns what it did (nothing when another
// worker took it).
func (o *Outbox) deliver(ctx context.Context, m *models.Mail) (Stats, error) {
	ok, err := o.Store.ClaimMail(m, claimLease)
	if err != nil || !ok {
		return Stats{}, err
	}
	rcpt, skip, err := o.Store.MailRecipient(m)
	if err != nil {
		return Stats{}, err
	}
	if skip != "" {
		return Stats{Skipped: 1}, o.Store.MailSkipped(m, skip)
	}
	if until, quiet := rcpt.User.QuietUntil(o.Store.Clock()); quiet && models.Held(m.Kind) {
		return Stats{Held: 1}, o.Store.MailHeld(m, until, models.HeldQuiet)
	}
	switch m.Channel {
	case models.ChanPush:
		err = o.push(ctx, m, rcpt)
	case models.ChanHook:
		err = o.hook(ctx, m, rcpt)
	default:
		err = o.Mailer.Send(ctx, o.Compose(m, rcpt))
	}
	var stop *stopped
	switch {
	case errors.As(err, &stop):
		if stop.until.IsZero() {
			return Stats{Skipped: 1}, o.Store.MailSkipped(m, stop.why)
		}
		return Stats{Held: 1}, o.Store.MailHeld(m, stop.until, stop.why)
	case err != nil && ctx.Err() != nil:
		// The worker is stopping: the claim's lease runs out and another
		// attempt follows; the failure was not the server's.
		return Stats{}, nil
	case err != nil:
		if o.Log != nil {
			o.Log.Warn("news not sent", "id", m.ID, "kind", m.Kind, "channel", m.Channel, "attempt", m.Attempts, "err", err)
		}
		if m.Channel != models.ChanPush && m.Channel != models.ChanHook {
			return Stats{Failed: 1}, o.Store.MailRetry(m, err)
		}
		off, err := o.Store.PostFailed(m, err)
		if off {
			if o.Log != nil {
				o.Log.Info("switched off", "user", m.UserID, "channel", m.Channel, "device", m.To)
			}
			return Stats{Off: 1}, err
		}
		return Stats{Failed: 1}, err
	}
	return Stats{Sent: 1}, o.Store.MailSent(m, rcpt.News...)
}

// Compose writes the email for an outbox message.
func (o *Outbox) Compose(m *models.Mail, r models.Recipient) Message {
	now := o.Store.Clock()
	base := strings.TrimRight(o.BaseURL, "/")
	link := func(path, purpose string, c Claims) string {
		c.Purpose = purpose
		return base + path + "?t=" + url.QueryEscape(o.Signer.Sign(c))
	}
	unsub := link("/m/unsubscribe", PurposeUnsub, Claims{User: m.UserID, Version: r.User.TokenVersion})
	msg := Message{To: r.To, ID: fmt.Sprintf("outbox-%d", m.ID), Headers: map[string]string{
		"List-Unsubscribe":      "<" + unsub + ">",
		"List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
	}}
	l := readerLang(&r.User)
	date := func(t time.Time) string { return l.Date(t, false, true) }
	var b strings.Builder
	b.WriteString(l.T("Hello %s,", r.User.Username) + "\n\n")
	switch m.Kind {
	case models.KindVerify:
		msg.Subject = l.T("Cacao: confirm your email address")
		b.WriteString(l.T("Please confirm that this is your address, so that Cacao can email you:") + "\n" +
			link("/m/verify", PurposeVerify, Claims{User: m.UserID, Email: m.To, Exp: now.Add(VerifyLinkLife)}) + "\n\n" +
			l.T("The link works for 3 days. If you did not ask for this, ignore this mail.") + "\n")
	case models.KindReset:
		msg.Subject = l.T("Cacao: set a new password")
		b.WriteString(l.T("Someone, we hope you, asked to set a new password for your account %s. This link lets you, once, within an hour:", r.User.Username) + "\n" +
			link("/reset/new", PurposeReset, Claims{User: m.UserID, Exp: now.Add(models.ResetLinkLife), Version: r.User.TokenVersion}) + "\n\n" +
			l.T("Setting it signs you out everywhere. If you did not ask for this, ignore this mail: your password stays as it is.") + "\n")
	case models.KindDigest:
		switch {
		case len(r.Waiting) > 0:
			msg.Subject = l.N("Cacao: %d game waiting for you", "Cacao: %d games waiting for you", len(r.Waiting), len(r.Waiting))
			b.WriteString(l.T("These games are waiting for you:") + "\n\n")
		case len(r.Chats) > 0:
			msg.Subject = l.T("Cacao: new messages at your tables")
		default:
			msg.Subject = l.T("Cacao: news of your games")
		}
		for _, g := range r.Waiting {
			line := l.T("Game %d (%s)", int(g.Game.ID), players(g.Seats))
			if g.WaitingSince != nil {
				line = l.T("%s, waiting since %s", line, date(*g.WaitingSince))
			}
			if g.Deadline != nil {
				line = l.T("%s, time runs out %s", line, date(*g.Deadline))
			}
			fmt.Fprintf(&b, "- %s:\n  %s\n", line, link("/m/go", PurposeGo, Claims{User: m.UserID, Game: g.Game.ID, Exp: now.Add(GoLinkLife), Version: r.User.TokenVersion}))
		}
		if len(r.Chats) > 0 {
			if len(r.Waiting) > 0 {
				b.WriteString("\n")
			}
			b.WriteString(l.T("New messages in the chat of these games:") + "\n\n")
		}
		for _, g := range r.Chats {
			line := l.N("Game %d (%s): %d new message", "Game %d (%s): %d new messages", g.ChatUnread, int(g.Game.ID), players(g.Seats), g.ChatUnread)
			fmt.Fprintf(&b, "- %s:\n  %s\n", line, link("/m/go", PurposeGo, Claims{User: m.UserID, Game: g.Game.ID, Exp: now.Add(GoLinkLife), Version: r.User.TokenVersion}))
		}
		if len(r.News) > 0 {
			if len(r.Waiting)+len(r.Chats) > 0 {
				b.WriteString("\n")
			}
			b.WriteString(l.T("News since the last daily email:") + "\n\n")
		}
		for _, n := range r.News {
			fmt.Fprintf(&b, "- %s (%s)\n", views.NoticeText(l, n.Text, n.Format, n.NoteArgs()), date(n.CreatedAt))
			if n.GameID != 0 {
				fmt.Fprintf(&b, "  %s\n", link("/m/go", PurposeGo, Claims{User: m.UserID, Game: n.GameID, Exp: now.Add(GoLinkLife), Version: r.User.TokenVersion}))
			} else if page := n.Kind.Page(); page != "" {
				fmt.Fprintf(&b, "  %s\n", base+page)
			}
		}
	default:
		text := views.NoticeText(l, m.Text, m.Format, m.NoteArgs())
		msg.Subject = l.T("Cacao: %s", text)
		if m.GameID == 0 { // news of no game (a tournament's): the page it leads to
			b.WriteString(text + "\n\n" + l.T("See it on the site:") + "\n" + base + cmp.Or(m.Kind.Page(), "/") + "\n")
			break
		}
		b.WriteString(text + "\n\n" + l.T("Open the game with one click:") + "\n" +
			link("/m/go", PurposeGo, Claims{User: m.UserID, Game: m.GameID, Exp: now.Add(GoLinkLife), Version: r.User.TokenVersion}) + "\n")
	}
	// Links stand apart from the translated text, alone on their lines.
	b.WriteString("\n-- \n" + l.T("Cacao · change what mail you get:") + "\n" + base + "/settings\n" +
		l.T("Unsubscribe from all Cacao mail with one click:") + "\n" + unsub + "\n")
	msg.Body = b.String()
	return msg
}

func players(seats []models.Seat) string {
	names := make([]string, 0, len(seats))
	for _, s := range seats {
		names = append(names, s.Name)
	}
	return strings.Join(names, ", ")
}
