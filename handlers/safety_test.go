package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"cacao/engine"
	"cacao/views/viewtest"
)

// TestLoginRateLimit: failed log-ins slow down the address that fails,
// for that account, with a growing wait (429 with Retry-After), but never
// lock the account's owner out from elsewhere; a quiet quarter of an hour
// forgets them. 20 failures from one address (an IPv6 /64 is one
// address) stop it for any account.
func TestLoginRateLimit(t *testing.T) {
	s := newSiteWith(t, proxied)
	s.signup("ana")
	s.signup("bob")
	mallory := s.client("mallory").from("203.0.113.7")
	mallory.get("/login")
	try := func(c *client, name, pw string) (int, string) {
		t.Helper()
		return c.post("/login", url.Values{"username": {name}, "password": {pw}})
	}
	for i := 0; i < 5; i++ {
		if code, _ := try(mallory, "ana", "guess"); code != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d", i+1, code)
		}
	}
	var waits []int
	for i := 0; i < 4; i++ {
		code, body := try(mallory, "ana", "guess")
		if code != http.StatusTooManyRequests || !strings.Contains(body, "Too many failed log-ins") {
			t.Fatalf("attempt %d: %d; want 429", 6+i, code)
		}
		wait, _ := strconv.Atoi(mallory.last.Get("Retry-After"))
		waits = append(waits, wait)
		s.clock.Advance(time.Duration(wait) * time.Second)
		if code, _ := try(mallory, "ana", "guess"); code != http.StatusUnauthorized {
			t.Fatalf("a guess once the wait is over: %d", code)
		}
	}
	for i := 1; i < len(waits); i++ {
		if waits[i] <= waits[i-1] {
			t.Fatalf("the waits do not grow: %v", waits)
		}
	}
	if code, _ := try(s.client("ana").from("198.51.100.2"), "ANA", "secret-ana"); code != http.StatusOK {
		t.Fatalf("ana from her own address while mallory guesses: %d", code)
	}
	if code, _ := try(mallory, "bob", "secret-bob"); code != http.StatusOK {
		t.Fatalf("another account from mallory's address: %d", code)
	}
	s.clock.Advance(15*time.Minute + time.Second)
	if code, _ := try(mallory, "ana", "guess"); code != http.StatusUnauthorized {
		t.Fatalf("after a quiet quarter of an hour: %d", code)
	}

	// An address that fails 20 times is stopped for any account; the
	// addresses of one IPv6 /64 are one.
	for i := 0; i < 20; i++ {
		eve := s.client("eve").from(fmt.Sprintf("2001:db8:1:2::%x", i+1))
		try(eve, fmt.Sprintf("user%d", i), "guess")
	}
	if code, _ := try(s.client("eve").from("2001:db8:1:2:ffff::1"), "bob", "secret-bob"); code != http.StatusTooManyRequests {
		t.Fatalf("after 20 failures from one /64: %d", code)
	}
	if code, _ := try(s.client("bob").from("2001:db8:1:3::1"), "bob", "secret-bob"); code != http.StatusOK {
		t.Fatalf("from the next /64: %d", code)
	}
}

// TestSignupRateLimit: one address opens a few accounts an hour, then is
// refused (429, in the reader's language) until the next is due; another
// address is not affected.
func TestSignupRateLimit(t *testing.T) {
	s := newSiteWith(t, proxied)
	try := func(c *client, name string) (int, string) {
		t.Helper()
		c.get("/signup")
		return c.post("/signup", url.Values{"username": {name}, "password": {"secret-" + name}})
	}
	for i := 0; i < 5; i++ {
		if code, _ := try(s.client("").from("203.0.113.9"), fmt.Sprintf("user%d", i)); code != http.StatusOK {
			t.Fatalf("sign-up %d: %d", i+1, code)
		}
	}
	c := s.client("").from("203.0.113.9")
	c.get("/signup")
	c.post("/language", url.Values{"lang": {"zh-Hans"}})
	code, body := try(c, "user5")
	if code != http.StatusTooManyRequests || !strings.Contains(body, "你的地址注册次数过多") || c.last.Get("Retry-After") == "" {
		t.Fatalf("a 6th sign-up from one address: %d\n%.600s", code, body)
	}
	if _, err := s.store.UserNamed("user5"); err == nil {
		t.Fatal("the refused sign-up made the account")
	}
	if code, _ := try(s.client("").from("198.51.100.9"), "other"); code != http.StatusOK {
		t.Fatalf("a sign-up from another address: %d", code)
	}
	s.clock.Advance(13 * time.Minute)
	if code, _ := try(s.client("").from("203.0.113.9"), "user6"); code != http.StatusOK {
		t.Fatalf("a sign-up once the next is due: %d", code)
	}
}

