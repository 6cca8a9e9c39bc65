package handlers_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"cacao/engine"
	"cacao/models"
	"cacao/views/viewtest"
)

// guests counts the guests among names.
func (s *site) guests(names ...string) int {
	s.t.Helper()
	n := 0
	for _, name := range names {
		if u, err := s.store.UserNamed(name); err == nil && u.Guest {
			n++
		}
	}
	return n
}

// says tells whether an element of page that selector matches has part
// in its text.
func says(t testing.TB, page, selector, part string) bool {
	t.Helper()
	for _, text := range viewtest.Texts(t, page, selector) {
		if strings.Contains(text, part) {
			return true
		}
	}
	return false
}

// playAsGuest has a new visitor play the level of bot as a guest called
// name, from /play; it returns them and their game's page.
func (s *site) playAsGuest(name, bot string) (*client, string) {
	s.t.Helper()
	c := s.client(name)
	c.get("/play")
	code, body := c.post("/play", url.Values{"name": {name}, "bot": {bot}})
	if code != http.StatusOK || !gameIDRE.MatchString(body) {
		s.t.Fatalf("%s plays the %s bot as a guest: %d\n%s", name, bot, code, viewtest.Excerpt(body))
	}
	return c, body
}

// TestPlayAsGuest: /play preselects the level asked for; a visitor who
// gives a name plays the bot at once, as a guest marked so on the game
// page, the home page and the profile, offered on each to make an account;
// the settings of mail, push and webhooks are not theirs. Bad input is
// refused in the reader's language and makes no guest; an account plays
// the bot from /play in its own name.
func TestPlayAsGuest(t *testing.T) {
	s := newSite(t)
	v := s.client("visitor")
	_, form := v.get("/play?bot=medium")
	if got, _ := viewtest.Attr(t, form, "#bot option[selected]", "value"); got != "medium" {
		t.Fatalf("/play?bot=medium preselects %q", got)
	}
	if _, form = v.get("/play"); !viewtest.Has(t, form, "#bot option[value=easy][selected]") || !viewtest.Has(t, form, "input#guest-name") {
		t.Fatalf("/play: the easy bot preselected, a name asked for:\n%s", viewtest.Show(t, form, "main"))
	}
	v.post("/language", url.Values{"lang": {"de"}})
	for _, bad := range []url.Values{{"name": {"x"}, "bot": {"easy"}}, {"name": {"gus"}, "bot": {"genius"}}} {
		code, body := v.post("/play", bad)
		if code != http.StatusUnprocessableEntity || !says(t, body, "main .error", "Benutzername hat 3 bis 24") && !says(t, body, "main .error", "Wähl den leichten") {
			t.Fatalf("/play %v: %d, %q", bad, code, viewtest.Text(t, body, "main .error"))
		}
	}
	if n := s.guests("x", "gus"); n != 0 {
		t.Fatalf("refused forms made %d guests", n)
	}

	gus, game := s.playAsGuest("gus", "easy")
	if !says(t, game, ".players, #players, main", "gus (guest)") {
		t.Fatalf("the game page does not mark the guest:\n%s", viewtest.Excerpt(game))
	}
	if v, _ := viewtest.Attr(t, game, "form[action='/account'] input[name=username]", "value"); v != "gus" {
		t.Fatalf("the game page's account form offers the name %q", v)
	}
	_, home := gus.get("/")
	if !says(t, home, "header .me", "gus (guest)") || !viewtest.Has(t, home, "form[action='/account']") || viewtest.Has(t, home, "form[action='/games']") {
		t.Fatalf("a guest's home page: the mark, the account form, no table for people:\n%s", viewtest.Show(t, home, "main"))
	}
	if !says(t, home, "#home-lists", "gus (guest)") {
		t.Fatal("a guest's home list does not mark them")
	}
	if _, profile := gus.get("/users/gus"); !says(t, profile, "h1", "gus (guest)") {
		t.Fatal("the profile does not mark the guest")
	}
	if _, page := gus.get("/settings"); !viewtest.Has(t, page, "form[action='/account']") || viewtest.Has(t, page, "form[action='/settings/hook']") {
		t.Fatal("a guest opens the settings of mail, push and webhooks")
	}
	for _, path := range []string{"/settings/hook", "/settings/news", "/settings/devices", "/settings/news/test"} {
		if code, _ := gus.post(path, url.Values{"url": {"https://example.org/hook"}}); code != http.StatusForbidden {
			t.Fatalf("a guest posts %s: %d", path, code)
		}
	}
	if code, _ := gus.post("/games", url.Values{"seat": {"open"}}); code != http.StatusUnprocessableEntity {
		t.Fatalf("a guest opens a table for people: %d", code)
	}

	ana := s.signup("ana")
	if _, page := ana.get("/play?bot=hard"); viewtest.Has(t, page, "input#guest-name") || !viewtest.Has(t, page, "#bot option[value=hard][selected]") {
		t.Fatal("/play for an account: no name, the level asked for")
	}
	if code, page := ana.post("/play", url.Values{"bot": {"easy"}}); code != http.StatusOK || !says(t, page, "main", "ana") || strings.Contains(page, "ana (guest)") {
		t.Fatalf("an account plays the bot from /play: %d", code)
	}
	if _, err := s.store.SetAdmin("ana", true); err != nil {
		t.Fatal(err)
	}
	if _, page := ana.get("/admin/users"); !says(t, page, "main td a", "gus (guest)") {
		t.Fatal("the admins' list of users does not mark the guest")
	}
	if n := s.guests("gus", "ana"); n != 1 {
		t.Fatalf("%d guests; want gus alone", n)
	}
}

