package mailtest_test

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"net"
	"net/smtp"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
	"testing"

	"cacao/handlers/mail/mailtest"
)

func dial(t *testing.T, s *mailtest.Server) *textproto.Conn {
	t.Helper()
	c, err := textproto.Dial("tcp", net.JoinHostPort(s.Host(), strconv.Itoa(s.Port())))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	expect(t, c, "", 220)
	return c
}

// expect sends cmd (none when empty) and checks the reply code.
func expect(t *testing.T, c *textproto.Conn, cmd string, code int) {
	t.Helper()
	if cmd != "" {
		if err := c.PrintfLine("%s", cmd); err != nil {
			t.Fatal(err)
		}
	}
	if got, msg, err := c.ReadResponse(0); got != code {
		t.Fatalf("%q: got %d %q (%v), want %d", cmd, got, msg, err, code)
	}
}

// TestConversation walks a raw session through every command, including
// the out-of-order ones a buggy mailer might send.
func TestConversation(t *testing.T) {
	s := mailtest.Start(t)
	c := dial(t, s)
	expect(t, c, "MAIL FROM:<a@b.c>", 503) // before EHLO
	expect(t, c, "HELO me", 250)
	expect(t, c, "EHLO me", 250)
	expect(t, c, "RCPT TO:<x@y.z>", 503) // before MAIL
	expect(t, c, "DATA", 503)
	expect(t, c, "VRFY x", 502)
	expect(t, c, "MAIL FROM:a@b.c", 501)
	expect(t, c, "MAIL FROM:<a@b.c> BODY=8BITMIME", 250)
	expect(t, c, "MAIL FROM:<a@b.c>", 503) // nested
	expect(t, c, "RCPT TO:<x@y.z>", 250)
	expect(t, c, "RSET", 250)
	expect(t, c, "DATA", 503) // RSET dropped the transaction
	expect(t, c, "NOOP", 250)
	expect(t, c, "mail from:<a@b.c>", 250)
	expect(t, c, "rcpt to:<x@y.z>", 250)
	expect(t, c, "RCPT TO:<w@y.z>", 250)
	expect(t, c, "DATA", 354)
	w := c.DotWriter()
	fmt.Fprint(w, "Subject: hi\r\n\r\n.leading dot\r\n.\r\nend\r\n")
	w.Close()
	expect(t, c, "", 250)
	expect(t, c, "QUIT", 221)

	msgs := s.Messages()
	if len(msgs) != 1 {
		t.Fatalf("%d messages, want 1", len(msgs))
	}
	m := msgs[0]
	if want := "Subject: hi\r\n\r\n.leading dot\r\n.\r\nend\r\n"; m.Data != want {
		t.Errorf("data %q, want %q", m.Data, want)
	}
	if m.From != "a@b.c" || len(m.To) != 2 || m.To[0] != "x@y.z" || m.To[1] != "w@y.z" {
		t.Errorf("envelope %q -> %q", m.From, m.To)
	}
	if n := s.Attempts(); n != 5 {
		t.Errorf("Attempts %d, want 5", n)
	}
	msgs[0].To[0] = "changed"
	if s.Messages()[0].To[0] != "x@y.z" {
		t.Error("Messages shares its slices with the server")
	}
}

// TestFailAndConcurrency: many clients at once, some while the server
// refuses; exactly the accepted ones are stored.
func TestFailAndConcurrency(t *testing.T) {
	s := mailtest.Start(t)
	addr := net.JoinHostPort(s.Host(), strconv.Itoa(s.Port()))
	send := func(i int) error {
		return smtp.SendMail(addr, nil, "a@b.c", []string{fmt.Sprintf("p%d@y.z", i)}, []byte("Subject: x\r\n\r\nhi\r\n"))
	}
	s.SetFail(true)
	if err := send(0); err == nil {
		t.Fatal("failing server accepted mail")
	}
	s.SetFail(false)
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			if err := send(i); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := len(s.Messages()); n != 20 {
		t.Errorf("%d messages, want 20", n)
	}
	if n := s.Attempts(); n != 21 {
		t.Errorf("Attempts %d, want 21", n)
	}
}