// TestCreationRateLimit: a player opens a few games in a row, then is
// asked to wait (429, the home page says why) until the next is due; the
// form of the last, sent again, still leads to its game.
func TestCreationRateLimit(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	for i := 0; i < 9; i++ {
		ana.createGame("greedy")
	}
	tenth := url.Values{"seat": {"greedy"}, "form_key": {"the-tenth-form"}}
	var games []string
	for range 2 {
		code, body := ana.post("/games", tenth)
		m := gameIDRE.FindStringSubmatch(body)
		if code != http.StatusOK || m == nil {
			t.Fatalf("the tenth game's form: %d", code)
		}
		games = append(games, m[1])
	}
	if games[0] != games[1] {
		t.Fatalf("the tenth game's form sent twice: games %v", games)
	}
	code, body := ana.post("/games", url.Values{"seat": {"greedy"}})
	if code != http.StatusTooManyRequests || !strings.Contains(body, "You opened many games in a row") || ana.last.Get("Retry-After") == "" {
		t.Fatalf("an 11th game at once: %d\n%.500s", code, body)
	}
	if games, total, _ := s.store.MyGames(1, 0, 100); total != 10 {
		t.Fatalf("the refused game was made: %d games", len(games))
	}
	s.clock.Advance(3 * time.Minute)
	ana.createGame("greedy")
}

// TestCSRFOnEveryPost: every POST route of the router refuses a request
// without the CSRF token (the one-click unsubscribe, which mail clients
// send, refuses it for want of a valid signed token; the API for want of
// an access token), and nothing changes.
func TestCSRFOnEveryPost(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	id := ana.createGame("open", "none", "none")
	_, l := s.seatOf(id, "ana")
	e := s.srv.Config.Handler.(*echo.Echo)
	posts := 0
	for _, r := range e.Routes() {
		if r.Method != http.MethodPost {
			continue
		}
		posts++
		path := strings.NewReplacer(":id", fmt.Sprint(id), ":token", l.Game.InviteToken).Replace(r.Path)
		for _, tok := range []string{"", "forged"} {
			code, _ := ana.post(path, url.Values{"_csrf": {tok}, "seat": {"greedy"}, "email": {"a@b.c"}, "mode": {"each"}, "days": {"3"}})
			if strings.HasPrefix(path, "/api/") && code == http.StatusUnauthorized {
				continue // the API takes an access token, never a session's cookie
			}
			if code != http.StatusForbidden && code != http.StatusBadRequest {
				t.Errorf("POST %s with CSRF token %q: %d; want 400 or 403", path, tok, code)
			}
		}
	}
	if posts < 10 {
		t.Fatalf("found only %d POST routes", posts)
	}
	if mine, _, _ := s.store.MyGames(1, 0, 100); len(mine) != 1 {
		t.Fatalf("forged posts changed the games: %d", len(mine))
	}
	if u, _ := s.store.UserByID(1); u.Email != "" || u.VacationUntil != nil {
		t.Fatal("forged posts changed the settings")
	}
}

// TestBodyLimit: a request body over 64 KB is refused with 413 and changes
// nothing.
func TestBodyLimit(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	ana.get("/")
	big := url.Values{"seat": {"greedy"}, "pad": {strings.Repeat("x", 100_000)}}
	if code, _ := ana.post("/games", big); code != http.StatusRequestEntityTooLarge {
		t.Fatalf("a 100 KB form: %d; want 413", code)
	}
	if mine, _, _ := s.store.MyGames(1, 0, 100); len(mine) != 0 {
		t.Fatal("the oversized request created a game")
	}
}

