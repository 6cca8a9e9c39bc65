package handlers_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"cacao/handlers"
	"cacao/handlers/mail"
	"cacao/models"
	"cacao/views/viewtest"
)

// mailUser finds a signed-up user as the store has them now (tests only).
func (s *site) mailUser(name string) *models.User {
	s.t.Helper()
	u, err := s.store.Authenticate(name, "secret-"+name)
	if err != nil {
		s.t.Fatal(err)
	}
	return u
}

// fresh reloads u from the store.
func (s *site) fresh(u *models.User) *models.User {
	s.t.Helper()
	f, err := s.store.UserByID(u.ID)
	if err != nil {
		s.t.Fatal(err)
	}
	return f
}

// signer is the signer the site uses for its mail links.
func (s *site) signer() *mail.Signer {
	s.t.Helper()
	sg, err := handlers.LinkSigner(s.store)
	if err != nil {
		s.t.Fatal(err)
	}
	return sg
}

// pendingMail returns the due outbox row of user of kind.
func (s *site) pendingMail(userID uint, kind models.Kind) models.Mail {
	s.t.Helper()
	due, err := s.store.DueMail(1000)
	if err != nil {
		s.t.Fatal(err)
	}
	for _, m := range due {
		if m.UserID == userID && m.Kind == kind {
			return m
		}
	}
	s.t.Fatalf("no pending %s mail for user %d in %+v", kind, userID, due)
	return models.Mail{}
}

// composed writes row as the outbox would send it now, with the site's
// signer and address.
func (s *site) composed(row models.Mail) mail.Message {
	s.t.Helper()
	rcpt, skip, err := s.store.MailRecipient(&row)
	if err != nil || skip != "" {
		s.t.Fatalf("row %d is not sendable: %q (%v)", row.ID, skip, err)
	}
	ob := &mail.Outbox{Store: s.store, Signer: s.signer(), BaseURL: s.srv.URL}
	return ob.Compose(&row, rcpt)
}

// linkIn finds the link to path in a mail body, as a path on the site.
func (s *site) linkIn(body, path string) string {
	s.t.Helper()
	m := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(s.srv.URL+path) + `\?t=(\S+)$`).FindStringSubmatch(body)
	if m == nil {
		s.t.Fatalf("no %s link in the mail:\n%s", path, body)
	}
	return path + "?t=" + m[1]
}

// tamper changes one character of the token in link.
func tamper(link string) string {
	last := link[len(link)-1]
	c := byte('A')
	if last == 'A' {
		c = 'B'
	}
	return link[:len(link)-1] + string(c)
}

// signedLink is a link to path carrying c, signed with sg.
func signedLink(sg *mail.Signer, path string, c mail.Claims) string {
	return path + "?t=" + url.QueryEscape(sg.Sign(c))
}

