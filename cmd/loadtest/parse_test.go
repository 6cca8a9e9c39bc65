package main

import (
	"reflect"
	"testing"
)

const page = `<div id="game-main" data-shown="3.17.en" hx-headers="{&#34;X-Cacao-Shown&#34;:&#34;3.17.en&#34;}"><span hidden hx-trigger="sse:game[Number(detail.lastEventId) &gt; 17 &amp;&amp; x]" hx-get="/games/3?live=1"></span>
<a data-hx-get="/wrong" hx-get="/games/3?tile=1111&amp;rot=0" class="tile" data-tile="1111" id="tile-0">a</a>
<a class="tile" data-tile="2101" hx-get="/games/3?tile=2101">b</a>
<button id="rotate" hx-get="/games/3?tile=1111&amp;rot=1">rotate</button>
<a hx-get="/games/3?tile=1111&amp;at=1,0" class="cell"></a><a class="cell legal-not"></a>
<form method="post" action="/games/3/resolve"><input type="hidden" name="x" value="no"></form>
<form hx-post="/games/3/turn" method="post" action="/games/3/turn">
<input type="hidden" name="_csrf" value="a&#43;b"/><input type="hidden" name="edge" value="e1"/>
<select id="use-0" name="use">
  <option value="2">two</option><option value="1">one</option></select>
<input id="order-0" name="order" type="number" min="1" value="1"/><input type="text" name="note" value="skip"/>
</form></div>`

func TestParsePage(t *testing.T) {
	if got := shownVersion(page); got != 17 {
		t.Errorf("version %d, want 17", got)
	}
	if got, ok := shownIn(page); !ok || got != "3.17.en" {
		t.Errorf("shown %q %v, want 3.17.en", got, ok)
	}
	if got, ok := shownIn(`<div id="game-main"><h1>`); !ok || got != "" {
		t.Errorf("shown by a game area without it: %q %v", got, ok)
	}
	if _, ok := shownIn("<p>"); ok {
		t.Error("a page without a game area shows one")
	}
	if got := shownVersion("<p>"); got != -1 {
		t.Errorf("version of a page without one: %d", got)
	}
	if got, want := links(page, `data-tile="`), []string{"/games/3?tile=1111&rot=0", "/games/3?tile=2101"}; !reflect.DeepEqual(got, want) {
		t.Errorf("hand %q, want %q", got, want)
	}
	if got, want := links(page, `id="rotate"`), []string{"/games/3?tile=1111&rot=1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("rotate %q, want %q", got, want)
	}
	if got, want := links(page, `class="cell"`), []string{"/games/3?tile=1111&at=1,0"}; !reflect.DeepEqual(got, want) {
		t.Errorf("cells %q, want %q", got, want)
	}
	action, vals, ok := postForm(page, "/turn")
	want := map[string][]string{"_csrf": {"a+b"}, "edge": {"e1"}, "use": {"2"}, "order": {"1"}}
	if !ok || action != "/games/3/turn" || !reflect.DeepEqual(vals, want) {
		t.Errorf("form %v %q %v, want /games/3/turn %v", ok, action, vals, want)
	}
	if _, _, ok := postForm(page, "/leave"); ok {
		t.Error("found a form that is not on the page")
	}
}
