package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"cacao/models"
)

// TestBrowserChatLive: bob writes in the table chat; his box empties and
// keeps the focus; alice's open page shows the message without a reload,
// reads it out, and keeps the message she is writing meanwhile, also
// across bob's next move.
func TestBrowserChatLive(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	id := s.gameBetween(s.user("alice"), s.user("bob"))
	b := newBrowser(t, true, s.logs)
	a, bb := b.newTab("alice", true), b.newTab("bob", true)
	for _, tb := range []*tab{a, bb} {
		s.openGame(tb, tb.name, id)
		tb.must(tb.waitFor(`typeof window.htmx !== 'undefined' && !!document.querySelector('#chat-text')`, 10*time.Second, "the chat's form"))
		tb.setMarker()
	}
	a.must(a.do(10*time.Second, chromedp.SendKeys("#chat-text", "half a thought")))

	say := func(text string) {
		bb.must(bb.do(10*time.Second, chromedp.SendKeys("#chat-text", text), chromedp.Click(`#chat form.chat-form button[type=submit]`)))
		bb.must(bb.waitFor(fmt.Sprintf(`document.querySelector('#chat-log').textContent.includes(%q) && document.querySelector('#chat-text').value === '' && document.activeElement.id === 'chat-text'`, text),
			10*time.Second, "bob's message in his chat, the box empty and focused"))
		a.must(a.waitFor(fmt.Sprintf(`document.querySelector('#chat-log').textContent.includes(%q)`, text), 10*time.Second, "bob's message on alice's page"))
	}
	say("hello <alice>")
	if got := a.text("#announce"); !strings.Contains(got, "bob says: hello <alice>") {
		b.fatalf("alice's live region says %q", got)
	}
	// Bob moves if it is his turn: the game area is swapped in on alice's
	// page; her chat is left alone.
	mover := bb
	if st, err := a.state(); err == nil && strings.Contains(st.PlayText, "Choose a tile from your hand.") {
		mover = nil // alice is to move: no move of bob's to wait for
	}
	if mover != nil {
		turns := mover.turns
		for deadline := time.Now().Add(30 * time.Second); mover.turns == turns; time.Sleep(100 * time.Millisecond) {
			if time.Now().After(deadline) {
				b.fatalf("bob could not play a turn")
			}
			if _, err := mover.step(s.gameURL(id)); err != nil {
				b.fatalf("bob: %v", err)
			}
		}
		a.must(a.waitFor(`document.querySelector('#announce').textContent.includes('bob')`, 15*time.Second, "bob's move on alice's page"))
	}
	time.Sleep(models.ChatGap) // one message per ChatGap
	say("your turn")
	for _, tb := range []*tab{a, bb} {
		st, err := tb.state()
		tb.must(err)
		if !st.HasMarker {
			b.fatalf("%s's page was reloaded", tb.name)
		}
		if blocked := tb.cspBlocked(); len(blocked) > 0 {
			b.fatalf("%s's page broke the content security policy: %q", tb.name, blocked)
		}
	}
	if draft, _ := eval[string](a, `document.querySelector('#chat-text').value`); draft != "half a thought" {
		b.fatalf("alice's message being written became %q", draft)
	}
}

// TestBrowserRematch: alice asks for a rematch from the final table; bob's
// final table, open meanwhile, offers it without a reload; he accepts and
// both are in the new game, under way.
func TestBrowserRematch(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	id := s.gameBetween(s.user("alice"), s.user("bob"))
	s.playUntil(id, finished)
	b := newBrowser(t, true, s.logs)
	a, bb := b.newTab("alice", true), b.newTab("bob", true)
	for _, tb := range []*tab{a, bb} {
		s.openGame(tb, tb.name, id)
		tb.must(tb.waitFor(`typeof window.htmx !== 'undefined' && !!document.querySelector('#final')`, 10*time.Second, "the final table"))
	}
	bb.setMarker()
	a.must(a.click(`#rematch button[type=submit]`, "Rematch"))
	a.must(a.waitFor(fmt.Sprintf(`document.querySelector('.game-head').textContent.includes('Waiting') || document.body.textContent.includes('A rematch of game %d.')`, id), 10*time.Second, "the rematch's page"))
	rematch := a.location()
	bb.must(bb.waitFor(`!!document.querySelector('#rematch form[action$="/join"]')`, 10*time.Second, "the rematch offered on bob's final table"))
	if st, err := bb.state(); err != nil || !st.HasMarker {
		b.fatalf("bob's page was reloaded (%v)", err)
	}
	bb.must(bb.click(`#rematch form[action$="/join"] button`, "Accept the rematch"))
	if loc := bb.location(); loc != rematch {
		b.fatalf("bob accepted and is on %s, want %s", loc, rematch)
	}
	for _, tb := range []*tab{a, bb} {
		tb.must(tb.waitFor(`!!document.querySelector('#board') && !!document.querySelector('#villages')`, 10*time.Second, "the rematch under way"))
	}
}

