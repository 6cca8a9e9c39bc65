package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"cacao/models"
)

// tappableJS tells whether the element %q is wholly on the screen and is
// what a tap at its middle reaches (nothing laid over it, like the phone's
// tray of the hand).
const tappableJS = `(() => {
	const e = document.querySelector(%q);
	if (!e) return false;
	const r = e.getBoundingClientRect();
	if (r.width === 0 || r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) return false;
	const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
	return !!hit && (hit === e || e.contains(hit));
})()`

// tappable fails the test unless css is in view and takes the tap, after
// scrolling it to the middle of the screen when scroll says so (a form at
// the foot of a long page, as a player scrolls to it).
func (tb *tab) tappable(css, what string, scroll bool) {
	tb.b.t.Helper()
	if scroll {
		_, err := eval[bool](tb, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (e) e.scrollIntoView({block: 'center'}); return !!e; })()`, css))
		tb.must(err)
	}
	if ok, err := eval[bool](tb, fmt.Sprintf(tappableJS, css)); err != nil || !ok {
		tb.b.fatalf("%s: %s (%s) on %s is not in view, or a tap on it reaches something else (%v)", tb.name, what, css, tb.location(), err)
	}
}

// playAsGuest has tb, a visitor, play the easy bot as a guest called name
// from /play?bot=easy, tapping the form's fields and button where they are
// on the screen; it returns the game's address.
func (tb *tab) playAsGuest(base, name string) string {
	tb.b.t.Helper()
	tb.must(tb.navigate(base + "/play?bot=easy"))
	if level, _ := eval[string](tb, `document.querySelector('#bot').value`); level != "easy" {
		tb.b.fatalf("%s: /play?bot=easy chose the %q bot", tb.name, level)
	}
	tb.tappable("#guest-name", "the name field", false)
	tb.tappable(`form[action="/play"] button[type=submit]`, "Play", false)
	tb.must(tb.do(10*time.Second, chromedp.Click(chromedp.ID("guest-name")), chromedp.SendKeys(chromedp.ID("guest-name"), name)))
	tb.must(tb.click(`form[action="/play"] button[type=submit]`, "Play"))
	game := tb.location()
	if !strings.Contains(game, "/games/") {
		tb.b.fatalf("%s: after Play the browser is on %s (%q), want a game page", tb.name, game, tb.text("#main .error"))
	}
	if me := tb.text("header .me"); me != name+" (guest)" {
		tb.b.fatalf("%s: the header names the guest %q", tb.name, me)
	}
	return game
}

// guestBecomesAccount has the guest on the game page make an account in
// their own name (prefilled) from the form at the foot of the page, and
// checks they are back at the game, unmarked.
func (tb *tab) guestBecomesAccount(name, game string) {
	tb.b.t.Helper()
	if got, _ := eval[string](tb, `document.querySelector('#account-name').value`); got != name {
		tb.b.fatalf("%s: the account form offers the name %q, want %q", tb.name, got, name)
	}
	tb.tappable("#account-password", "the account's password field", true)
	tb.must(tb.do(10*time.Second, chromedp.Click(chromedp.ID("account-password")), chromedp.SendKeys(chromedp.ID("account-password"), password)))
	tb.tappable(`form[action="/account"] button[type=submit]`, "Create account", true)
	tb.must(tb.click(`form[action="/account"] button[type=submit]`, "Create account"))
	if loc := tb.location(); loc != game {
		tb.b.fatalf("%s: after Create account the browser is on %s (%q), want the game %s", tb.name, loc, tb.text("#main .error"), game)
	}
	if me := tb.text("header .me"); me != name {
		tb.b.fatalf("%s: the header names the new account %q", tb.name, me)
	}
	if tb.text("#account-name") != "" || strings.Contains(tb.text("#main"), name+" (guest)") {
		tb.b.fatalf("%s: the account is still shown as a guest", tb.name)
	}
}

// TestBrowserGuestPlaysABot: a visitor opens /play, gives a name and plays
// the easy bot at once as a guest, marked so among the players; the game is
// played by clicks from a few turns before its end (TestLongBrowserGuestGame
// plays it all) to the final scores.
func TestBrowserGuestPlaysABot(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	b := newBrowser(t, true, s.logs)
	g := b.newTab("gus", true)
	game := g.playAsGuest(s.base, "gus")
	if !strings.Contains(g.text("#main"), "gus (guest)") {
		b.fatalf("the game page does not mark the guest among the players: %q", g.text("#main"))
	}
	gus, err := s.store.UserNamed("gus")
	g.must(err)
	s.playUntil(gameID(t, game), nearTheEnd(gus, 3))
	g.must(g.navigate(game)) // the seeded moves, which no stream carried
	g.must(g.waitFor(`typeof window.htmx !== 'undefined'`, 10*time.Second, "htmx"))
	playToEnd(b, play{game: game, limit: 60 * time.Second, stall: 8 * time.Second}, g)
	g.checkFinal(2)
	if g.turns < 1 {
		b.fatalf("the guest played %d of their last turns by clicking", g.turns)
	}
}

// TestBrowserGuestLogoutWarns: without JavaScript, on a phone, a guest's
// Log out leads to the warning that their guest games will be lost, with
// Make an account and the confirmation in view; the link opens the
// account form, and the confirmation logs them out.
func TestBrowserGuestLogoutWarns(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	b := newBrowser(t, false, s.logs)
	g := b.newTab("gus", false)
	g.must(g.do(5*time.Second, chromedp.EmulateViewport(390, 844)))
	g.playAsGuest(s.base, "gus")
	logout := `header.top a[href="/logout"]`
	g.tappable(logout, "Log out", false)
	g.must(g.click(logout, "Log out"))
	if got := g.text("#guest-loss"); got != "Your guest games will be lost; make an account to keep them." {
		b.fatalf("after Log out the guest is on %s, warned %q", g.location(), got)
	}
	account, confirm := `main a[href="/account"]`, `main form[action="/logout"] button[type=submit]`
	g.tappable(account, "Make an account", false)
	g.tappable(confirm, "Log out anyway", false)
	g.must(g.click(account, "Make an account"))
	if !strings.HasSuffix(g.location(), "/account") || g.text("header .me") != "gus (guest)" || g.text("main h1") != "Make an account" {
		b.fatalf("the warning's Make an account leads to %s (%q), the guest signed in as %q", g.location(), g.text("main h1"), g.text("header .me"))
	}
	g.must(g.navigate(s.base + "/logout"))
	g.must(g.click(confirm, "Log out anyway"))
	if me := g.text("header .me"); me != "" || !strings.Contains(g.text("header.top nav"), "Log in") {
		b.fatalf("after Log out anyway the header says %q: still signed in as %q", g.text("header.top"), me)
	}
}

// TestBrowserGuestTakesInviteSeat: alice shares the link of her private
// table; a visitor on a phone opens it, takes the seat as a guest with a
// name, and the two play by clicks (to the end, the middle seeded); then
// the guest makes an account from the game page and finds the game in My
// games, here and on another device.
func TestBrowserGuestTakesInviteSeat(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	alice := s.user("alice")
	table, err := s.store.CreateGame(alice, models.GameSpec{Seats: []string{models.SeatOpen}, Private: true})
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, true, s.logs)
	a, g := b.newTab("alice", true), b.newTab("gus", true)
	s.openGame(a, "alice", table.ID)
	invite := a.text("#game-main code")
	if !strings.Contains(invite, "/join/"+table.InviteToken) {
		b.fatalf("alice's table shows no invite link: %q", invite)
	}
	g.must(g.do(5*time.Second, chromedp.EmulateViewport(390, 844)))
	g.must(g.navigate(invite))
	g.tappable("#guest-name", "the guest's name field", true)
	g.must(g.do(10*time.Second, chromedp.Click(chromedp.ID("guest-name")), chromedp.SendKeys(chromedp.ID("guest-name"), "gus")))
	g.tappable(`form[action$="/guest"] button[type=submit]`, "Take the seat as a guest", true)
	g.must(g.click(`form[action$="/guest"] button[type=submit]`, "Take the seat as a guest"))
	game := s.gameURL(table.ID)
	if loc := g.location(); loc != game {
		b.fatalf("the guest took the seat and is on %s (%q), want %s", loc, g.text("#main .error"), game)
	}
	a.must(a.navigate(game))
	if !strings.Contains(a.text("#main"), "gus (guest)") {
		b.fatalf("alice's page does not mark the guest: %q", a.text("#main"))
	}
	for _, tb := range []*tab{a, g} {
		tb.must(tb.waitFor(`typeof window.htmx !== 'undefined' && !!document.querySelector('#board')`, 10*time.Second, "the board"))
	}
	playToEnd(b, play{game: game, maxTurns: 2, limit: 60 * time.Second, stall: 20 * time.Second}, a, g)
	gus, err := s.store.UserNamed("gus")
	g.must(err)
	s.playUntil(table.ID, turnsLeft(2))
	for _, tb := range []*tab{a, g} {
		tb.must(tb.navigate(game))
		tb.must(tb.waitFor(`typeof window.htmx !== 'undefined' && !!document.querySelector('#game-main')`, 10*time.Second, "the game page"))
	}
	playToEnd(b, play{game: game, limit: 60 * time.Second, stall: 20 * time.Second}, a, g)
	for _, tb := range []*tab{a, g} {
		tb.checkFinal(2)
	}
	if a.turns < 2 || g.turns < 2 {
		b.fatalf("each should have played by clicking: %s", turnCounts([]*tab{a, g}))
	}

	g.guestBecomesAccount(gus.Username, game)
	g.must(g.navigate(s.base + "/"))
	mine := fmt.Sprintf(`#home-lists a[href="/games/%d"]`, table.ID)
	g.tappable(mine, "the game in My games", true)
	phone := b.newTab("gus elsewhere", true)
	phone.logIn(s.base, "gus", "")
	phone.tappable(mine, "the game in My games, on another device", true)
}
