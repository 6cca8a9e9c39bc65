package handlers_test

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"cacao/engine"
	"cacao/models"
	"cacao/views"
	"cacao/views/i18n"
	"cacao/views/viewtest"
)

// getLang fetches a page with an Accept-Language header.
func (c *client) getLang(path, accept string) (int, string) {
	c.t.Helper()
	req, _ := http.NewRequest("GET", c.s.srv.URL+path, nil)
	req.Header.Set("Accept-Language", accept)
	return c.do(req)
}

// pageLang is the language and direction of a page's <html> ("fa rtl"),
// "" if it does not say both.
func pageLang(t testing.TB, body string) string {
	t.Helper()
	lang, ok1 := viewtest.Attr(t, body, "html", "lang")
	dir, ok2 := viewtest.Attr(t, body, "html", "dir")
	if !ok1 || !ok2 {
		return ""
	}
	return lang + " " + dir
}

// TestLanguageFromBrowser: a visitor gets the language their browser
// asks for, right to left for Persian, English otherwise.
func TestLanguageFromBrowser(t *testing.T) {
	s := newSite(t)
	c := s.client("visitor")
	cases := []struct{ accept, want, text string }{
		{"fa-IR,fa;q=0.9,en;q=0.5", "fa rtl", "قوانین"},
		{"zh-TW,zh;q=0.9", "zh-Hant ltr", "規則"},
		{"zh-CN,zh;q=0.9", "zh-Hans ltr", "规则"},
		{"de-DE", "de ltr", "Regeln"},
		{"es-MX,es;q=0.9,en;q=0.5", "es ltr", "Reglas"},
		{"fr-CA,fr;q=0.9,en;q=0.5", "fr ltr", "Règles"},
		{"it-IT", "en ltr", "Rules"},
	}
	for _, cs := range cases {
		code, body := c.getLang("/", cs.accept)
		if code != http.StatusOK || pageLang(t, body) != cs.want || !strings.Contains(body, cs.text) {
			t.Errorf("Accept-Language %q: %d, page %q, want %q with %q", cs.accept, code, pageLang(t, body), cs.want, cs.text)
		}
	}
}

// TestLanguageSetting: the language form wins over the browser's, for the
// browser when signed out and on the account when signed in; an unknown
// language is refused and changes nothing.
func TestLanguageSetting(t *testing.T) {
	s := newSite(t)
	c := s.client("visitor")
	c.get("/")
	if code, _ := c.post("/language", url.Values{"lang": {"fa"}, "next": {"/login"}}); code != http.StatusOK {
		t.Fatalf("set language: %d", code)
	}
	if _, body := c.getLang("/login", "en"); pageLang(t, body) != "fa rtl" {
		t.Fatalf("the chosen language does not stick for a visitor: %q", pageLang(t, body))
	}
	// A language chosen before signing up becomes the account's.
	c.get("/signup")
	c.post("/signup", url.Values{"username": {"vera"}, "password": {"secret-vera"}})
	if u, err := s.store.UserByID(s.mailUser("vera").ID); err != nil || u.Lang != "fa" {
		t.Fatalf("the language chosen before signing up is not the account's: %+v", u)
	}
	ana := s.signup("ana")
	if code, body := ana.post("/language", url.Values{"lang": {"klingon"}}); code != http.StatusUnprocessableEntity || pageLang(t, body) != "en ltr" {
		t.Fatalf("unknown language: %d %q", code, pageLang(t, body))
	}
	ana.post("/language", url.Values{"lang": {"zh-Hant"}})
	// Another browser of the same account (a fresh client logging in)
	// gets the account's language.
	other := s.client("ana")
	other.get("/login")
	other.post("/login", url.Values{"username": {"ana"}, "password": {"secret-ana"}})
	if _, body := other.getLang("/settings", "fa"); pageLang(t, body) != "zh-Hant ltr" || !viewtest.Has(t, body, `option[value="zh-Hant"][lang="zh-Hant"][selected]`) {
		t.Fatalf("the account's language is not used: %q", pageLang(t, body))
	}
}

