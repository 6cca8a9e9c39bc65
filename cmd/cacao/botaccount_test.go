package main

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserTokenAndBotAccount (#41): on a phone, rob makes an access
// token in Settings (the name, the play box and Make a token each take the
// tap; the new token's box is on the screen when the page comes back),
// then makes his account a bot account and lets others seat it; ana's
// new-table form on her phone offers "rob (bot)", and the game made with
// it names him so.
func TestBrowserTokenAndBotAccount(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	s.user("rob")
	s.user("ana")
	b := newBrowser(t, true, s.logs)
	r := b.newTab("rob", true)
	r.must(r.do(5*time.Second, chromedp.EmulateViewport(390, 844)))
	r.logIn(s.base, "rob", "/settings")
	r.touch("#token-name", "the token's name")
	r.must(r.do(5*time.Second, chromedp.SendKeys(chromedp.ID("token-name"), "my bot")))
	r.touch(`form[action="/settings/tokens"] input[value="play"]`, "the play box")
	r.tap(`form[action="/settings/tokens"] button[type=submit]`, "Make a token")
	r.tappable("#new-token", "the new token's box", false)
	if got := r.text(`[role="status"] label[for="new-token"]`); got != "Your new token “my bot”:" {
		b.fatalf("after Make a token, the box is labelled %q", got)
	}

	r.touch(`form[action="/settings/bot"] input[name="sure"]`, "the box saying the account stays a bot")
	r.tap(`form[action="/settings/bot"] button[type=submit]`, "Make this a bot account")
	r.tappable(`form[action="/settings/bot/open"] input[name="open"]`, "the box letting others seat the bot", false)
	r.touch(`form[action="/settings/bot/open"] input[name="open"]`, "the box letting others seat the bot")
	r.tap(`form[action="/settings/bot/open"] button[type=submit]`, "Save")
	if on, err := eval[bool](r, `document.querySelector('form[action="/settings/bot/open"] input[name="open"]').checked`); err != nil || !on {
		b.fatalf("after Save, the bot is not open to others' tables (%v)", err)
	}

	a := b.newTab("ana", true)
	a.must(a.do(5*time.Second, chromedp.EmulateViewport(390, 844)))
	a.logIn(s.base, "ana", "/")
	if got := a.text(`select#seat2 option[value="~rob"]`); got != "rob (bot)" {
		b.fatalf("ana's new-table form offers %q for rob, want \"rob (bot)\"", got)
	}
	a.createGame(s.base, "~rob")
	if got := a.text("#main"); !strings.Contains(got, "rob (bot)") {
		b.fatalf("the game with rob does not name him as a bot:\n%.1500s", got)
	}
}

// touch taps a field of a form where it is on the screen (after scrolling
// to it, as a player does), which changes nothing else on the page.
func (tb *tab) touch(css, what string) {
	tb.b.t.Helper()
	if !tb.reachable(css) {
		tb.b.fatalf("%s: %s (%s) is not on the screen or a tap there does not reach it (page %s)", tb.name, what, css, tb.location())
	}
	tb.must(tb.do(10*time.Second, chromedp.Click(chromedp.CSS(css))))
}
