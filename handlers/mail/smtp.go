package mail

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"errors"
	"fmt"
	"maps"
	"mime"
	"mime/quotedprintable"
	"net"
	netmail "net/mail"
	"net/smtp"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

const (
	defaultPort  = 587
	dialTimeout  = 10 * time.Second
	conversation = 30 * time.Second // the whole exchange, greeting to QUIT
)

// SMTPConfig says where and as whom the SMTP mailer sends.
type SMTPConfig struct {
	Host     string // server name; also the name its TLS certificate must carry
	Port     int    // 0 means 587 (submission)
	Username string // empty means no AUTH
	Password string
	From     string // envelope and header sender; empty means "cacao@<Host>"
}

// ConfigFromEnv reads CACAO_SMTP_HOST, CACAO_SMTP_PORT (default 587),
// CACAO_SMTP_USER, CACAO_SMTP_PASSWORD and CACAO_SMTP_FROM (default
// "cacao@<host>") through getenv (os.Getenv in production). ok is false,
// with a zero cfg and nil err, when CACAO_SMTP_HOST is empty: the caller
// then uses the log mailer. err is set for a port that is not a number in
// 1..65535 or a From that net/mail.ParseAddress rejects, so a typo fails at
// start-up rather than at the first email.
func ConfigFromEnv(getenv func(string) string) (cfg SMTPConfig, ok bool, err error) {
	cfg.Host = strings.TrimSpace(getenv("CACAO_SMTP_HOST"))
	if cfg.Host == "" {
		return SMTPConfig{}, false, nil
	}
	cfg.Port = defaultPort
	if p := strings.TrimSpace(getenv("CACAO_SMTP_PORT")); p != "" {
		n, perr := strconv.Atoi(p)
		if perr != nil || n < 1 || n > 65535 {
			return SMTPConfig{}, false, fmt.Errorf("mail: CACAO_SMTP_PORT %q is not a port number", p)
		}
		cfg.Port = n
	}
	cfg.Username = getenv("CACAO_SMTP_USER")
	cfg.Password = getenv("CACAO_SMTP_PASSWORD")
	cfg.From = strings.TrimSpace(getenv("CACAO_SMTP_FROM"))
	if cfg.From == "" {
		cfg.From = "cacao@" + cfg.Host
	}
	if _, perr := netmail.ParseAddress(cfg.From); perr != nil {
		return SMTPConfig{}, false, fmt.Errorf("mail: CACAO_SMTP_FROM %q: %w", cfg.From, perr)
	}
	return cfg, true, nil
}

type smtpMailer struct{ cfg SMTPConfig }

// NewSMTP returns a Mailer that delivers each message over its own SMTP
// connection to cfg.Host. Send validates the message first (a refused
// message never opens a connection), uses STARTTLS whenever the server
// offers it, AUTH PLAIN when cfg.Username is set (net/smtp allows that only
// over TLS or to localhost), and gives the whole conversation 30 seconds or
// the context's deadline, whichever is sooner; cancelling ctx aborts it. A
// refusal by the server is returned wrapping the server's reply
// (*textproto.Error). Once the server has accepted the message, a failing
// QUIT is not reported, so a caller does not resend a delivered message.
func NewSMTP(cfg SMTPConfig) Mailer {
	if cfg.Port == 0 {
		cfg.Port = defaultPort
	}
	if cfg.From == "" {
		cfg.From = "cacao@" + cfg.Host
	}
	return &smtpMailer{cfg: cfg}
}