// TestMailVerifyLink: saving an address queues a confirmation mail; its
// link confirms the address without a session, while a forged, tampered,
// wrong-purpose or expired link changes nothing, and a link for an address
// the user has since replaced no longer confirms anything.
func TestMailVerifyLink(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	u := s.mailUser("ana")
	if code, body := ana.get("/settings"); code != http.StatusOK || !viewtest.HasText(t, body, "h1", "Settings") {
		t.Fatalf("settings page: %d", code)
	}
	code, body := ana.post("/settings/news", newsForm("ana@example.test", eachMail...))
	if code != http.StatusOK || !strings.Contains(body, "We sent a link to ana@example.test") || !strings.Contains(body, "Not confirmed yet") {
		t.Fatalf("saving an address: %d, no word about confirming it\n%s", code, body)
	}
	if f := s.fresh(u); f.Email != "ana@example.test" || f.MailNews != eachNews || f.EmailVerified {
		t.Fatalf("stored: %q %v verified %v", f.Email, f.MailNews, f.EmailVerified)
	}
	row := s.pendingMail(u.ID, models.KindVerify)
	if row.To != "ana@example.test" {
		t.Fatalf("confirmation mail goes to %q", row.To)
	}
	msg := s.composed(row)
	if msg.To != "ana@example.test" {
		t.Fatalf("confirmation mail addressed to %q", msg.To)
	}
	anon := s.client("anon") // the mail may be opened anywhere, signed in or not

	// An expired link.
	expired := s.linkIn(msg.Body, "/m/verify")
	s.clock.Advance(mail.VerifyLinkLife + time.Minute)
	if code, body := anon.get(expired); code != http.StatusGone || !strings.Contains(body, "expired") {
		t.Fatalf("expired link: %d; want 410", code)
	}
	link := s.linkIn(s.composed(row).Body, "/m/verify")
	sg := s.signer()
	exp := s.store.Clock().Add(time.Hour)
	bad := map[string]string{
		"tampered":      tamper(link),
		"another key":   signedLink(mail.NewSigner([]byte("not-the-site-key-0123456789")), "/m/verify", mail.Claims{Purpose: mail.PurposeVerify, User: u.ID, Email: "ana@example.test", Exp: exp}),
		"go link":       signedLink(sg, "/m/verify", mail.Claims{Purpose: mail.PurposeGo, User: u.ID, Email: "ana@example.test", Exp: exp}),
		"no token":      "/m/verify",
		"garbage token": "/m/verify?t=x.y",
	}
	for name, l := range bad {
		if code, _ := anon.get(l); code != http.StatusForbidden {
			t.Errorf("%s: %d; want 403", name, code)
		}
	}
	if s.fresh(u).EmailVerified {
		t.Fatal("a refused link confirmed the address")
	}

	code, body = anon.get(link)
	if code != http.StatusOK || !strings.Contains(body, "confirmed") || !strings.Contains(body, "ana@example.test") {
		t.Fatalf("confirmation link: %d\n%s", code, body)
	}
	if !s.fresh(u).EmailVerified {
		t.Fatal("the confirmation link did not confirm the address")
	}
	if _, body := ana.get("/settings"); !strings.Contains(body, "This address is confirmed.") {
		t.Fatal("settings do not show the address as confirmed")
	}

	// A new address needs its own confirmation: the old link does not do.
	ana.post("/settings/news", newsForm("ana@elsewhere.test", eachMail...))
	if code, _ := anon.get(link); code != http.StatusUnprocessableEntity {
		t.Fatalf("old link after changing the address: %d; want 422", code)
	}
	if f := s.fresh(u); f.Email != "ana@elsewhere.test" || f.EmailVerified {
		t.Fatalf("after the old link: %q verified %v", f.Email, f.EmailVerified)
	}
}

