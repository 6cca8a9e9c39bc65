package main

import (
	"reflect"
	"strings"
	"testing"
)

// page is a game area as the site wrote it with the shown-version header
// protocol (data-shown, hx-headers); pageWithout as it writes it without:
// the users must read both alike.
const page = `<div id="game-main" data-shown="3.17.en" hx-headers="{&#34;X-Cacao-Shown&#34;:&#34;3.17.en&#34;}"><span hidden hx-trigger="sse:game" data-live-version="17" hx-get="/games/3?live=1&amp;from=4"></span>
<a data-hx-get="/wrong" hx-get="/games/3?tile=1111&amp;rot=0" class="tile" data-tile="1111" id="tile-0">a</a>
<a class="tile" data-tile="2101" hx-get="/games/3?tile=2101">b</a>
<button id="rotate" hx-get="/games/3?tile=1111&amp;rot=1">rotate</button>
<a hx-get="/games/3?tile=1111&amp;at=1,0" class="cell"></a><a class="cell legal-not"></a>
<a href="/games/3?tile=1111&amp;at=2,0" hx-get="/games/3?tile=1111&amp;at=2,0" class="cell" data-cell="2,0"><rect class="legal"></rect></a>
<form method="post" action="/games/3/resolve"><input type="hidden" name="x" value="no"></form>
<form method="post" action="/games/3/turn" hx-post="/games/3/turn" hx-push-url="false">
<input type="hidden" name="_csrf" value="a&#43;b"/><input type="hidden" name="version" value="17"/><input type="hidden" name="edge" value="e1"/>
<select id="use-0" name="use">
  <option value="2">two</option><option value="1">one</option></select>
<input id="order-0" name="order" type="number" min="1" value="1"/><input type="text" name="note" value="skip"/>
</form></div>`

var pageWithout = strings.Replace(page, ` data-shown="3.17.en" hx-headers="{&#34;X-Cacao-Shown&#34;:&#34;3.17.en&#34;}"`, ` hx-target="#game-main" hx-swap="outerHTML"`, 1)

func TestParsePage(t *testing.T) {
	if strings.Contains(pageWithout, "data-shown") || strings.Contains(pageWithout, "X-Cacao-Shown") {
		t.Fatal("the page without the protocol still has it")
	}
	for name, page := range map[string]string{"with data-shown": page, "without data-shown": pageWithout} {
		if got := shownVersion(page); got != 17 {
			t.Errorf("%s: version %d, want 17", name, got)
		}
		if got, want := liveLink(page), "/games/3?live=1&from=4"; got != want {
			t.Errorf("%s: live link %q, want %q", name, got, want)
		}
		if got, want := links(page, isTile), []string{"/games/3?tile=1111&rot=0", "/games/3?tile=2101"}; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: hand %q, want %q", name, got, want)
		}
		if got, want := links(page, isRotate), []string{"/games/3?tile=1111&rot=1"}; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: rotate %q, want %q", name, got, want)
		}
		if got, want := links(page, isCell), []string{"/games/3?tile=1111&at=1,0", "/games/3?tile=1111&at=2,0"}; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: cells %q, want %q", name, got, want)
		}
		action, vals, ok := postForm(page, "/turn")
		want := map[string][]string{"_csrf": {"a+b"}, "version": {"17"}, "edge": {"e1"}, "use": {"2"}, "order": {"1"}}
		if !ok || action != "/games/3/turn" || !reflect.DeepEqual(vals, want) {
			t.Errorf("%s: form %v %q %v, want /games/3/turn %v", name, ok, action, vals, want)
		}
		if action, _, ok := postForm(page, "/resolve"); !ok || action != "/games/3/resolve" {
			t.Errorf("%s: choice form %v %q", name, ok, action)
		}
		if _, _, ok := postForm(page, "/leave"); ok {
			t.Errorf("%s: found a form that is not on the page", name)
		}
		if !hasChoice(page) || isFinal(page) {
			t.Errorf("%s: a pending choice not seen, or the game seen over", name)
		}
	}
}

// TestParseVersion: a page without a live trigger (a step's answer on a
// site that drops it, a finished game) still says its version by its
// forms, or by its event stream on a whole page; a page with none of them
// says -1.
func TestParseVersion(t *testing.T) {
	for _, c := range []struct {
		page string
		want int
	}{
		{`<form hx-post="/games/3/turn"><input type="hidden" name="version" value="21"/></form>`, 21},
		{`<div hx-ext="sse" sse-connect="/games/3/events?since=9"><div id="game-main"></div></div>`, 9},
		{`<span hidden hx-trigger="sse:game" data-live-version="5" hx-get="/games/3?live=1"></span>`, 5},
		{`<div id="game-main"><h1>Game 3</h1></div>`, -1},
		{"<p>", -1},
	} {
		if got := shownVersion(c.page); got != c.want {
			t.Errorf("version of %q: %d, want %d", c.page, got, c.want)
		}
	}
	if got := eventsURL(`<div hx-ext="sse" sse-connect="/games/3/events?since=9">`); got != "/games/3/events?since=9" {
		t.Errorf("events URL %q", got)
	}
	if liveLink("<p>") != "" || eventsURL("<p>") != "" {
		t.Error("a page without a game follows one")
	}
}

// TestParseForms: a form htmx posts without an action, and a plain form
// posting elsewhere, are told apart by the address they post to.
func TestParseForms(t *testing.T) {
	body := `<form method="post" action="/games/3/join"><input type="hidden" name="_csrf" value="t"></form>
<form
 hx-post="/games/3/resolve"><input
 type="hidden" name="version" value="4"></form>`
	action, vals, ok := postForm(body, "/resolve")
	if !ok || action != "/games/3/resolve" || !reflect.DeepEqual(vals, map[string][]string{"version": {"4"}}) {
		t.Fatalf("resolve form %v %q %v", ok, action, vals)
	}
	if _, _, ok := postForm(`<form method="get" action="/games/3/turn"></form>`, "/turn"); ok {
		t.Fatal("a form that gets was taken for one that posts")
	}
}