// TestGameInPersian: the game page, log and numbers in Persian.
func TestGameInPersian(t *testing.T) {
	s := newSite(t)
	id, ana, _ := s.midGame()
	ana.post("/language", url.Values{"lang": {"fa"}})
	_, body := ana.get(fmt.Sprintf("/games/%d", id))
	if pageLang(t, body) != "fa rtl" {
		t.Fatalf("game page language %q", pageLang(t, body))
	}
	main := viewtest.Text(t, body, "main")
	if !strings.Contains(main, "گزارش بازی") {
		t.Errorf("the Persian game page lacks %q", "گزارش بازی")
	}
	if h1 := i18n.Fa.T("Game %d", int(id)); !viewtest.HasText(t, body, "main h1", h1) {
		t.Errorf("the Persian game page lacks the heading %q:\n%s", h1, viewtest.Show(t, body, "main h1"))
	}
	if slices.ContainsFunc(viewtest.Texts(t, body, "main h1"), func(h string) bool { return strings.HasPrefix(h, "Game ") }) || !strings.ContainsAny(main, "۰۱۲۳۴۵۶۷۸۹") {
		t.Error("the Persian game page does not write its numbers in Persian digits")
	}
	// The log's numbers are Persian: no ASCII digit is left in the log
	// but in the tile codes.
	log := viewtest.Text(t, body, "main ul.log")
	if m := regexp.MustCompile(`\(-?[0-9]+`).FindString(log); m != "" {
		t.Errorf("the Persian log writes a cell with ASCII digits: %q", m)
	}
}

// TestRulesPageInEachLanguage: /rules is written in the reader's language.
func TestRulesPageInEachLanguage(t *testing.T) {
	s := newSite(t)
	c := s.client("visitor")
	seen := map[string]bool{}
	for _, accept := range []string{"en", "de", "es-419", "fr", "zh-TW", "zh-CN", "fa"} {
		code, body := c.getLang("/rules", accept)
		h1 := viewtest.Text(t, body, "article.rules.card > h1:first-child")
		if code != http.StatusOK || h1 == "" {
			t.Fatalf("rules in %s: %d, no heading", accept, code)
		}
		if seen[h1] {
			t.Errorf("rules in %s repeat another language's heading %q", accept, h1)
		}
		seen[h1] = true
	}
}

// TestNotificationsTranslated: notifications are stored as messages and
// shown in the reader's language.
func TestNotificationsTranslated(t *testing.T) {
	s := newSite(t)
	ana, bob := s.signup("ana"), s.signup("bob")
	id := ana.createGame("@bob", "none", "none")
	bob.post("/language", url.Values{"lang": {"zh-Hans"}})
	_, body := bob.get("/notifications")
	if strings.Contains(body, "invited you to game") || !strings.Contains(body, "ana") || !strings.Contains(body, fmt.Sprint(id)) {
		t.Fatalf("the invitation is not shown in Chinese:\n%s", body[strings.Index(body, "<main"):])
	}
}