// TestMailGoLinkSignsIn: the one-click link in a game mail signs its user
// in on a fresh session and opens the game; it signs in only the user it
// was made for, who sees only what they may; forged, expired and unknown
// users' links sign nobody in.
func TestMailGoLinkSignsIn(t *testing.T) {
	s := newSite(t)
	ana, bob := s.signup("ana"), s.signup("bob")
	anaU, bobU := s.mailUser("ana"), s.mailUser("bob")
	if _, err := s.store.SetEmail(anaU.ID, "ana@example.test", models.MailEach); err != nil {
		t.Fatal(err)
	}
	if err := s.store.VerifyEmail(anaU.ID, "ana@example.test"); err != nil {
		t.Fatal(err)
	}
	id := ana.createGame("greedy", "none", "none")
	row := s.pendingMail(anaU.ID, "started")
	link := s.linkIn(s.composed(row).Body, "/m/go")

	u, _ := url.Parse(s.srv.URL)
	sessionOf := func(c *client) string {
		for _, ck := range c.http.Jar.Cookies(u) {
			if ck.Name == "cacao_session" {
				return ck.Value
			}
		}
		return ""
	}
	// eve plants her own session in the browser where ana opens the mail:
	// the link must not sign ana in on a token eve knows.
	eve := s.signup("eve")
	planted := sessionOf(eve)
	if planted == "" {
		t.Fatal("eve has no session cookie")
	}
	fresh := s.client("ana")
	fresh.http.Jar.SetCookies(u, []*http.Cookie{{Name: "cacao_session", Value: planted, Path: "/"}})
	// Signed in as eve, the browser is asked before it becomes ana's (a
	// link opened by a trick would switch it unseen).
	code, body := fresh.get(link)
	if code != http.StatusOK || !strings.Contains(body, "This link is for the account ana. This browser is signed in as eve.") || !viewtest.HasText(t, body, "span.me", "eve") {
		t.Fatalf("go link in eve's browser: %d, not a question\n%s", code, body)
	}
	lu, _ := url.Parse(link)
	code, body = fresh.post("/m/go", url.Values{"t": {lu.Query().Get("t")}})
	if code != http.StatusOK || !viewtest.HasText(t, body, "h1", fmt.Sprintf("Game %d", id)) || !strings.Contains(body, "Your hand") || !viewtest.HasText(t, body, "span.me", "ana") {
		t.Fatalf("go link: %d, not ana's game page\n%s", code, body)
	}
	if got := sessionOf(fresh); got == "" || got == planted || got == sessionOf(ana) {
		t.Fatalf("the go link did not start a new session (cookie %q)", got)
	}
	if code, body := fresh.get("/settings"); code != http.StatusOK || !strings.Contains(body, "ana@example.test") {
		t.Fatalf("the go link's session is not ana's: %d", code)
	}
	if _, body := eve.get("/settings"); viewtest.HasText(t, body, "span.me", "ana") || strings.Contains(body, "ana@example.test") {
		t.Fatal("eve's planted session token became ana's session")
	}

	// A link for bob to ana's game signs in bob, who sees no hand there and
	// cannot play in it.
	sg := s.signer()
	exp := s.store.Clock().Add(mail.GoLinkLife)
	other := s.client("bob")
	code, body = other.get(signedLink(sg, "/m/go", mail.Claims{Purpose: mail.PurposeGo, User: bobU.ID, Game: id, Exp: exp}))
	if code != http.StatusOK || !viewtest.HasText(t, body, "span.me", "bob") || viewtest.HasText(t, body, "span.me", "ana") {
		t.Fatalf("bob's go link: %d, not signed in as bob", code)
	}
	if strings.Contains(body, "Your hand") || handTileRE.MatchString(body) {
		t.Fatal("bob's go link shows a hand in ana's game")
	}
	seat, l := s.seatOf(id, "ana")
	st := l.Play.State()
	if st.Current() != seat {
		t.Fatal("the game should wait on ana")
	}
	pl := st.LegalPlacements(nil)[0]
	form := url.Values{"version": {fmt.Sprint(l.Game.Version)}, "tile": {pl.Tile.String()}, "rot": {fmt.Sprint(pl.Rot)}, "at": {fmt.Sprintf("%d,%d", pl.At.X, pl.At.Y)}}
	if code, _ := other.post(fmt.Sprintf("/games/%d/turn", id), form); code != http.StatusForbidden {
		t.Fatalf("bob, signed in by a go link, played in ana's game: %d", code)
	}
	if after, _ := s.store.LoadGame(id); len(after.Log) != len(l.Log) {
		t.Fatal("bob's refused turn changed ana's game")
	}
	if code, _ := bob.get(fmt.Sprintf("/games/%d", id)); code != http.StatusOK {
		t.Fatalf("bob's own browser: %d", code)
	}

	// Opened again and again in new browsers, a link signs in 20 times in
	// a row (the one above among them), then leads to the log-in form,
	// which still lets bob in.
	again := signedLink(sg, "/m/go", mail.Claims{Purpose: mail.PurposeGo, User: bobU.ID, Game: id, Exp: exp})
	signedIn := 1
	for range 22 {
		c := s.client("bob")
		code, body := c.get(again)
		switch {
		case code == http.StatusOK && viewtest.HasText(t, body, "span.me", "bob"):
			signedIn++
		case code == http.StatusOK && viewtest.Has(t, body, fmt.Sprintf(`input[name="next"][value="/games/%d"]`, id)) && !viewtest.Has(t, body, "span.me"):
		default:
			t.Fatalf("bob's link opened again: %d\n%s", code, body)
		}
	}
	if signedIn != 20 {
		t.Fatalf("bob's link signed in %d times in a row; want 20", signedIn)
	}
	if code, body := s.client("bob").post("/login", url.Values{"username": {"bob"}, "password": {"secret-bob"}}); code != http.StatusOK || !viewtest.HasText(t, body, "span.me", "bob") {
		t.Fatalf("bob's log-in after his link's: %d", code)
	}

	// Links that sign nobody in.
	refused := []struct {
		name string
		link string
		want int
	}{
		{"tampered", tamper(link), http.StatusForbidden},
		{"verify link", signedLink(sg, "/m/go", mail.Claims{Purpose: mail.PurposeVerify, User: anaU.ID, Game: id, Exp: exp}), http.StatusForbidden},
		{"unknown user", signedLink(sg, "/m/go", mail.Claims{Purpose: mail.PurposeGo, User: 999, Game: id, Exp: exp}), http.StatusForbidden},
		{"expired", signedLink(sg, "/m/go", mail.Claims{Purpose: mail.PurposeGo, User: anaU.ID, Game: id, Exp: s.store.Clock().Add(-time.Minute)}), http.StatusGone},
	}
	for _, tc := range refused {
		c := s.client("nobody")
		if code, _ := c.get(tc.link); code != tc.want {
			t.Errorf("%s: %d; want %d", tc.name, code, tc.want)
		}
		if _, body := c.get("/settings"); !viewtest.HasText(t, body, "h1", "Log in") {
			t.Errorf("%s: signed someone in", tc.name)
		}
	}
}

