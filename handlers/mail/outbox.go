package mail

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"cacao/models"
)

// Link purposes: what a signed link in a mail may do.
const (
	PurposeGo     = "go"     // sign in as the user and open a game
	PurposeUnsub  = "unsub"  // turn the user's email off
	PurposeVerify = "verify" // confirm an address
)

// GoLinkLife is how long a one-click link to a game works.
const GoLinkLife = 7 * 24 * time.Hour

// VerifyLinkLife is how long an address confirmation link works.
const VerifyLinkLife = 3 * 24 * time.Hour

// claimLease is how long one delivery attempt holds a message against other
// workers.
const claimLease = 2 * time.Minute

// Outbox delivers the messages the store queued, composing each one as
// things are when it is sent: to the user's current verified address, with
// signed one-click links, and only if it is still wanted (see
// models.Store.MailRecipient).
type Outbox struct {
	Store   *models.Store
	Mailer  Mailer
	Signer  *Signer
	BaseURL string // the site's public address, for links
	Log     *slog.Logger
}

// Stats counts what one RunOnce did.
type Stats struct{ Sent, Skipped, Failed int }

// RunOnce tries every message that is due once. A failed attempt is retried
// later with backoff (models.Backoff); the message is never lost.
func (o *Outbox) RunOnce(ctx context.Context) (Stats, error) {
	var st Stats
	due, err := o.Store.DueMail(100)
	if err != nil {
		return st, err
	}
	for i := range due {
		m := &due[i]
		ok, err := o.Store.ClaimMail(m, claimLease)
		if err != nil {
			return st, err
		}
		if !ok {
			continue
		}
		rcpt, skip, err := o.Store.MailRecipient(m)
		if err != nil {
			return st, err
		}
		if skip != "" {
			st.Skipped++
			if err := o.Store.MailSkipped(m, skip); err != nil {
				return st, err
			}
			continue
		}
		msg := o.Compose(m, rcpt)
		if err := o.Mailer.Send(ctx, msg); err != nil {
			st.Failed++
			if o.Log != nil {
				o.Log.Warn("mail not sent", "id", m.ID, "kind", m.Kind, "attempt", m.Attempts, "err", err)
			}
			if err := o.Store.MailRetry(m, err); err != nil {
				return st, err
			}
			continue
		}
		st.Sent++
		if err := o.Store.MailSent(m); err != nil {
			return st, err
		}
	}
	return st, nil
}

// Compose writes the email for an outbox message.
func (o *Outbox) Compose(m *models.Mail, r models.Recipient) Message {
	now := o.Store.Clock()
	base := strings.TrimRight(o.BaseURL, "/")
	link := func(path, purpose string, c Claims) string {
		c.Purpose = purpose
		return base + path + "?t=" + url.QueryEscape(o.Signer.Sign(c))
	}
	unsub := link("/m/unsubscribe", PurposeUnsub, Claims{User: m.UserID})
	msg := Message{To: r.To, ID: fmt.Sprintf("outbox-%d", m.ID), Headers: map[string]string{
		"List-Unsubscribe":      "<" + unsub + ">",
		"List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
	}}
	var b strings.Builder
	fmt.Fprintf(&b, "Hello %s,\n\n", r.User.Username)
	switch m.Kind {
	case models.KindVerify:
		msg.Subject = "Cacao: confirm your email address"
		fmt.Fprintf(&b, "Please confirm that this is your address, so that Cacao can email you:\n%s\n\nThe link works for 3 days. If you did not ask for this, ignore this mail.\n",
			link("/m/verify", PurposeVerify, Claims{User: m.UserID, Email: m.To, Exp: now.Add(VerifyLinkLife)}))
	case models.KindDigest:
		msg.Subject = fmt.Sprintf("Cacao: %d game(s) waiting for you", len(r.Waiting))
		b.WriteString("These games are waiting for you:\n\n")
		for _, g := range r.Waiting {
			fmt.Fprintf(&b, "- Game %d (%s)", g.Game.ID, players(g.Seats))
			if g.WaitingSince != nil {
				fmt.Fprintf(&b, ", waiting since %s", g.WaitingSince.UTC().Format("Mon 2 Jan 15:04 MST"))
			}
			if g.Deadline != nil {
				fmt.Fprintf(&b, ", time runs out %s", g.Deadline.UTC().Format("Mon 2 Jan 15:04 MST"))
			}
			fmt.Fprintf(&b, ":\n  %s\n", link("/m/go", PurposeGo, Claims{User: m.UserID, Game: g.Game.ID, Exp: now.Add(GoLinkLife)}))
		}
	default:
		msg.Subject = "Cacao: " + m.Text
		fmt.Fprintf(&b, "%s\n\nOpen the game with one click:\n%s\n", m.Text,
			link("/m/go", PurposeGo, Claims{User: m.UserID, Game: m.GameID, Exp: now.Add(GoLinkLife)}))
	}
	fmt.Fprintf(&b, "\n-- \nCacao · change what mail you get: %s/settings\nUnsubscribe from all Cacao mail with one click: %s\n", base, unsub)
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