// TestGuestsPerAddressAtOnce: many visitors from one address asking to
// play at once make no more guests than the address's (10 an hour); the
// others are refused with a sentence in their language, and nothing else
// is made for them. Another address plays meanwhile.
func TestGuestsPerAddressAtOnce(t *testing.T) {
	s := newSiteWith(t, proxied)
	const n = 25
	var visitors []*client
	for i := range n {
		c := s.client(fmt.Sprintf("v%d", i)).from("203.0.113.7")
		c.get("/play")
		visitors = append(visitors, c)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes, refusals := map[int]int{}, map[string]int{}
	start := make(chan struct{})
	for i, c := range visitors {
		form := url.Values{"name": {fmt.Sprintf("guest%d", i)}, "bot": {"easy"}, "_csrf": {c.csrf}}
		r := formRequest(s, "/play", form)
		r.Header.Set("X-Forwarded-For", c.ip)
		if i%2 == 1 {
			r.Header.Set("Accept-Language", "fr")
		}
		wg.Go(func() {
			<-start
			res, err := c.http.Do(r)
			if err != nil {
				t.Error(err)
				return
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			body := string(b)
			mu.Lock()
			defer mu.Unlock()
			codes[res.StatusCode]++
			if res.StatusCode == http.StatusTooManyRequests {
				refusals[viewtest.Text(t, body, "main .error")]++
			}
		})
	}
	close(start)
	wg.Wait()
	var names []string
	for i := range n {
		names = append(names, fmt.Sprintf("guest%d", i))
	}
	if g := s.guests(names...); g != 10 || codes[http.StatusOK] != 10 || codes[http.StatusTooManyRequests] != n-10 {
		t.Fatalf("%d visitors from one address at once: %d guests, answers %v; want 10", n, g, codes)
	}
	made := 0
	for _, name := range names {
		if u, err := s.store.UserNamed(name); err == nil {
			if _, total, err := s.store.MyGames(u.ID, 0, 10); err != nil || total != 1 {
				t.Fatalf("%s has %d games (%v)", name, total, err)
			}
			made++
		}
	}
	if made != 10 {
		t.Fatalf("%d visitors refused were made all the same", made-10)
	}
	for text := range refusals {
		if !strings.HasPrefix(text, "Many guests played from your address lately") && !strings.HasPrefix(text, "Beaucoup d'invités ont joué depuis votre adresse") {
			t.Fatalf("a refusal says %q", text)
		}
	}
	if len(refusals) != 2 {
		t.Fatalf("the refusals, by language: %v; want English and French", refusals)
	}
	other := s.client("other").from("198.51.100.4")
	other.get("/play")
	if code, _ := other.post("/play", url.Values{"name": {"other"}, "bot": {"easy"}}); code != http.StatusOK {
		t.Fatalf("a visitor from another address during the flood: %d", code)
	}
	s.clock.Advance(6 * time.Minute)
	late := s.client("late").from("203.0.113.7")
	late.get("/play")
	if code, _ := late.post("/play", url.Values{"name": {"late"}, "bot": {"easy"}}); code != http.StatusOK {
		t.Fatalf("a guest from the address once one is due again: %d", code)
	}
}

// TestGuestTakesInviteSeat: a visitor with the link of a private table
// takes its seat as a guest and plays against the account that invited
// them; the two chat, the guest marked in the chat and the players. A
// public table's link offers no guest seat and refuses one posted.
func TestGuestTakesInviteSeat(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	ana.get("/")
	code, _ := ana.post("/games", url.Values{"seat": {"open"}, "private": {"on"}})
	if code != http.StatusOK {
		t.Fatalf("ana's private table: %d", code)
	}
	mine, _, err := s.store.MyGames(1, 0, 1)
	if err != nil || len(mine) != 1 {
		t.Fatal(err)
	}
	table := mine[0].Game
	link := "/join/" + table.InviteToken

	gus := s.client("gus")
	_, page := gus.get(link)
	if !viewtest.Has(t, page, "form[action='"+link+"/guest'] input[name=name]") {
		t.Fatalf("the invitation offers no guest seat:\n%s", viewtest.Show(t, page, "main"))
	}
	code, page = gus.post(link+"/guest", url.Values{"name": {"ana"}})
	if code != http.StatusUnprocessableEntity || !says(t, page, "main .error", "taken") || s.guests("gus") != 0 {
		t.Fatalf("a guest in a name taken: %d", code)
	}
	code, page = gus.post(link+"/guest", url.Values{"name": {"gus"}})
	if code != http.StatusOK || !says(t, page, "main", "gus (guest)") {
		t.Fatalf("a guest takes the seat: %d\n%s", code, viewtest.Excerpt(page))
	}
	l, err := s.store.LoadGame(table.ID)
	if err != nil || l.Game.Status != models.StatusActive {
		t.Fatalf("the table after the guest sat: %v", err)
	}
	if code, _ := gus.post(fmt.Sprintf("/games/%d/chat", table.ID), url.Values{"text": {"hello ana"}}); code != http.StatusOK {
		t.Fatalf("the guest chats at the table they were invited to: %d", code)
	}
	if _, page := ana.get(fmt.Sprintf("/games/%d", table.ID)); !says(t, page, "#chat", "gus (guest)") {
		t.Fatalf("ana's chat does not mark the guest:\n%s", viewtest.Show(t, page, "#chat"))
	}
	// A notice naming the guest marks them too, in the reader's language.
	gus.post(fmt.Sprintf("/games/%d/abort", table.ID), nil)
	ana.post("/language", url.Values{"lang": {"de"}})
	if _, page := ana.get("/notifications"); !strings.Contains(page, fmt.Sprintf("gus (Gast) möchte Spiel %d ohne Ergebnis beenden", table.ID)) {
		t.Fatalf("ana's notice of the guest's request does not mark them:\n%s", viewtest.Show(t, page, "main"))
	}
	ana.post("/language", url.Values{"lang": {"en"}})
	s.playToEnd(table.ID, engine.NewRand(1), ana, gus)

	code, _ = ana.post("/games", url.Values{"seat": {"open"}})
	public, _, _ := s.store.OpenGames(0, 0, 10)
	if code != http.StatusOK || len(public) != 1 {
		t.Fatalf("ana's public table: %d", code)
	}
	publink := "/join/" + public[0].Game.InviteToken
	eve := s.client("eve")
	if _, page := eve.get(publink); viewtest.Has(t, page, "input[name=name]") {
		t.Fatal("a public table's link offers a guest seat")
	}
	if code, page := eve.post(publink+"/guest", url.Values{"name": {"eve"}}); code != http.StatusUnprocessableEntity || !says(t, page, "main .error", "private table") {
		t.Fatalf("a guest seat posted to a public table: %d", code)
	}
	if _, page := gus.get(publink); viewtest.Has(t, page, "main form button[type=submit]") || !says(t, page, "main .error", "private table") {
		t.Fatalf("a guest signed in is offered a public table's seat:\n%s", viewtest.Show(t, page, "main"))
	}
	if _, err := s.store.UserNamed("eve"); err == nil {
		t.Fatal("a guest refused a public table was made")
	}
}

// TestGuestBecomesAccount: a guest makes an account from the game page
// (a refused form changes nothing and says why), comes back to the game,
// and, logged in elsewhere, finds it in My games; a second submit is
// refused. Unmarked from then on.
func TestGuestBecomesAccount(t *testing.T) {
	s := newSite(t)
	gus, game := s.playAsGuest("gus", "easy")
	id := gameIDRE.FindStringSubmatch(game)[1]
	next := "/games/" + id
	code, page := gus.post("/account", url.Values{"username": {"gus"}, "password": {"short"}, "next": {next}})
	if code != http.StatusUnprocessableEntity || !says(t, page, "main .error", "8 to 72") || s.guests("gus") != 1 {
		t.Fatalf("an account with a short password: %d", code)
	}
	code, page = gus.post("/account", url.Values{"username": {"gus"}, "password": {"password-gus"}, "next": {next}})
	if code != http.StatusOK || !says(t, page, "h1", "Game "+id) || !says(t, page, ".notice", "Your account gus is made") {
		t.Fatalf("the account is made, back at the game: %d\n%s", code, viewtest.Excerpt(page))
	}
	if strings.Contains(page, "gus (guest)") || viewtest.Has(t, page, "form[action='/account']") || s.guests("gus") != 0 {
		t.Fatal("the account is still marked a guest")
	}
	if code, _ := gus.post("/account", url.Values{"username": {"gus"}, "password": {"password-gus"}, "next": {next}}); code != http.StatusUnprocessableEntity {
		t.Fatalf("a second submit: %d", code)
	}
	phone := s.client("phone")
	phone.get("/login")
	code, home := phone.post("/login", url.Values{"username": {"gus"}, "password": {"password-gus"}})
	if code != http.StatusOK || !viewtest.Has(t, home, "#home-lists a[href='"+next+"']") {
		t.Fatalf("the account's games on another device: %d\n%s", code, viewtest.Show(t, home, "main"))
	}
}

// TestGuestSessionEnds: a guest's session signs them in for
// models.GuestLife, then no more.
func TestGuestSessionEnds(t *testing.T) {
	s := newSite(t)
	gus, _ := s.playAsGuest("gus", "easy")
	s.clock.Advance(models.GuestLife - time.Hour)
	if _, home := gus.get("/"); !says(t, home, "header .me", "gus") {
		t.Fatal("a guest signed out before their time")
	}
	s.clock.Advance(2 * time.Hour)
	if _, home := gus.get("/"); viewtest.Has(t, home, "header .me") {
		t.Fatal("a guest's session signs them in past their time")
	}
}

// TestGuestGamesPerAddress: the guests of one address open 20 games an
// hour beyond their first (each guest's own 10 in a row aside): the next,
// a table or a rematch, is refused, saying why, and opens nothing; an account from that address
// plays on.
func TestGuestGamesPerAddress(t *testing.T) {
	s := newSiteWith(t, proxied)
	var guests []*client
	for _, name := range []string{"gus", "ida", "max"} {
		c := s.client(name).from("203.0.113.8")
		c.get("/play")
		if code, _ := c.post("/play", url.Values{"name": {name}, "bot": {"easy"}}); code != http.StatusOK {
			t.Fatalf("%s's first game: %d", name, code)
		}
		guests = append(guests, c)
	}
	for _, c := range guests[:2] {
		for i := range 10 {
			if code, _ := c.post("/play", url.Values{"bot": {"easy"}}); code != http.StatusOK {
				t.Fatalf("%s's game %d: %d", c.name, i+2, code)
			}
		}
	}
	code, page := guests[2].post("/play", url.Values{"bot": {"easy"}})
	if code != http.StatusTooManyRequests || !says(t, page, "main .error", "Many guests played from your address lately") {
		t.Fatalf("the address's 21st guest game: %d, %q", code, viewtest.Text(t, page, "main .error"))
	}
	max, err := s.store.UserNamed("max")
	if err != nil {
		t.Fatal(err)
	}
	if _, total, _ := s.store.MyGames(max.ID, 0, 10); total != 1 {
		t.Fatalf("the refused game was made: max has %d", total)
	}
	// Nor does a rematch of his first game, once the stand-in finished it.
	mine, _, _ := s.store.MyGames(max.ID, 0, 10)
	first := mine[0].Game.ID
	if code, _ := guests[2].post(fmt.Sprintf("/games/%d/resign", first), nil); code != http.StatusOK {
		t.Fatalf("max resigns: %d", code)
	}
	if l, _ := s.store.LoadGame(first); l.Game.Status != models.StatusFinished {
		t.Fatalf("max's first game is %s", l.Game.Status)
	}
	code, page = guests[2].post(fmt.Sprintf("/games/%d/rematch", first), nil)
	if code != http.StatusTooManyRequests || !says(t, page, "main .error", "Many guests played from your address lately") {
		t.Fatalf("the address's 21st guest game, a rematch: %d, %q", code, viewtest.Text(t, page, "main .error"))
	}
	if l, _ := s.store.LoadGame(first); l.Game.RematchID != nil {
		t.Fatal("the refused rematch was made")
	}
	ana := s.signup("ana").from("203.0.113.8")
	if code, _ := ana.post("/play", url.Values{"bot": {"easy"}}); code != http.StatusOK {
		t.Fatalf("an account from the address: %d", code)
	}
}

// TestGuestLogoutWarns: a guest's Log out leads to a page that warns that
// their guest games will be lost, offers to make an account, and logs out
// only on its own confirmation; a form of an older page leads there too,
// logging nobody out. An account logs out at once, and may read the page
// (without the warning); a visitor is sent to log in.
func TestGuestLogoutWarns(t *testing.T) {
	s := newSite(t)
	gus, _ := s.playAsGuest("gus", "easy")
	_, home := gus.get("/")
	if got, _ := viewtest.Attr(t, home, "header.top .account a.button", "href"); got != "/logout" || viewtest.Has(t, home, `header.top form[action="/logout"]`) {
		t.Fatalf("a guest's Log out: a link to %q; want /logout, and no form that logs out at once", got)
	}
	code, page := gus.get("/logout")
	if code != http.StatusOK || viewtest.Text(t, page, "main h1") != "Log out?" ||
		viewtest.Text(t, page, "#guest-loss") != "Your guest games will be lost; make an account to keep them." ||
		viewtest.Text(t, page, `main a[href="/account"]`) != "Make an account" ||
		viewtest.Text(t, page, `main form[action="/logout"] button[type=submit]`) != "Log out anyway" {
		t.Fatalf("a guest's page before logging out: %d\n%s", code, viewtest.Show(t, page, "main"))
	}
	if v, _ := viewtest.Attr(t, page, `main form[action="/logout"] input[name=confirm]`, "value"); v != "1" {
		t.Fatalf("the confirmation sends confirm=%q", v)
	}
	gus.http.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	if code, _ := gus.post("/logout", nil); code != http.StatusSeeOther || gus.last.Get("Location") != "/logout" {
		t.Fatalf("a guest's logout without confirming: %d to %q; want 303 to /logout", code, gus.last.Get("Location"))
	}
	gus.http.CheckRedirect = nil
	if _, home := gus.get("/"); !says(t, home, "header .me", "gus (guest)") {
		t.Fatal("a logout not confirmed logged the guest out")
	}
	gus.post("/logout", url.Values{"confirm": {"1"}})
	if _, home := gus.get("/"); viewtest.Has(t, home, "header .me") || !viewtest.Has(t, home, `header a[href="/login"]`) {
		t.Fatal("the guest's confirmed logout did not log them out")
	}

	ana := s.signup("ana")
	if _, page := ana.get("/logout"); viewtest.Has(t, page, "#guest-loss") || viewtest.Text(t, page, `main form[action="/logout"] button[type=submit]`) != "Log out" {
		t.Fatalf("an account's page before logging out:\n%s", viewtest.Show(t, page, "main"))
	}
	if _, home := ana.get("/"); !viewtest.Has(t, home, `header.top form[action="/logout"]`) {
		t.Fatal("an account's header has no Log out form")
	}
	if _, home := ana.post("/logout", nil); viewtest.Has(t, home, "header .me") {
		t.Fatal("an account's Log out did not log out at once")
	}
	v := s.client("visitor")
	v.http.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	if code, _ := v.get("/logout"); code != http.StatusSeeOther || v.last.Get("Location") != "/login?next=%2Flogout" {
		t.Fatalf("a visitor's /logout: %d to %q", code, v.last.Get("Location"))
	}
}