// TestMailUnsubscribe: the unsubscribe link of any mail turns the user's
// mail off, by GET from the mail or by the mail client's one-click POST
// (no CSRF token, no session); a bad link changes nothing.
func TestMailUnsubscribe(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	u := s.mailUser("ana")
	ana.post("/settings/news", newsForm("ana@example.test", eachMail...))
	msg := s.composed(s.pendingMail(u.ID, models.KindVerify))
	if err := s.store.VerifyEmail(u.ID, "ana@example.test"); err != nil {
		t.Fatal(err)
	}
	full := strings.TrimSuffix(strings.TrimPrefix(msg.Headers["List-Unsubscribe"], "<"), ">")
	if !strings.HasPrefix(full, s.srv.URL+"/m/unsubscribe?t=") || msg.Headers["List-Unsubscribe-Post"] != "List-Unsubscribe=One-Click" {
		t.Fatalf("unsubscribe headers: %v", msg.Headers)
	}
	link := strings.TrimPrefix(full, s.srv.URL)
	if !strings.Contains(msg.Body, full) {
		t.Fatal("the mail body has no unsubscribe link")
	}
	mode := func() models.News { return s.fresh(u).MailNews }
	oneClick := func(l string) (int, string) {
		t.Helper()
		res, err := http.Post(s.srv.URL+l, "application/x-www-form-urlencoded", strings.NewReader("List-Unsubscribe=One-Click"))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}

	anon := s.client("anon")
	goLink := signedLink(s.signer(), "/m/unsubscribe", mail.Claims{Purpose: mail.PurposeGo, User: u.ID})
	for name, l := range map[string]string{"tampered": tamper(link), "go link": goLink, "no token": "/m/unsubscribe"} {
		if code, _ := anon.get(l); code != http.StatusForbidden {
			t.Errorf("GET %s: %d; want 403", name, code)
		}
		if code, _ := oneClick(l); code != http.StatusForbidden {
			t.Errorf("POST %s: %d; want 403", name, code)
		}
	}
	if m := mode(); m != eachNews {
		t.Fatalf("a bad unsubscribe link set the mail to %v", m)
	}

	code, body := anon.get(link)
	if code != http.StatusOK || !strings.Contains(body, "no more mail") {
		t.Fatalf("unsubscribe page: %d\n%s", code, body)
	}
	if m := mode(); m != 0 {
		t.Fatalf("after unsubscribing the mail is %v", m)
	}

	// Mail back on (same address: still confirmed), then the mail client's
	// one-click POST.
	if code, _ := ana.post("/settings/news", newsForm("ana@example.test", eachMail...)); code != http.StatusOK {
		t.Fatalf("turning mail on again: %d", code)
	}
	if f := s.fresh(u); f.MailNews != eachNews || !f.EmailVerified {
		t.Fatalf("mail on again: %v verified %v", f.MailNews, f.EmailVerified)
	}
	if code, body := oneClick(link); code != http.StatusOK || !strings.Contains(body, "unsubscribed") {
		t.Fatalf("one-click POST: %d %q", code, body)
	}
	if m := mode(); m != 0 {
		t.Fatalf("after the one-click POST the mail is %v", m)
	}

	// Once the account's token version moves on (sign out everywhere, a
	// new password), the links of mails sent before no longer work.
	if code, _ := ana.post("/settings/news", newsForm("ana@example.test", eachMail...)); code != http.StatusOK {
		t.Fatalf("turning mail on again: %d", code)
	}
	if err := s.store.SignOutEverywhere(u.ID); err != nil {
		t.Fatal(err)
	}
	if code, _ := anon.get(link); code != http.StatusForbidden || mode() != eachNews {
		t.Fatalf("an unsubscribe link from before signing out everywhere: %d, mail %v", code, mode())
	}
}

