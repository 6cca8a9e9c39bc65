package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"cacao/models"
	"cacao/views/viewtest"
)

// TestPasswordReset: asking for a reset answers the same for an account
// with a confirmed address, one without and one that does not exist; only
// the first gets a mail. Its link sets a new password once: every session
// ends, the old password no longer logs in, the new one does, and the
// link is refused the second time; a bad new password is refused with a
// sentence and spends nothing.
func TestPasswordReset(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	s.signup("bob")
	au := s.mailUser("ana")
	if _, err := s.store.SetEmail(au.ID, "ana@example.test", models.MailOff); err != nil {
		t.Fatal(err)
	}
	if err := s.store.VerifyEmail(au.ID, "ana@example.test"); err != nil {
		t.Fatal(err)
	}
	visitor := s.client("x")
	_, login := visitor.get("/login")
	if !viewtest.Has(t, login, `a[href="/reset"]`) {
		t.Fatal("the log-in page does not offer a reset")
	}
	visitor.get("/reset")
	var answers []string
	for _, name := range []string{"ana", "bob", "nobody"} {
		code, body := visitor.post("/reset", url.Values{"name": {name}})
		if code != http.StatusOK {
			t.Fatalf("reset for %s: %d", name, code)
		}
		main, _ := viewtest.Find(t, body, "main").Html()
		answers = append(answers, main)
	}
	if answers[0] != answers[1] || answers[1] != answers[2] || !strings.Contains(answers[0], "If that account has a confirmed email address") {
		t.Fatalf("the answers differ:\n%s", strings.Join(answers, "\n"))
	}
	due, err := s.store.DueMail(100)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range due {
		if m.Kind == models.KindReset {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d reset mails queued, want ana's only", n)
	}
	link := s.linkIn(s.composed(s.pendingMail(au.ID, models.KindReset)).Body, "/reset/new")

	fresh := s.client("ana")
	code, body := fresh.get(link)
	if code != http.StatusOK || !viewtest.Has(t, body, `form[action="/reset/new"]`) {
		t.Fatalf("the reset link: %d", code)
	}
	tok := strings.TrimPrefix(link, "/reset/new?t=")
	tok, _ = url.QueryUnescape(tok)
	if code, body := fresh.post("/reset/new", url.Values{"t": {tok}, "password": {"short"}}); code != http.StatusUnprocessableEntity || !strings.Contains(body, "A password has 8 to 72 characters") {
		t.Fatalf("a short password: %d", code)
	}
	if code, body := fresh.post("/reset/new", url.Values{"t": {tok}, "password": {"a-new-secret"}}); code != http.StatusOK || !strings.Contains(body, "Your new password is set") {
		t.Fatalf("setting it: %d", code)
	}
	if signedIn(ana) {
		t.Fatal("ana's session survived the reset")
	}
	if _, err := s.store.Authenticate("ana", "secret-ana"); err == nil {
		t.Fatal("the old password still logs in")
	}
	if _, err := s.store.Authenticate("ana", "a-new-secret"); err != nil {
		t.Fatal("the new password does not log in")
	}
	if code, body := fresh.get(link); code != http.StatusUnprocessableEntity || !strings.Contains(body, "This link was used already") {
		t.Fatalf("the link a second time: %d", code)
	}
	if code, _ := fresh.post("/reset/new", url.Values{"t": {tok}, "password": {"another-secret"}}); code != http.StatusUnprocessableEntity {
		t.Fatalf("posting the used link: %d", code)
	}
}
