package mail

import (
	"context"
	"crypto/rand"
	"fmt"
	"net"
	netmail "net/mail"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

const (
	defaultPort  = 587
	conversation = 30 * time.Second // the whole exchange, dial to QUIT
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
// connection to cfg.Host, composed and sent by go-mail as quoted-printable
// UTF-8 text. Send validates the message first (a refused message never
// opens a connection) and gives the whole conversation 30 seconds or the
// context's deadline, whichever is sooner; cancelling ctx aborts it.
//
// STARTTLS is used whenever the server offers it, and the certificate must
// be valid for cfg.Host. With cfg.Username set, Send authenticates with AUTH
// PLAIN and fails if the server offers no AUTH; to a host other than
// localhost, 127.0.0.1 or ::1 it also requires STARTTLS, so credentials
// never cross the network in clear.
//
// A refusal by the server is returned with the server's reply in its text,
// wrapping go-mail's *SendError (ErrorCode, IsTemp). Once the server has
// accepted the message, a failure after that (RSET, QUIT) is not reported,
// so a caller does not resend a delivered message.
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
	msg := gomail.NewMsg(gomail.WithNoDefaultUserAgent())
	if err := msg.From(s.cfg.From); err != nil {
		return fmt.Errorf("mail: bad sender address: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("mail: bad recipient address: %w", err)
	}
	msg.Subject(m.Subject)
	id := m.ID
	if id == "" {
		id = rand.Text()
	}
	msg.SetMessageIDWithValue(id + "@cacao")
	for k, v := range m.Headers {
		msg.SetGenHeader(gomail.Header(k), v)
	}
	msg.SetBodyString(gomail.TypeTextPlain, m.Body)

	ctx, cancel := context.WithTimeout(ctx, conversation)
	defer cancel()
	c, err := gomail.NewClient(s.cfg.Host, s.options(ctx)...)
	if err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil && !msg.IsDelivered() {
		if cerr := ctx.Err(); cerr != nil {
			return fmt.Errorf("mail: %w: %w", cerr, err)
		}
		return fmt.Errorf("mail: %w", err)
	}
	return nil
}

// options configures go-mail for one conversation that ctx bounds.
func (s *smtpMailer) options(ctx context.Context) []gomail.Option {
	tlsPolicy := gomail.TLSOpportunistic
	if s.cfg.Username != "" && !isLoopback(s.cfg.Host) {
		tlsPolicy = gomail.TLSMandatory
	}
	opts := []gomail.Option{
		gomail.WithTLSPolicy(tlsPolicy),
		// go-mail bounds each step, and honours ctx only while dialling:
		// closing the connection when ctx ends aborts whatever step is
		// under way. It also closes a connection go-mail leaves open when
		// the greeting, STARTTLS or AUTH fails. Host and port are joined
		// here because go-mail leaves an IPv6 literal without brackets.
		gomail.WithTimeout(conversation),
		gomail.WithDialContextFunc(func(dctx context.Context, network, _ string) (net.Conn, error) {
			addr := net.JoinHostPort(s.cfg.Host, strconv.Itoa(s.cfg.Port))
			conn, err := new(net.Dialer).DialContext(dctx, network, addr)
			if err == nil {
				context.AfterFunc(ctx, func() { conn.Close() })
			}
			return conn, err
		}),
	}
	if s.cfg.Username != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthPlain),
			gomail.WithUsername(s.cfg.Username), gomail.WithPassword(s.cfg.Password))
	}
	return opts
}

// isLoopback reports whether host names this machine, where AUTH in clear
// crosses no network (the same names go-mail's AUTH PLAIN accepts in clear).
func isLoopback(host string) bool {
	return host == "localhost" || host == "127.0.0.1" || host == "::1"
}