func (s *smtpMailer) Send(ctx context.Context, m Message) error {
	if err := Validate(m); err != nil {
		return err
	}
	from, err := netmail.ParseAddress(s.cfg.From)
	if err != nil {
		return fmt.Errorf("mail: bad sender address: %w", err)
	}
	to, _ := netmail.ParseAddress(m.To) // Validate checked it
	msg := compose(m, from, to, time.Now())

	ctxDeadline := false // the conversation deadline is ctx's
	fail := func(step string, err error) error {
		cerr := ctx.Err()
		if cerr == nil && ctxDeadline && errors.Is(err, os.ErrDeadlineExceeded) {
			cerr = context.DeadlineExceeded // the socket noticed before ctx did
		}
		if cerr != nil {
			return fmt.Errorf("mail: %s: %w: %w", step, cerr, err)
		}
		return fmt.Errorf("mail: %s: %w", step, err)
	}

	d := net.Dialer{Timeout: dialTimeout}
	conn, err := d.DialContext(ctx, "tcp", net.JoinHostPort(s.cfg.Host, strconv.Itoa(s.cfg.Port)))
	if err != nil {
		return fail("dial", err)
	}
	deadline := time.Now().Add(conversation)
	if dl, ok := ctx.Deadline(); ok && dl.Before(deadline) {
		deadline, ctxDeadline = dl, true
	}
	if err := conn.SetDeadline(deadline); err != nil {
		conn.Close()
		return fail("dial", err)
	}
	// Cancelling ctx mid-conversation unblocks whatever read or write is
	// pending; the deadline alone would only notice a cancel at its end.
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	c, err := smtp.NewClient(conn, s.cfg.Host)
	if err != nil {
		conn.Close()
		return fail("greeting", err)
	}
	defer c.Close()
	if err := c.Hello(helloName()); err != nil {
		return fail("hello", err)
	}
	if ok, _ := c.Extension("STARTTLS"); ok {
		if err := c.StartTLS(&tls.Config{ServerName: s.cfg.Host, MinVersion: tls.VersionTLS12}); err != nil {
			return fail("starttls", err)
		}
	}
	if s.cfg.Username != "" {
		if err := c.Auth(smtp.PlainAuth("", s.cfg.Username, s.cfg.Password, s.cfg.Host)); err != nil {
			return fail("auth", err)
		}
	}
	if err := c.Mail(from.Address); err != nil {
		return fail("sender refused", err)
	}
	if err := c.Rcpt(to.Address); err != nil {
		return fail("recipient refused", err)
	}
	w, err := c.Data()
	if err != nil {
		return fail("data refused", err)
	}
	if _, err := w.Write(msg); err != nil {
		return fail("writing message", err)
	}
	if err := w.Close(); err != nil { // reads the server's verdict on the message
		return fail("message refused", err)
	}
	c.Quit() // delivered; see NewSMTP
	return nil
}

// helloName is the name given in EHLO: the host name when it looks like one.
func helloName() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "localhost"
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '.') {
			return "localhost"
		}
	}
	return h
}

// compose renders m as it goes on the wire after DATA: headers, blank line,
// quoted-printable body, CRLF line endings throughout. m must have passed
// Validate.
func compose(m Message, from, to *netmail.Address, now time.Time) []byte {
	var b bytes.Buffer
	header := func(k, v string) { b.WriteString(k + ": " + v + "\r\n") }
	header("From", address(from))
	header("To", address(to))
	header("Subject", subject(m.Subject))
	header("Date", now.Format(time.RFC1123Z))
	id := m.ID
	if id == "" {
		id = rand.Text()
	}
	header("Message-ID", "<"+id+"@cacao>")
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=utf-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	for _, k := range slices.Sorted(maps.Keys(m.Headers)) {
		header(k, m.Headers[k])
	}
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b) // text mode: \n, \r\n and \r all become CRLF
	qp.Write([]byte(m.Body))            // writes to a bytes.Buffer cannot fail
	qp.Close()
	if !bytes.HasSuffix(b.Bytes(), []byte("\r\n")) {
		// DATA must end in CRLF; a soft line break supplies it without
		// adding a newline the body did not have.
		b.WriteString("=\r\n")
	}
	return b.Bytes()
}

// address formats a for a header: the bare address when there is no
// display name, else the RFC 5322 form with the name encoded as needed.
func address(a *netmail.Address) string {
	if a.Name == "" {
		return a.Address
	}
	return a.String()
}

// subject encodes s per RFC 2047 when it is not ASCII, folding between
// encoded words (at most 75 characters each) so a long subject never makes
// an over-long line. Q-encoding writes a space inside a word as '_', so
// "?= =?" only ever separates two words.
func subject(s string) string {
	e := mime.QEncoding.Encode("utf-8", s)
	if e == s {
		return s
	}
	return strings.ReplaceAll(e, "?= =?", "?=\r\n =?")
}
