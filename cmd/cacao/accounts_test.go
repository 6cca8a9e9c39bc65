package main

import (
	"context"
	"log/slog"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"cacao/handlers"
	"cacao/handlers/mail"
	"cacao/models"
)

// TestBrowserInviteThroughSignUp: bob, signed out, opens alice's
// invitation link, is told who invites him, signs up from there and is
// brought back to take the seat; the game starts.
func TestBrowserInviteThroughSignUp(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	alice := s.user("alice")
	g, err := s.store.CreateGame(alice, models.GameSpec{Seats: []string{models.SeatOpen}})
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, true, s.logs)
	bob := b.newTab("bob", true)
	bob.must(bob.navigate(s.base + "/join/" + g.InviteToken))
	if got := bob.text("main"); !strings.Contains(got, "alice invites you to a game of Cacao.") {
		b.fatalf("the invitation says %q", got)
	}
	bob.must(bob.click(`a[href^="/signup?next="]`, "Sign up to take the seat"))
	bob.must(bob.do(10*time.Second,
		chromedp.SetValue(chromedp.ID("username"), "bob"),
		chromedp.SetValue(chromedp.ID("password"), password),
	))
	bob.must(bob.click(`#main form button[type=submit]`, "Create account"))
	bob.must(bob.waitFor(`location.pathname.startsWith('/join/')`, 10*time.Second, "the invitation again"))
	bob.must(bob.click(`#main form button[type=submit]`, "Take a seat"))
	bob.must(bob.waitFor(`location.pathname.startsWith('/games/')`, 10*time.Second, "the game"))
	l, err := s.store.LoadGame(g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if l.Game.Status != models.StatusActive || seatOf(l, mustUser(t, s, "bob")) < 0 {
		b.fatalf("after the invitation the game is %s without bob", l.Game.Status)
	}
}

func mustUser(t *testing.T, s *site, name string) *models.User {
	t.Helper()
	u, err := s.store.Authenticate(name, password)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestBrowserPasswordReset: alice has forgotten her password: from the
// log-in page she asks for a link, which the log mailer writes out; the
// link sets a new password, with which she logs in.
func TestBrowserPasswordReset(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	alice := s.user("alice")
	if _, err := s.store.SetEmail(alice.ID, "alice@example.test", models.MailOff); err != nil {
		t.Fatal(err)
	}
	if err := s.store.VerifyEmail(alice.ID, "alice@example.test"); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, true, s.logs)
	a := b.newTab("alice", true)
	a.must(a.navigate(s.base + "/login"))
	a.must(a.click(`a[href="/reset"]`, "Forgot your password?"))
	a.must(a.do(10*time.Second, chromedp.SetValue(chromedp.ID("name"), "alice")))
	a.must(a.click(`#main form button[type=submit]`, "Send me a link"))
	if got := a.text("main"); !strings.Contains(got, "we sent it a link") {
		b.fatalf("after asking: %q", got)
	}
	// The outbox, as the worker runs it, with the log mailer.
	var logged syncBuffer
	sg, err := handlers.LinkSigner(s.store)
	if err != nil {
		t.Fatal(err)
	}
	ob := &mail.Outbox{Store: s.store, Mailer: mail.NewLog(slog.New(slog.NewTextHandler(&logged, nil))), Signer: sg, BaseURL: s.base,
		Log: slog.New(slog.NewTextHandler(&logged, nil))}
	if st, err := ob.RunOnce(context.Background()); err != nil || st.Sent != 1 {
		t.Fatalf("the outbox sent %+v: %v", st, err)
	}
	m := regexp.MustCompile(regexp.QuoteMeta(s.base) + `/reset/new\?t=[^\s"\\]+`).FindString(logged.String())
	if m == "" {
		t.Fatalf("no reset link in the mail:\n%s", logged.String())
	}
	if _, err := url.Parse(m); err != nil {
		t.Fatal(err)
	}
	a.must(a.navigate(m))
	a.must(a.do(10*time.Second, chromedp.SetValue(chromedp.ID("password"), "a brand new secret")))
	a.must(a.click(`#main form button[type=submit]`, "Set the password"))
	if got := a.text("main"); !strings.Contains(got, "Your new password is set") {
		b.fatalf("after setting it: %q", got)
	}
	a.must(a.navigate(s.base + "/login"))
	a.must(a.do(10*time.Second,
		chromedp.SetValue(chromedp.ID("username"), "alice"),
		chromedp.SetValue(chromedp.ID("password"), "a brand new secret"),
	))
	a.must(a.click(`#main form button[type=submit]`, "Log in"))
	if got := a.text("header.top"); !strings.Contains(got, "alice") {
		b.fatalf("alice cannot log in with her new password: %q", got)
	}
}
