package main

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserHardBotAndHint: against the hard bot, alice asks for a hint,
// whose button turns while the bot thinks, which selects a move ready to
// confirm and says how the bot fared with it; she confirms it, the page answers at once that the bot is to play,
// and the bot's move arrives live, the page never reloaded.
func TestBrowserHardBotAndHint(t *testing.T) {
	t.Parallel()
	base, logs := startSite(t)
	b := newBrowser(t, true, logs)
	a := b.newTab("alice", true)
	a.signUp(base, "alice")
	a.createGame(base, "hard")
	yourTurn := `(document.querySelector('#play') || {innerText: ''}).innerText.includes('Choose a tile from your hand.')`
	a.must(a.waitFor(yourTurn, 15*time.Second, "alice's turn"))
	a.setMarker()
	a.must(a.do(5*time.Second, chromedp.Click(`#hint-button`)))
	// While the bot thinks (half a second), the button says it is busy.
	a.must(a.waitFor(`(() => { const h = document.getElementById('hint-button'); return !!h && h.disabled && getComputedStyle(h, '::after').content !== 'none'; })()`, 2*time.Second, "Hint busy"))
	a.must(a.waitFor(`!!document.querySelector('#hint') && !!document.querySelector('#confirm')`, 15*time.Second, "the hint"))
	if got := a.text("#hint"); !strings.HasPrefix(got, "Hint: the hard bot would play this move. It tried it in ") {
		b.fatalf("the hint says %q", got)
	}
	if got := a.text("#preview"); !strings.Contains(got, "If you confirm") {
		b.fatalf("the hinted move shows no preview: %q", got)
	}
	a.must(a.click(`#confirm`, "Confirm move"))
	a.must(a.waitFor(`(document.querySelector('#play') || {innerText: ''}).innerText.includes('is thinking…')`, 10*time.Second, "the bot to be waited for"))
	// Her turn again, or first a choice the bot's move left her.
	a.must(a.waitFor(yourTurn+` || (document.querySelector('#main') || {innerText: ''}).innerText.includes('A choice is waiting for you')`, 15*time.Second, "the hard bot's move to arrive live"))
	if ok, _ := eval[bool](a, `window.__cacaoMarker === 42`); !ok {
		b.fatalf("the page reloaded")
	}
}