// TestFiftyConcurrentSubmits: the same turn submitted 50 times at once (a
// double-clicking player on a bad connection) commits once; the others are
// told someone moved first.
func TestFiftyConcurrentSubmits(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	id := ana.createGame("random", "none", "none")
	seat, l := s.seatOf(id, "ana")
	st := l.Play.State()
	pl := st.LegalPlacements(nil)[0]
	form := url.Values{"version": {fmt.Sprint(l.Game.Version)}, "tile": {pl.Tile.String()}, "rot": {fmt.Sprint(pl.Rot)},
		"at": {fmt.Sprintf("%d,%d", pl.At.X, pl.At.Y)}, "_csrf": {ana.csrf}}
	codes := atOnce(t, 50, func() *http.Request { return formRequest(s, fmt.Sprintf("/games/%d/turn", id), form) }, ana.http)
	if codes[http.StatusOK] != 1 || codes[http.StatusConflict] != 49 {
		t.Fatalf("status codes %v; want one 200 and 49 409", codes)
	}
	if n := s.turnsBy(id, seat); n != 1 {
		t.Fatalf("the turn was committed %d times", n)
	}
}

// FuzzTurnForm: random and malformed values in the move, choice, join and
// settings forms never cause a 5xx, and a refused request changes nothing.
func FuzzTurnForm(f *testing.F) {
	s := newSite(f)
	id, ana, bob := s.anaAndBob()
	seat, l := s.seatOf(id, "ana")
	if l.Play.State().Current() != seat {
		bob.act(id, engine.NewRand(1))
	}
	_, l = s.seatOf(id, "ana")
	pl := l.Play.State().LegalPlacements(nil)[0]
	f.Add("turn", fmt.Sprint(l.Game.Version), pl.Tile.String(), fmt.Sprint(pl.Rot), fmt.Sprintf("%d,%d", pl.At.X, pl.At.Y), "0", "", "1,0,N", "1", "1")
	f.Add("turn", "-1", "9999", "7", "x,y", "-3", "1", "", "", "")
	f.Add("resolve", "0", "", "", "", "", "", "0,0,E", "5", "0")
	f.Add("turn", "99999999999999999999", "1111", "0", "1,0", "1e9", "yes", "1,0,Q", "-1", "abc")
	f.Add("settings", "", "", "", "", "", "", "", "999", "")
	f.Add("join", "", "", "", "", "", "", "", "", "")
	f.Fuzz(func(t *testing.T, kind, version, tile, rot, at, fill, overbuild, edge, use, order string) {
		ana := *ana // the same browser, reporting to this run
		ana.t = t
		before, err := s.store.LoadGame(id)
		if err != nil {
			t.Fatal(err)
		}
		u, _ := s.store.UserByID(1)
		form := url.Values{"version": {version}, "tile": {tile}, "rot": {rot}, "at": {at}, "fill": {fill},
			"overbuild": {overbuild}, "edge": {edge}, "use": {use}, "order": {order}, "email": {tile}, "mode": {rot}, "days": {use}}
		path := map[string]string{"turn": "/turn", "resolve": "/resolve", "join": "/join", "decline": "/decline"}[kind]
		switch {
		case kind == "settings":
			path = "/settings/vacation"
		case path == "":
			path = fmt.Sprintf("/games/%d?tile=%s&rot=%s&at=%s&fill=%s", id, url.QueryEscape(tile), url.QueryEscape(rot), url.QueryEscape(at), url.QueryEscape(fill))
		default:
			path = fmt.Sprintf("/games/%d%s", id, path)
		}
		var code int
		if strings.HasPrefix(path, "/games/") && strings.Contains(path, "?") {
			code, _ = ana.get(path)
		} else {
			code, _ = ana.post(path, form)
		}
		if code >= 500 {
			t.Fatalf("%s %v: status %d", path, form, code)
		}
		after, err := s.store.LoadGame(id)
		if err != nil {
			t.Fatal(err)
		}
		changed := len(after.Log) != len(before.Log)
		if code != http.StatusOK && changed {
			t.Fatalf("%s %v was refused (%d) but the game changed", path, form, code)
		}
		if changed && (len(after.Log) != len(before.Log)+1 || after.Log[len(before.Log)].Seat != seat) {
			t.Fatalf("%s %v changed the game in an unexpected way", path, form)
		}
		if nu, _ := s.store.UserByID(1); code != http.StatusOK && (nu.VacationUntil != nil) != (u.VacationUntil != nil) {
			t.Fatalf("%s %v was refused (%d) but the settings changed", path, form, code)
		}
	})
}