// TestLiveRefetchAnnouncesMoves: the refetch a page makes after someone
// else's move carries those moves for the page's live region, and moves
// no focus; a step of the player's own selection does move focus on.
func TestLiveRefetchAnnouncesMoves(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	r := engine.NewRand(9)
	// Whoever moves first, the other one looks before and after.
	mover, watcher := ana, bob
	if !ana.act(id, r) {
		mover, watcher = bob, ana
		mover.act(id, r)
	}
	_, l := s.seatOf(id, watcher.name)
	before := len(l.Events)
	for mover.act(id, r) {
	}
	code, body := watcher.htmx("GET", fmt.Sprintf("/games/%d?live=1&from=%d", id, before-1), nil)
	if code != http.StatusOK || !strings.HasPrefix(viewtest.Text(t, body, "div#announce[hidden] > p:first-child"), mover.name) {
		t.Fatalf("live refetch: %d, no announcement of %s's move\n%s", code, mover.name, body)
	}
	if viewtest.Has(t, body, "[autofocus]") {
		t.Error("a live refetch moves focus")
	}
	_, l = s.seatOf(id, watcher.name)
	tile := l.Play.State().View(l.Play.State().Current()).Hand[0]
	_, body = watcher.htmx("GET", fmt.Sprintf("/games/%d?tile=%s&rot=0", id, tile), nil)
	focus := "#rotate[autofocus]"
	if len(tile.Rotations()) == 1 { // 1-1-1-1 does not turn: no Rotate, the tile keeps the focus
		focus = `[autofocus][data-tile="` + tile.String() + `"]`
	}
	if !viewtest.Has(t, body, focus) {
		t.Errorf("after choosing a tile, focus does not go to the rotate button (or the tile that does not turn)\n%s", body)
	}
}

// TestMailInUsersLanguage: mail is written in the language the user chose
// for the site, with its links alone on their lines; English otherwise.
func TestMailInUsersLanguage(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	anaU := s.mailUser("ana")
	if _, err := s.store.SetEmail(anaU.ID, "ana@example.test", models.MailEach); err != nil {
		t.Fatal(err)
	}
	if err := s.store.VerifyEmail(anaU.ID, "ana@example.test"); err != nil {
		t.Fatal(err)
	}
	id := ana.createGame("greedy", "none", "none")
	ana.post("/language", url.Values{"lang": {"zh-Hant"}})
	msg := s.composed(s.pendingMail(anaU.ID, "started"))
	want := i18n.ZhHant.T("Game %d has started.", int(id))
	if want == fmt.Sprintf("Game %d has started.", id) || !strings.Contains(msg.Subject, want) || !strings.Contains(msg.Body, i18n.ZhHant.T("Open the game with one click:")) {
		t.Fatalf("the mail is not in Chinese: %q\n%s", msg.Subject, msg.Body)
	}
	s.linkIn(msg.Body, "/m/go")
	s.linkIn(msg.Body, "/m/unsubscribe")
}

// TestGameLogPage: the game page shows the log's last entries, numbered
// as in the whole log, with a link to the whole log.
func TestGameLogPage(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.midGame()
	r := engine.NewRand(11)
	_, l := s.seatOf(id, "ana")
	for step := 0; len(l.Events) <= views.LogShown+2 && step < 40; step++ {
		ana.act(id, r)
		bob.act(id, r)
		_, l = s.seatOf(id, "ana")
	}
	n := len(l.Events)
	if n <= views.LogShown {
		t.Fatalf("the game has only %d entries: the test needs more than %d", n, views.LogShown)
	}
	_, body := ana.get(fmt.Sprintf("/games/%d", id))
	entries := viewtest.Find(t, body, "ul.log").First().Children()
	// Each turn is numbered as the engine counts turns (the choices made
	// about a turn's workers are not).
	first := -1
	for _, ev := range l.Events[n-views.LogShown:] {
		if ev.Kind == models.LogTurn {
			first = ev.Turn + 1
			break
		}
	}
	// A turn's entry opens with its number.
	turnNo := "li:not([class]) > span.turn-no:first-child"
	if got := entries.Filter("li").Length(); got != views.LogShown || viewtest.WithText(entries.Find(turnNo), fmt.Sprintf("Turn %d", first)).Length() == 0 {
		t.Fatalf("the game page's log has %d entries (want the last %d, the first turn numbered %d):\n%s", got, views.LogShown, first, viewtest.Show(t, body, "ul.log"))
	}
	if !viewtest.HasText(t, body, fmt.Sprintf(`a[href="/games/%d/log"]`, id), fmt.Sprintf("The whole log (%d entries)", n)) {
		t.Fatal("no link to the whole log")
	}
	code, whole := ana.get(fmt.Sprintf("/games/%d/log", id))
	wlog := viewtest.Find(t, whole, "ul.log").First().Children()
	if code != http.StatusOK || wlog.Filter("li").Length() != n || viewtest.WithText(wlog.Find(turnNo), "Turn 1").Length() == 0 {
		t.Fatalf("the whole log: %d, want %d entries", code, n)
	}
	if code, _ := s.client("nobody").get(fmt.Sprintf("/games/%d/log", id)); code != http.StatusOK {
		t.Fatalf("anonymous: %d (want the log-in page)", code)
	}
}