// TestBrowserReplayKeys: in a replay the arrow keys step on and back; at
// 1280×800 the hands and the villages stand beside the board.
func TestBrowserReplayKeys(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	id := s.gameBetween(s.user("alice"), s.user("bob"))
	s.playUntil(id, finished)
	b := newBrowser(t, true, s.logs)
	a := b.newTab("alice", true)
	s.openGame(a, "alice", id)
	a.must(a.navigate(fmt.Sprintf("%s/turns/3", s.gameURL(id))))
	a.must(a.waitFor(`typeof window.htmx !== 'undefined'`, 10*time.Second, "the page's scripts"))
	// At a laptop's size the hands and the villages stand beside the board,
	// their tops level with its top.
	if got, err := eval[[]float64](a, `(() => { const b = document.getElementById('board-wrap').getBoundingClientRect(), s = document.querySelector('.replay > .game-side').getBoundingClientRect(); return [b.top, b.right, s.top, s.left]; })()`); err != nil || got[2] > got[0]+40 || got[3] < got[1] {
		b.fatalf("the replay's hands and villages start at (%v), the board at its top %v and right %v (%v)", got[2:], got[0], got[1], err)
	}
	for _, k := range []struct {
		key, want string
	}{{kb.ArrowRight, "/turns/4"}, {kb.ArrowLeft, "/turns/3"}, {kb.ArrowLeft, "/turns/2"}} {
		a.must(a.do(10*time.Second, chromedp.KeyEvent(k.key)))
		a.must(a.waitFor(fmt.Sprintf(`location.pathname.endsWith(%q) && document.readyState === 'complete'`, k.want), 10*time.Second, "the step "+k.want))
	}
}

// TestBrowserHiddenTabSeesNothing: alice's page, in a tab she does not
// look at, follows bob's move live without counting as her having seen
// it; shown again, it does.
func TestBrowserHiddenTabSeesNothing(t *testing.T) {
	t.Parallel()
	s, b, a, bb, game := bobToPlay(t, true, 1280, 800)
	alice, err := s.store.UserNamed("alice")
	if err != nil {
		t.Fatal(err)
	}
	seen := func() int {
		l, err := s.store.LoadGame(game)
		if err != nil {
			t.Fatal(err)
		}
		return l.Seats[l.SeatOf(alice.ID)].SeenSeq
	}
	setHidden := func(hidden bool) {
		state := map[bool]string{true: "hidden", false: "visible"}[hidden]
		_, err := eval[bool](a, fmt.Sprintf(`(() => { Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => %q}); document.dispatchEvent(new Event('visibilitychange')); return true; })()`, state))
		a.must(err)
	}
	a.must(a.waitFor(`typeof window.htmx !== 'undefined'`, 10*time.Second, "htmx"))
	setHidden(true)
	before := seen()
	bb.playAMove(s.gameURL(game))
	a.must(a.waitFor(`document.querySelector('#announce').textContent.includes('bob')`, 15*time.Second, "bob's move on alice's hidden page"))
	if got := seen(); got != before {
		b.fatalf("alice's hidden tab counted as seeing %d log entries (before: %d)", got, before)
	}
	setHidden(false)
	for deadline := time.Now().Add(10 * time.Second); seen() == before; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			b.fatalf("alice's tab, shown again, did not count as seeing the game")
		}
	}
}

// TestBrowserChatNewsOnAPhone: on a phone, at the top of the game page,
// bob's new message in the table chat (far below) is signalled at the top
// of the screen; the sign leads to the chat and goes.
func TestBrowserChatNewsOnAPhone(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	id := s.gameBetween(s.user("alice"), s.user("bob"))
	b := newBrowser(t, true, s.logs)
	a, bb := b.newTab("alice", true), b.newTab("bob", true)
	a.must(a.do(5*time.Second, chromedp.EmulateViewport(390, 844)))
	for _, tb := range []*tab{a, bb} {
		s.openGame(tb, tb.name, id)
		tb.must(tb.waitFor(`typeof window.htmx !== 'undefined' && !!document.querySelector('#chat-text')`, 10*time.Second, "the chat's form"))
	}
	if shown, err := eval[bool](a, `(() => { window.scrollTo(0, 0); return !document.getElementById('chat-news').hidden; })()`); err != nil || shown {
		b.fatalf("a sign of new messages before anyone wrote (%v)", err)
	}
	bb.must(bb.do(10*time.Second, chromedp.SendKeys("#chat-text", "good luck"), chromedp.Click(`#chat form.chat-form button[type=submit]`)))
	a.must(a.waitFor(`!document.getElementById('chat-news').hidden`, 10*time.Second, "the sign of bob's message"))
	if out := a.notInView([][2]string{{"#chat-news", "the sign of a new message"}}); len(out) > 0 {
		b.fatalf("on a phone: %s", strings.Join(out, "; "))
	}
	if got := a.text("#chat-news"); got != "1 new message in the chat" {
		b.fatalf("the sign says %q", got)
	}
	xy, err := eval[[]float64](a, `(() => { const r = document.getElementById('chat-news').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`)
	a.must(err)
	a.must(a.do(5*time.Second, chromedp.MouseClickXY(xy[0], xy[1])))
	a.must(a.waitFor(`document.getElementById('chat-news').hidden && document.getElementById('chat').getBoundingClientRect().top < innerHeight`, 5*time.Second, "the chat in sight, the sign gone"))
}
