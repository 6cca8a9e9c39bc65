// Package mailtest is a loopback SMTP server for tests and load runs: it
// accepts what a mailer sends, keeps it for the caller to inspect, and can
// be told to refuse mail to exercise retries.
//
// It speaks EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP and QUIT; any other
// command is answered 502. By default it offers neither STARTTLS nor AUTH;
// the options WithSTARTTLS and WithAuth add them.
package mailtest

import (
	"bufio"
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Received is one message the server accepted.
type Received struct {
	From string   // envelope sender, without angle brackets
	To   []string // envelope recipients, in RCPT order
	Data string   // everything after DATA up to the final ".", dot-unstuffed, CRLF kept
	TLS  bool     // the session had switched to TLS with STARTTLS
	User string   // who authenticated with AUTH; "" for nobody
}

// Option configures a Server at Start.
type Option func(*Server)

// WithSTARTTLS makes the server offer STARTTLS with cfg (see Certificate)
// until the session has switched to TLS, and refuse AUTH before then.
func WithSTARTTLS(cfg *tls.Config) Option {
	return func(s *Server) { s.tls = cfg }
}

// WithAuth makes the server offer AUTH PLAIN, accept only user and pass,
// and refuse MAIL until the session has authenticated.
func WithAuth(user, pass string) Option {
	return func(s *Server) { s.user, s.pass = user, pass }
}

// Server is a running loopback SMTP server. Its methods are safe for
// concurrent use, as are any number of client connections.
type Server struct {
	ln         net.Listener
	wg         sync.WaitGroup
	tls        *tls.Config // nil: no STARTTLS
	user, pass string      // user "": no AUTH

	mu       sync.Mutex
	fail     bool
	msgs     []Received
	attempts int
	conns    map[net.Conn]struct{}
	closed   bool
}

// Start starts a server on 127.0.0.1 at a free port (Listen). It is
// stopped by t.Cleanup (Close).
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s, err := Listen(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// Listen starts a server on 127.0.0.1 at a free port, for a caller without
// a test (a load run); Close stops it.
func Listen(opts ...Option) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("mailtest: listen: %w", err)
	}
	s := &Server{ln: ln, conns: map[net.Conn]struct{}{}}
	for _, o := range opts {
		o(s)
	}
	s.wg.Go(s.accept)
	return s, nil
}

// Host is the address to dial, "127.0.0.1".
func (s *Server) Host() string { return "127.0.0.1" }

// Port is the port the server listens on.
func (s *Server) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// SetFail makes the server refuse mail while fail is true: MAIL FROM is
// answered "451 4.3.0 try again later" and no message is accepted.
func (s *Server) SetFail(fail bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = fail
}

// Messages returns a copy of the messages accepted so far, oldest first.
func (s *Server) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Received, len(s.msgs))
	for i, m := range s.msgs {
		m.To = slices.Clone(m.To)
		out[i] = m
	}
	return out
}

// Attempts is the number of MAIL FROM commands seen, refused ones included.
func (s *Server) Attempts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attempts
}

func (s *Server) accept() {
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return // closed
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			c.Close()
			return
		}
		s.conns[c] = struct{}{}
		// Add happens while accept itself still counts, so it never races Wait.
		s.wg.Go(func() {
			s.serve(c)
			s.mu.Lock()
			delete(s.conns, c)
			s.mu.Unlock()
		})
		s.mu.Unlock()
	}
}