// TestRedirectsStayOnTheSite: the address a form returns to ("next", from
// the log-in form and the language form) never leads off the site, even
// written with the control characters browsers drop from URLs.
func TestRedirectsStayOnTheSite(t *testing.T) {
	s := newSite(t)
	c := s.client("visitor")
	c.get("/")
	c.http.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	for _, next := range []string{"/\t/evil.example", "/\n/evil.example", "/\r/evil.example", "//evil.example", "/\\evil.example", "https://evil.example", "/ok?x=1"} {
		req, _ := http.NewRequest("POST", s.srv.URL+"/language", strings.NewReader(url.Values{"lang": {"fa"}, "next": {next}, "_csrf": {c.csrf}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		res, err := c.http.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		loc := res.Header.Get("Location")
		want := "/"
		if next == "/ok?x=1" {
			want = next
		}
		if res.StatusCode != http.StatusSeeOther || loc != want {
			t.Errorf("next %q: %d to %q, want %q", next, res.StatusCode, loc, want)
		}
	}
}

// TestRefusalsSpeakLikeThePages: an engine refusal names cells as the
// pages do, in the reader's language, not in the engine's notation.
func TestRefusalsSpeakLikeThePages(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	mover := ana
	if seat, l := s.seatOf(id, "bob"); l.Play.State().Current() == seat {
		mover = bob
	}
	_, l := s.seatOf(id, mover.name)
	// A cell already taken: a start tile.
	st := l.Play.State()
	taken := st.View(st.Current()).Tiles[0].At
	hand := st.Player(st.Current()).HandTiles()[0]
	mover.post("/language", url.Values{"lang": {"fa"}})
	code, body := mover.post(fmt.Sprintf("/games/%d/turn", id), url.Values{"version": {fmt.Sprint(l.Game.Version)}, "tile": {hand.String()}, "rot": {"0"},
		"at": {fmt.Sprintf("%d,%d", taken.X, taken.Y)}})
	if code != http.StatusUnprocessableEntity {
		t.Fatalf("a taken cell: %d", code)
	}
	if want := strings.ReplaceAll(i18n.Fa.T("(%d, %d)", taken.X, taken.Y), " ", "\u00a0"); !strings.Contains(body, want) || strings.Contains(body, fmt.Sprintf("[%d,%d]", taken.X, taken.Y)) {
		t.Fatalf("the refusal does not name the cell as the pages do (%q):\n%s", want, body[strings.Index(body, "<main"):strings.Index(body, "<main")+600])
	}
}

// TestBotNamedInPersian: a bot's seat is named in the page's language, at
// the table, in the log and on the home page; records keep the stored name.
func TestBotNamedInPersian(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	id := ana.createGame("medium", "none", "none")
	ana.act(id, engine.NewRand(1)) // the bot answers: the log names it
	ana.post("/language", url.Values{"lang": {"fa"}})
	name := i18n.Fa.T("%s %d", i18n.Fa.T("medium bot"), 1)
	_, page := ana.get(fmt.Sprintf("/games/%d", id))
	_, home := ana.get("/")
	for what, body := range map[string]string{"game page": page, "home page": home} {
		if !strings.Contains(body, html.EscapeString(name)) || strings.Contains(body, "medium bot 1") {
			t.Errorf("the Persian %s does not name the bot %q", what, name)
		}
	}
	if log := viewtest.Text(t, page, "ul.log"); !strings.Contains(log, name) {
		t.Error("the Persian log does not name the bot in Persian")
	}
}