// TestCleanupClosesIdleConnections: a client that never says QUIT does
// not hang the test's cleanup.
func TestCleanupClosesIdleConnections(t *testing.T) {
	var c net.Conn
	t.Run("inner", func(t *testing.T) {
		s := mailtest.Start(t)
		var err error
		c, err = net.Dial("tcp", net.JoinHostPort(s.Host(), strconv.Itoa(s.Port())))
		if err != nil {
			t.Fatal(err)
		}
		c.Read(make([]byte, 64)) // greeting: the session is live
	}) // the server's cleanup runs here, with c still open
	if c != nil {
		c.Close()
	}
}

// TestListenWithoutTest: a server started without a test (a load run's)
// takes mail, and once closed it takes no more connections and holds none.
func TestListenWithoutTest(t *testing.T) {
	s, err := mailtest.Listen()
	if err != nil {
		t.Fatal(err)
	}
	addr := net.JoinHostPort(s.Host(), strconv.Itoa(s.Port()))
	if err := smtp.SendMail(addr, nil, "a@example.test", []string{"b@example.test"}, []byte("Subject: hi\r\n\r\nhello\r\n")); err != nil {
		t.Fatal(err)
	}
	if m := s.Messages(); len(m) != 1 || m[0].To[0] != "b@example.test" {
		t.Fatalf("messages: %+v", m)
	}
	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	idle.Read(make([]byte, 64)) // greeting: the session is live
	s.Close()
	if _, err := idle.Read(make([]byte, 64)); err == nil {
		t.Fatal("a session stays open after Close")
	}
	if c, err := net.Dial("tcp", addr); err == nil {
		c.Close()
		t.Fatal("a closed server takes connections")
	}
}

// TestSTARTTLSAndAuth: with both options the server behaves like a
// submission server: credentials only inside TLS, mail only after AUTH, and
// what arrived says how it came.
func TestSTARTTLSAndAuth(t *testing.T) {
	cfg, pemCert := mailtest.Certificate(t, "127.0.0.1")
	s := mailtest.Start(t, mailtest.WithSTARTTLS(cfg), mailtest.WithAuth("u", "p"))
	c := dial(t, s)
	if err := c.PrintfLine("EHLO me"); err != nil {
		t.Fatal(err)
	}
	_, ext, err := c.ReadResponse(250)
	if err != nil || !strings.Contains(ext, "STARTTLS") || !strings.Contains(ext, "AUTH PLAIN") {
		t.Fatalf("EHLO: %q %v, want STARTTLS and AUTH PLAIN offered", ext, err)
	}
	cred := base64.StdEncoding.EncodeToString([]byte("\x00u\x00p"))
	expect(t, c, "AUTH PLAIN "+cred, 538) // not in clear
	expect(t, c, "MAIL FROM:<a@b.c>", 530)

	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pemCert)
	overTLS := func() *smtp.Client {
		sc, err := smtp.Dial(net.JoinHostPort(s.Host(), strconv.Itoa(s.Port())))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { sc.Close() })
		if err := sc.StartTLS(&tls.Config{ServerName: "127.0.0.1", RootCAs: roots}); err != nil {
			t.Fatal(err)
		}
		if ok, _ := sc.Extension("STARTTLS"); ok {
			t.Error("STARTTLS still offered inside TLS")
		}
		return sc
	}
	if err := overTLS().Auth(smtp.PlainAuth("", "u", "wrong", "127.0.0.1")); err == nil {
		t.Error("wrong password accepted")
	}
	sc := overTLS()
	if err := sc.Auth(smtp.PlainAuth("", "u", "p", "127.0.0.1")); err != nil {
		t.Fatal(err)
	}
	if err := sc.Mail("a@b.c"); err != nil {
		t.Fatal(err)
	}
	if err := sc.Rcpt("x@y.z"); err != nil {
		t.Fatal(err)
	}
	w, err := sc.Data()
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(w, "Subject: hi\r\n\r\nhi\r\n")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	sc.Quit()
	if msgs := s.Messages(); len(msgs) != 1 || !msgs[0].TLS || msgs[0].User != "u" {
		t.Errorf("messages %+v, want one that came over TLS from u", msgs)
	}
}