// Close stops the server: the listener and any open connections are
// closed, and Close returns only once every connection goroutine has
// finished.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	s.ln.Close()
	for c := range s.conns {
		c.Close() // a client that never says QUIT must not hang the test
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// serve runs one SMTP session.
func (s *Server) serve(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	w := bufio.NewWriter(c)
	reply := func(lines string) bool {
		w.WriteString(lines + "\r\n")
		return w.Flush() == nil
	}
	var (
		greeted bool
		inTx    bool // MAIL accepted, transaction open
		from    string
		to      []string
		isTLS   bool
		user    string // authenticated as
	)
	reset := func() { inTx, from, to = false, "", nil }
	if !reply("220 mailtest ESMTP ready") {
		return
	}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		verb, arg, _ := strings.Cut(line, " ")
		var ok bool
		switch strings.ToUpper(verb) {
		case "EHLO":
			greeted = true
			reset()
			ext := "250-mailtest\r\n"
			if s.tls != nil && !isTLS {
				ext += "250-STARTTLS\r\n"
			}
			if s.user != "" {
				ext += "250-AUTH PLAIN\r\n"
			}
			ok = reply(ext + "250 8BITMIME")
		case "STARTTLS":
			if s.tls == nil || isTLS {
				ok = reply("502 5.5.2 command not recognized")
				break
			}
			if !reply("220 2.0.0 go ahead") {
				return
			}
			tc := tls.Server(c, s.tls)
			if tc.Handshake() != nil {
				return
			}
			// RFC 3207: the session starts over, greeting included.
			r, w = bufio.NewReader(tc), bufio.NewWriter(tc)
			isTLS, greeted, user = true, false, ""
			reset()
			ok = true
		case "AUTH":
			mech, resp, _ := strings.Cut(arg, " ")
			switch {
			case s.user == "" || !strings.EqualFold(mech, "PLAIN"):
				ok = reply("504 5.5.4 mechanism not supported")
			case s.tls != nil && !isTLS:
				ok = reply("538 5.7.11 encryption required")
			case user != "":
				ok = reply("503 5.5.1 already authenticated")
			case resp != "" && plain(resp) == "\x00"+s.user+"\x00"+s.pass:
				user = s.user
				ok = reply("235 2.7.0 authenticated")
			default:
				ok = reply("535 5.7.8 bad credentials")
			}
		case "HELO":
			greeted = true
			reset()
			ok = reply("250 mailtest")
		case "MAIL":
			s.mu.Lock()
			s.attempts++
			fail := s.fail
			s.mu.Unlock()
			addr, valid := path(arg, "FROM:")
			switch {
			case fail:
				ok = reply("451 4.3.0 try again later")
			case !greeted:
				ok = reply("503 5.5.1 say EHLO first")
			case s.user != "" && user == "":
				ok = reply("530 5.7.0 authentication required")
			case inTx:
				ok = reply("503 5.5.1 nested MAIL")
			case !valid:
				ok = reply("501 5.5.4 syntax: MAIL FROM:<address>")
			default:
				inTx, from, to = true, addr, nil
				ok = reply("250 2.1.0 ok")
			}
		case "RCPT":
			addr, valid := path(arg, "TO:")
			switch {
			case !inTx:
				ok = reply("503 5.5.1 need MAIL first")
			case !valid || addr == "":
				ok = reply("501 5.5.4 syntax: RCPT TO:<address>")
			default:
				to = append(to, addr)
				ok = reply("250 2.1.5 ok")
			}
		case "DATA":
			if !inTx || len(to) == 0 {
				ok = reply("503 5.5.1 need RCPT first")
				break
			}
			if !reply("354 end data with <CR><LF>.<CR><LF>") {
				return
			}
			var b strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return // message abandoned: not accepted
				}
				if l == ".\r\n" || l == ".\n" {
					break
				}
				b.WriteString(strings.TrimPrefix(l, ".")) // RFC 5321 4.5.2
			}
			s.mu.Lock()
			s.msgs = append(s.msgs, Received{From: from, To: to, Data: b.String(), TLS: isTLS, User: user})
			s.mu.Unlock()
			reset()
			ok = reply("250 2.0.0 accepted")
		case "RSET":
			reset()
			ok = reply("250 2.0.0 ok")
		case "NOOP":
			ok = reply("250 2.0.0 ok")
		case "QUIT":
			reply("221 2.0.0 bye")
			return
		default:
			ok = reply("502 5.5.2 command not recognized")
		}
		if !ok {
			return
		}
	}
}

// plain decodes an AUTH PLAIN response; "" when it is not base64.
func plain(resp string) string {
	b, err := base64.StdEncoding.DecodeString(resp)
	if err != nil {
		return ""
	}
	return string(b)
}

// path extracts the address from "FROM:<a@b.c> PARAMS" (prefix "FROM:")
// or "TO:<a@b.c>", ignoring parameters such as BODY=8BITMIME.
func path(arg, prefix string) (string, bool) {
	if len(arg) < len(prefix) || !strings.EqualFold(arg[:len(prefix)], prefix) {
		return "", false
	}
	rest := strings.TrimLeft(arg[len(prefix):], " ")
	if !strings.HasPrefix(rest, "<") {
		return "", false
	}
	end := strings.IndexByte(rest, '>')
	if end < 0 {
		return "", false
	}
	return rest[1:end], true
}