// TestSettingsRefuseBadInput: a bad address, an unknown mode or a vacation
// of the wrong length is refused with the reason and changes nothing; a
// valid vacation shows until when, and can be ended early.
func TestSettingsRefuseBadInput(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	u := s.mailUser("ana")
	if code, _ := ana.post("/settings/news", newsForm("ana@example.test", eachMail...)); code != http.StatusOK {
		t.Fatalf("saving a good address: %d", code)
	}
	queued, err := s.store.MailCount(models.MailPending)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		email, news, want string
	}{
		{"not an address", "turn", "is not an email address"},
		{"Ana <ana2@example.test>", "turn", "is not an email address"},
		{"ana2@example.test\r\nBcc: eve@example.test", "turn", "is not an email address"},
		{"ana2@example.test", "weekly", "Choose news from the list for each channel"},
	} {
		ana.get("/settings")
		code, body := ana.post("/settings/news", newsForm(tc.email, tc.news))
		if code != http.StatusUnprocessableEntity || !errorSays(t, body, tc.want) {
			t.Errorf("email %q news %q: %d; want 422 saying %q", tc.email, tc.news, code, tc.want)
		}
		if f := s.fresh(u); f.Email != "ana@example.test" || f.MailNews != eachNews {
			t.Fatalf("email %q news %q was stored: %q %v", tc.email, tc.news, f.Email, f.MailNews)
		}
	}
	if n, _ := s.store.MailCount(models.MailPending); n != queued {
		t.Fatalf("refused addresses queued %d confirmation mails", n-queued)
	}

	for _, days := range []string{"0", "99", "15", "-1", "abc", ""} {
		ana.get("/settings")
		code, body := ana.post("/settings/vacation", url.Values{"days": {days}})
		if code != http.StatusUnprocessableEntity || !strings.Contains(body, "You can take 1 to 14 days") {
			t.Errorf("vacation of %q days: %d; want 422 with the allowance", days, code)
		}
		if f := s.fresh(u); f.VacationUntil != nil || f.VacationDays != 0 {
			t.Fatalf("vacation of %q days was stored: until %v, %d days", days, f.VacationUntil, f.VacationDays)
		}
	}

	start := s.store.Clock()
	code, body := ana.post("/settings/vacation", url.Values{"days": {"3"}})
	if code != http.StatusOK || !strings.Contains(body, "Your clocks are paused until") || !strings.Contains(body, "You are on vacation until") ||
		!strings.Contains(body, "End my vacation now") {
		t.Fatalf("a three-day vacation: %d\n%s", code, body)
	}
	f := s.fresh(u)
	if f.VacationUntil == nil || f.VacationUntil.Sub(start) < 72*time.Hour || f.VacationUntil.Sub(start) > 72*time.Hour+time.Minute || f.VacationDays != 3 {
		t.Fatalf("stored vacation: until %v (started %v), %d days", f.VacationUntil, start, f.VacationDays)
	}
	if code, body := ana.post("/settings/vacation", url.Values{"days": {"2"}}); code != http.StatusUnprocessableEntity || !strings.Contains(body, "on vacation already") {
		t.Fatalf("a second vacation during the first: %d", code)
	}
	if g := s.fresh(u); !g.VacationUntil.Equal(*f.VacationUntil) || g.VacationDays != 3 {
		t.Fatal("a refused second vacation changed the first")
	}

	code, body = ana.post("/settings/vacation/end", nil)
	if code != http.StatusOK || !strings.Contains(body, "Welcome back") || strings.Contains(body, "End my vacation now") || !strings.Contains(body, "Start a vacation now") {
		t.Fatalf("ending the vacation: %d\n%s", code, body)
	}
	if f := s.fresh(u); f.VacationUntil != nil || f.OnVacation(s.store.Clock()) {
		t.Fatalf("vacation still stored after ending it: %v", f.VacationUntil)
	}
	if code, body := ana.post("/settings/vacation/end", nil); code != http.StatusUnprocessableEntity || !strings.Contains(body, "You are not on vacation") {
		t.Fatalf("ending a vacation that is not: %d", code)
	}
}

// eachMail names the news of an email each (all but chat), eachNews is it.
var eachMail = []string{"turn", "choice", "reminder", "timeout", "invitation", "result"}

const eachNews = models.AllNews &^ (models.NewsChat | models.NewsFollow)

// newsForm is Settings' news form: address email, in-app notices of all,
// and mail of the news named.
func newsForm(email string, mail ...string) url.Values {
	return url.Values{"email": {email}, "table": {"1"}, "news_app": eachMail, "news_mail": mail}
}
