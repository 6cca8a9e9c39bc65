package mail_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"log/slog"
	"mime"
	"mime/quotedprintable"
	"net"
	netmail "net/mail"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	gomail "github.com/wneessen/go-mail"

	"cacao/handlers/mail"
	"cacao/handlers/mail/mailtest"
)

func smtpTo(srv *mailtest.Server) mail.Mailer {
	return mail.NewSMTP(mail.SMTPConfig{Host: srv.Host(), Port: srv.Port(), From: "Cacao <cacao@example.com>"})
}

// parse reads a received message as a mail client would: headers
// unfolded, subject decoded, body quoted-printable decoded.
func parse(t *testing.T, data string) (netmail.Header, string, string) {
	t.Helper()
	msg, err := netmail.ReadMessage(strings.NewReader(data))
	if err != nil {
		t.Fatalf("received message does not parse: %v\n%s", err, data)
	}
	subj, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if err != nil {
		t.Fatalf("subject does not decode: %v", err)
	}
	body, err := io.ReadAll(quotedprintable.NewReader(msg.Body))
	if err != nil {
		t.Fatalf("body does not decode: %v", err)
	}
	return msg.Header, subj, string(body)
}

// TestSendDeliversReadableMail: what a player's mail client shows is what
// the game wrote, in any script, with the headers that let them
// unsubscribe and let their provider drop a duplicate.
func TestSendDeliversReadableMail(t *testing.T) {
	srv := mailtest.Start(t)
	long := "This line is deliberately longer than seventy-six characters, so quoted-printable must wrap it softly."
	body := "Salut Ana,\n\n轮到你了 — 请走棋。\nنوبت شماست، حرکت کنید.\n" + long + "\n.\n.a line that starts with a dot\ntrailing space \nend"
	m := mail.Message{
		To:      "ana@example.org",
		Subject: "轮到你了 — game 5",
		Body:    body,
		Headers: map[string]string{
			"List-Unsubscribe":      "<https://cacao.example/unsubscribe?t=abc>",
			"List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
		},
		ID: "turn-5-12",
	}
	if err := smtpTo(srv).Send(context.Background(), m); err != nil {
		t.Fatalf("Send: %v", err)
	}
	got := srv.Messages()
	if len(got) != 1 {
		t.Fatalf("server holds %d messages, want 1", len(got))
	}
	r := got[0]
	if r.From != "cacao@example.com" || len(r.To) != 1 || r.To[0] != "ana@example.org" {
		t.Errorf("envelope from %q to %q", r.From, r.To)
	}
	for i, l := range strings.SplitAfter(r.Data, "\r\n") {
		if strings.ContainsAny(strings.TrimSuffix(l, "\r\n"), "\r\n") {
			t.Errorf("line %d has a bare CR or LF: %q", i, l)
		}
		if len(l) > 78+2 {
			t.Errorf("line %d is %d octets long: %q", i, len(l), l)
		}
	}
	h, subj, gotBody := parse(t, r.Data)
	if subj != m.Subject {
		t.Errorf("subject %q, want %q", subj, m.Subject)
	}
	if raw := h.Get("Subject"); raw == m.Subject {
		t.Errorf("non-ASCII subject sent raw: %q", raw)
	}
	// DATA ends in a line break, so a body without a final one gains it
	// (see Message.Body).
	if gotBody = strings.ReplaceAll(gotBody, "\r\n", "\n"); gotBody != body+"\n" {
		t.Errorf("body\n%q\nwant\n%q", gotBody, body+"\n")
	}
	if to, err := h.AddressList("To"); err != nil || len(to) != 1 || to[0].Address != "ana@example.org" || to[0].Name != "" {
		t.Errorf("To %q (%v), want ana@example.org alone", h.Get("To"), err)
	}
	if mt, ps, err := mime.ParseMediaType(h.Get("Content-Type")); err != nil || mt != "text/plain" || !strings.EqualFold(ps["charset"], "utf-8") {
		t.Errorf("Content-Type %q (%v), want text/plain in UTF-8", h.Get("Content-Type"), err)
	}
	for k, want := range map[string]string{
		"Message-ID":                "<turn-5-12@cacao>",
		"From":                      "\"Cacao\" <cacao@example.com>",
		"MIME-Version":              "1.0",
		"Content-Transfer-Encoding": "quoted-printable",
		"List-Unsubscribe":          "<https://cacao.example/unsubscribe?t=abc>",
		"List-Unsubscribe-Post":     "List-Unsubscribe=One-Click",
	} {
		if got := h.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	if d, err := h.Date(); err != nil || time.Since(d) > time.Minute {
		t.Errorf("Date %q: %v", h.Get("Date"), err)
	}
}

// TestSendWithoutIDGetsUniqueMessageID: a message without an ID still
// carries a Message-ID, and two such messages are not taken for duplicates.
func TestSendWithoutIDGetsUniqueMessageID(t *testing.T) {
	srv := mailtest.Start(t)
	mlr := smtpTo(srv)
	for range 2 {
		if err := mlr.Send(context.Background(), mail.Message{To: "a@example.org", Subject: "hi", Body: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	msgs := srv.Messages()
	h1, _, _ := parse(t, msgs[0].Data)
	h2, _, _ := parse(t, msgs[1].Data)
	id1, id2 := h1.Get("Message-ID"), h2.Get("Message-ID")
	if !strings.HasPrefix(id1, "<") || !strings.HasSuffix(id1, "@cacao>") || id1 == id2 {
		t.Errorf("message ids %q and %q", id1, id2)
	}
}

// TestServerRefusalIsAnErrorThenRetrySucceeds: a temporary refusal is
// reported (with the server's words, as temporary) and nothing is
// delivered; the retry goes through.
func TestServerRefusalIsAnErrorThenRetrySucceeds(t *testing.T) {
	srv := mailtest.Start(t)
	mlr := smtpTo(srv)
	m := mail.Message{To: "ana@example.org", Subject: "your turn", Body: "go", ID: "t1"}
	srv.SetFail(true)
	err := mlr.Send(context.Background(), m)
	var se *gomail.SendError
	if !errors.As(err, &se) || se.ErrorCode() != 451 || !se.IsTemp() || !strings.Contains(err.Error(), "4.3.0 try again later") {
		t.Fatalf("Send to a failing server: %v, want the 451 reply", err)
	}
	if n := len(srv.Messages()); n != 0 {
		t.Fatalf("failing server stored %d messages", n)
	}
	srv.SetFail(false)
	if err := mlr.Send(context.Background(), m); err != nil {
		t.Fatalf("retry: %v", err)
	}
	if n := len(srv.Messages()); n != 1 {
		t.Errorf("after retry server holds %d messages, want 1", n)
	}
	if n := srv.Attempts(); n != 2 {
		t.Errorf("Attempts %d, want 2", n)
	}
}

// TestAuthIsNotSkipped: with a username configured, a server that offers
// no AUTH is an error, not an unauthenticated send.
func TestAuthIsNotSkipped(t *testing.T) {
	srv := mailtest.Start(t)
	mlr := mail.NewSMTP(mail.SMTPConfig{Host: srv.Host(), Port: srv.Port(), Username: "u", Password: "p"})
	if err := mlr.Send(context.Background(), mail.Message{To: "a@example.org", Body: "x"}); err == nil {
		t.Fatal("Send with credentials to a server without AUTH succeeded")
	}
	if srv.Attempts() != 0 {
		t.Errorf("MAIL FROM sent after failed auth")
	}
}

// trusted is the one certificate this test process trusts, through
// SSL_CERT_FILE: Go reads that file once per process, at the first
// verification, so a later run (-count) must reuse it. No other test in
// this package verifies a certificate.
var trusted struct {
	once sync.Once
	cfg  *tls.Config
}

func trustedCertificate(t *testing.T) *tls.Config {
	trusted.once.Do(func() {
		cfg, pem := mailtest.Certificate(t, "127.0.0.1")
		roots := filepath.Join(t.TempDir(), "roots.pem")
		if err := os.WriteFile(roots, pem, 0o600); err != nil {
			t.Fatal(err)
		}
		t.Setenv("SSL_CERT_FILE", roots)
		trusted.cfg = cfg
	})
	return trusted.cfg
}

// TestSTARTTLSWhenOffered: a server that offers STARTTLS gets the mail,
// and any credentials, only inside TLS, and only with a certificate valid
// for the configured host; an invalid one is an error, never a fallback to
// clear text.
func TestSTARTTLSWhenOffered(t *testing.T) {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		t.Skip("trusting a test certificate needs SSL_CERT_FILE, which this platform's verifier ignores")
	}
	cfg := trustedCertificate(t)
	untrusted, _ := mailtest.Certificate(t, "127.0.0.1")
	m := mail.Message{To: "ana@example.org", Subject: "your turn", Body: "go"}
	for _, user := range []string{"", "u"} {
		start := func(cert *tls.Config) *mailtest.Server {
			if user == "" {
				return mailtest.Start(t, mailtest.WithSTARTTLS(cert))
			}
			return mailtest.Start(t, mailtest.WithSTARTTLS(cert), mailtest.WithAuth(user, "p"))
		}
		srv := start(cfg)
		mlr := mail.NewSMTP(mail.SMTPConfig{Host: srv.Host(), Port: srv.Port(), Username: user, Password: "p"})
		if err := mlr.Send(context.Background(), m); err != nil {
			t.Fatalf("user %q: Send: %v", user, err)
		}
		if got := srv.Messages(); len(got) != 1 || !got[0].TLS || got[0].User != user {
			t.Errorf("user %q: received %+v, want one message over TLS", user, got)
		}

		srv = start(untrusted)
		mlr = mail.NewSMTP(mail.SMTPConfig{Host: srv.Host(), Port: srv.Port(), Username: user, Password: "p"})
		err := mlr.Send(context.Background(), m)
		var cerr *tls.CertificateVerificationError
		if !errors.As(err, &cerr) {
			t.Errorf("user %q: Send to a server with an untrusted certificate: %v, want a certificate error", user, err)
		}
		if n := srv.Attempts(); n != 0 {
			t.Errorf("user %q: MAIL FROM sent after a failed handshake", user)
		}
	}
}

// TestCredentialsStayOffTheNetworkInClear: a server that offers AUTH but
// not STARTTLS gets credentials only on loopback; to any other host name
// the send fails before AUTH and before MAIL.
func TestCredentialsStayOffTheNetworkInClear(t *testing.T) {
	// An IPv4-mapped IPv6 literal reaches the loopback server under a name
	// that is not on the loopback list: a remote host without a network.
	remote := "::ffff:127.0.0.1"
	send := func(srv *mailtest.Server, host, user string) error {
		mlr := mail.NewSMTP(mail.SMTPConfig{Host: host, Port: srv.Port(), Username: user, Password: "p", From: "cacao@example.com"})
		return mlr.Send(context.Background(), mail.Message{To: "a@example.org", Body: "x"})
	}
	if err := send(mailtest.Start(t), remote, ""); err != nil {
		t.Fatalf("to %s without credentials: %v", remote, err)
	}
	srv := mailtest.Start(t, mailtest.WithAuth("u", "p"))
	if err := send(srv, srv.Host(), "u"); err != nil {
		t.Errorf("to %s with credentials: %v", srv.Host(), err)
	}
	if err := send(srv, remote, "u"); err == nil {
		t.Errorf("to %s with credentials and no TLS: sent", remote)
	}
	if got := srv.Messages(); len(got) != 1 || got[0].User != "u" || srv.Attempts() != 1 {
		t.Errorf("received %+v after %d MAIL commands, want only the loopback send", got, srv.Attempts())
	}
}

// TestSendGivesUpAtContextDeadline: a server that never answers costs the
// caller its context deadline, not a hung worker.
func TestSendGivesUpAtContextDeadline(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		c, err := ln.Accept()
		if err != nil {
			return
		}
		io.Copy(io.Discard, c) // never greets; returns when the client hangs up
		c.Close()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	port := ln.Addr().(*net.TCPAddr).Port
	err = mail.NewSMTP(mail.SMTPConfig{Host: "127.0.0.1", Port: port}).Send(ctx, mail.Message{To: "a@example.org", Body: "x"})
	if err == nil {
		t.Fatal("Send to a silent server succeeded")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Send took %v", d)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v does not say the deadline passed", err)
	}
	<-done
}

// TestInvalidMessageNeverReachesServer: a message Validate refuses is
// refused by Send before any connection.
func TestInvalidMessageNeverReachesServer(t *testing.T) {
	srv := mailtest.Start(t)
	mlr := smtpTo(srv)
	for _, m := range invalid {
		if err := mlr.Send(context.Background(), m); err == nil {
			t.Errorf("Send(%+v) succeeded", m)
		}
	}
	if n := srv.Attempts(); n != 0 {
		t.Errorf("Attempts %d, want 0", n)
	}
}

var invalid = []mail.Message{
	{To: ""},
	{To: "a@b.c\r\nBcc: x@y.z"},
	{To: "a@b.c\nBcc: x@y.z"},
	{To: "not an address"},
	{To: "a@b.c", Subject: "hi\nBcc: x@y.z"},
	{To: "a@b.c", Subject: "hi\rthere"},
	{To: "a@b.c", Headers: map[string]string{"X-A\r\nBcc": "x@y.z"}},
	{To: "a@b.c", Headers: map[string]string{"X-A": "1\r\nBcc: x@y.z"}},
	{To: "a@b.c", Headers: map[string]string{"X-A: b": "1"}},
	{To: "a@b.c", Headers: map[string]string{"": "1"}},
	{To: "a@b.c", Headers: map[string]string{"bcc": "x@y.z"}},
	{To: "a@b.c", Headers: map[string]string{"Message-ID": "<other@x>"}},
	{To: "a@b.c", ID: "x>\r\nBcc: x@y.z"},
	{To: "a@b.c", ID: "a b"},
}

func TestValidate(t *testing.T) {
	for _, m := range invalid {
		err := mail.Validate(m)
		if err == nil {
			t.Errorf("Validate(%+q) = nil", m)
			continue
		}
		if !strings.HasPrefix(err.Error(), "mail: ") {
			t.Errorf("error %q lacks the package prefix", err)
		}
	}
	for _, m := range []mail.Message{
		{To: "a@b.c"},
		{To: "Ana Lúcia <ana@example.org>", Subject: "轮到你了\t— game 5", ID: "turn-5.12_x"},
		{To: "a@b.c", Headers: map[string]string{"List-Unsubscribe": "<https://x/u?t=a.b>", "Reply-To": "r@b.c"}},
	} {
		if err := mail.Validate(m); err != nil {
			t.Errorf("Validate(%+q) = %v", m, err)
		}
	}
}

func TestConfigFromEnv(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	if _, ok, err := mail.ConfigFromEnv(env("CACAO_SMTP_PORT", "25")); ok || err != nil {
		t.Errorf("no host: ok %v err %v, want false, nil", ok, err)
	}
	cfg, ok, err := mail.ConfigFromEnv(env("CACAO_SMTP_HOST", "smtp.example.com"))
	if !ok || err != nil {
		t.Fatalf("host only: ok %v err %v", ok, err)
	}
	if want := (mail.SMTPConfig{Host: "smtp.example.com", Port: 587, From: "cacao@smtp.example.com"}); cfg != want {
		t.Errorf("defaults %+v, want %+v", cfg, want)
	}
	cfg, ok, err = mail.ConfigFromEnv(env("CACAO_SMTP_HOST", "h.example", "CACAO_SMTP_PORT", "2525",
		"CACAO_SMTP_USER", "u", "CACAO_SMTP_PASSWORD", "p", "CACAO_SMTP_FROM", "Cacao <c@example.com>"))
	if want := (mail.SMTPConfig{Host: "h.example", Port: 2525, Username: "u", Password: "p", From: "Cacao <c@example.com>"}); !ok || err != nil || cfg != want {
		t.Errorf("all set: %+v %v %v, want %+v", cfg, ok, err, want)
	}
	for _, p := range []string{"x", "0", "70000", "-1", "25x"} {
		if _, ok, err := mail.ConfigFromEnv(env("CACAO_SMTP_HOST", "h", "CACAO_SMTP_PORT", p)); err == nil || ok {
			t.Errorf("port %q: ok %v err %v, want an error", p, ok, err)
		}
	}
	if _, _, err := mail.ConfigFromEnv(env("CACAO_SMTP_HOST", "h", "CACAO_SMTP_FROM", "not an address")); err == nil {
		t.Error("bad From accepted")
	}
}

// TestLogMailerShowsTheMail: in development the whole mail, link included,
// is in the log, and sending never fails.
func TestLogMailerShowsTheMail(t *testing.T) {
	var buf bytes.Buffer
	mlr := mail.NewLog(slog.New(slog.NewTextHandler(&buf, nil)))
	m := mail.Message{
		To: "ana@example.org", Subject: "your turn in game 5", ID: "t5",
		Body:    "Play: https://cacao.example/games/5\nبازی کنید",
		Headers: map[string]string{"List-Unsubscribe": "<https://cacao.example/u?t=zz>"},
	}
	if err := mlr.Send(context.Background(), m); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"level=INFO", "ana@example.org", "your turn in game 5", "https://cacao.example/games/5", `\nبازی کنید`, "https://cacao.example/u?t=zz"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
}