// TestFormSentTwiceMakesOneTable: the new-table form, the bots' form and
// a profile's Invite to a table, each sent twice (a double click, the
// page sent again), make one table, and both sendings show it; the
// tournament form opens one tournament.
func TestFormSentTwiceMakesOneTable(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	s.signup("bob")
	for _, f := range []struct {
		page, form, action string
		values             url.Values
	}{
		{"/", `form[action="/games"]`, "/games", url.Values{"seat": {"open", "none", "none"}}},
		{"/play", `form[action="/play"]`, "/play", url.Values{"bot": {"easy"}}},
		{"/users/bob", `form[action="/users/bob/invite"]`, "/users/bob/invite", url.Values{}},
	} {
		_, page := ana.get(f.page)
		key, ok := viewtest.Attr(t, page, f.form+` input[name="form_key"]`, "value")
		if !ok || len(key) != 32 {
			t.Fatalf("%s: the form's key %q", f.page, key)
		}
		f.values.Set("form_key", key)
		var games []string
		for range 2 {
			code, body := ana.post(f.action, f.values)
			m := gameIDRE.FindStringSubmatch(body)
			if code != http.StatusOK || m == nil {
				t.Fatalf("%s sent: %d", f.action, code)
			}
			games = append(games, m[1])
		}
		if games[0] != games[1] {
			t.Fatalf("%s sent twice made games %v", f.action, games)
		}
	}
	anaUser, _ := s.store.UserNamed("ana")
	if _, total, _ := s.store.MyGames(anaUser.ID, 0, 10); total != 3 {
		t.Fatalf("ana has %d games; want 3", total)
	}
	// The tournament form.
	_, page := ana.get("/tournaments/new")
	key, _ := viewtest.Attr(t, page, `form[action="/tournaments"] input[name="form_key"]`, "value")
	tour := url.Values{"name": {"Ana's cup"}, "format": {"swiss"}, "turn_hours": {"24"}, "round_days": {"14"}, "signup_days": {"3"}, "rounds": {"3"}, "max_players": {"8"}, "invite": {"bob"}, "form_key": {key}}
	for range 2 {
		if code, body := ana.post("/tournaments", tour); code != http.StatusOK || !viewtest.HasText(t, body, "h1", "Ana's cup") {
			t.Fatalf("the tournament form sent: %d\n%s", code, viewtest.Text(t, body, "main"))
		}
	}
	if l, err := s.store.Tournaments(anaUser); len(key) != 32 || err != nil || len(l.Signup) != 1 {
		t.Fatalf("the tournament form sent twice: key %q, %+v (%v)", key, l, err)
	}

	// Each player followed has a form of their own: inviting one, then
	// another, makes two tables.
	s.signup("cyd")
	for _, name := range []string{"bob", "cyd"} {
		ana.post("/users/"+name+"/follow", nil)
	}
	_, page = ana.get("/following")
	keys := map[string]bool{}
	for _, sel := range viewtest.Find(t, page, `form[action$="/invite"] input[name="form_key"]`).EachIter() {
		v, _ := sel.Attr("value")
		keys[v] = true
	}
	if len(keys) != 2 {
		t.Fatalf("the invite forms of the players ana follows have %d keys; want 2", len(keys))
	}
}
