// Package mail sends the emails cacao writes to players (whose turn it is,
// sign-in and unsubscribe links) and signs the links inside them.
//
// A Mailer either logs (NewLog, for development) or speaks SMTP (NewSMTP).
// Both accept the same Message; Validate is the one place that decides
// whether a message is safe to put on the wire. Package mailtest is a
// loopback SMTP server for tests.
package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	netmail "net/mail"
	"slices"
	"strings"
)

// Message is one email.
type Message struct {
	To      string            // one address, as net/mail.ParseAddress accepts it
	Subject string            // any UTF-8; encoded on the wire when not ASCII
	Body    string            // plain text, UTF-8; sent with CRLF line breaks, ending in one
	Headers map[string]string // extra headers, e.g. "List-Unsubscribe", "List-Unsubscribe-Post"
	ID      string            // stable id; becomes Message-ID "<ID@cacao>" so a receiver can drop duplicates
}

// Mailer sends messages.
//
// Send returns nil only when the message was handed on (accepted by the
// SMTP server, or logged). An error means the message may not have been
// delivered and the caller may retry; a retry with the same ID lets a
// receiver drop the duplicate.
type Mailer interface {
	Send(ctx context.Context, m Message) error
}

// reserved are the headers the SMTP mailer writes itself (plus Cc and Bcc,
// which would only ever be smuggled in): an extra header must not repeat
// or override them.
var reserved = map[string]bool{
	"from": true, "to": true, "cc": true, "bcc": true, "subject": true, "date": true,
	"message-id": true, "mime-version": true, "content-type": true,
	"content-transfer-encoding": true,
}

// Validate reports whether m is safe to send. It refuses an empty To, a To
// that net/mail.ParseAddress rejects, control characters (CR and LF above
// all: header injection) in To, Subject or an extra header, an extra header
// name that is not printable ASCII without a colon, an extra header the
// mailer writes itself (From, To, Subject, Message-ID, ...; also Cc, Bcc),
// and an ID that could not sit inside a Message-ID (anything but letters,
// digits, '.' and RFC 5322 atext symbols). Every Mailer calls it before
// sending, so a refused message is never half-sent.
func Validate(m Message) error {
	if m.To == "" {
		return errors.New("mail: no recipient")
	}
	if err := checkText("recipient", m.To); err != nil {
		return err
	}
	if _, err := netmail.ParseAddress(m.To); err != nil {
		return fmt.Errorf("mail: bad recipient address: %w", err)
	}
	if err := checkText("subject", m.Subject); err != nil {
		return err
	}
	for _, k := range slices.Sorted(maps.Keys(m.Headers)) {
		if k == "" {
			return errors.New("mail: empty header name")
		}
		for i := 0; i < len(k); i++ {
			// RFC 5322 ftext: printable US-ASCII except colon.
			if c := k[i]; c < '!' || c > '~' || c == ':' {
				return fmt.Errorf("mail: header name %q is not allowed", k)
			}
		}
		if reserved[strings.ToLower(k)] {
			return fmt.Errorf("mail: header %q is written by the mailer", k)
		}
		if err := checkText("header "+k, m.Headers[k]); err != nil {
			return err
		}
	}
	for i := 0; i < len(m.ID); i++ {
		if c := m.ID[i]; !isIDByte(c) {
			return fmt.Errorf("mail: message id %q is not allowed", m.ID)
		}
	}
	return nil
}

// checkText refuses control characters other than tab in a header value:
// CR or LF would end the header and start one of the sender's choosing.
func checkText(what, s string) error {
	for _, r := range s {
		if (r < ' ' && r != '\t') || r == 0x7f {
			return fmt.Errorf("mail: %s contains a control character", what)
		}
	}
	return nil
}

// isIDByte reports whether c may appear in the left part of a Message-ID
// (RFC 5322 atext, plus '.').
func isIDByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-/=?^_`{|}~.", c) >= 0
}

type logMailer struct{ l *slog.Logger }

// NewLog returns the development mailer: Send logs the recipient, subject,
// id, extra headers and the full body at Info level on l (slog.Default()
// when l is nil) and returns nil. Nothing leaves the process. A message
// that Validate refuses is still logged, with the reason under "invalid",
// so the mistake shows in development rather than first in production.
func NewLog(l *slog.Logger) Mailer {
	if l == nil {
		l = slog.Default()
	}
	return logMailer{l: l}
}

func (lm logMailer) Send(ctx context.Context, m Message) error {
	attrs := []any{
		slog.String("to", m.To),
		slog.String("subject", m.Subject),
		slog.String("id", m.ID),
	}
	if len(m.Headers) > 0 {
		var hs []any
		for _, k := range slices.Sorted(maps.Keys(m.Headers)) {
			hs = append(hs, slog.String(k, m.Headers[k]))
		}
		attrs = append(attrs, slog.Group("headers", hs...))
	}
	attrs = append(attrs, slog.String("body", m.Body))
	if err := Validate(m); err != nil {
		attrs = append(attrs, slog.String("invalid", err.Error()))
	}
	lm.l.InfoContext(ctx, "mail: not sent (development mailer)", attrs...)
	return nil
}
