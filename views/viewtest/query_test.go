package viewtest

import (
	"runtime"
	"slices"
	"strings"
	"testing"
)

const page = `<!DOCTYPE html>
<html lang="en"><head><title>Game 1</title></head>
<body><main>
<form method="post" class="inline" action="/games/1/handover"><button>Hand over</button></form>
<p class="error">that  cell
	is taken</p>
<p>a &lt;b&gt; is not bold: <code>&lt;span id="fake"&gt;</code></p>
<span id="unread" hidden>0</span>
</main></body></html>`

func TestPage(t *testing.T) {
	if !Has(t, page, `form[action="/games/1/handover"]`) || Has(t, page, `form[action="/games/2/handover"]`) {
		t.Error("Has does not find the form by its action, whatever the order of its attributes")
	}
	if Has(t, page, "b") || Has(t, page, "#fake") {
		t.Error("Has finds markup that is only text")
	}
	if got := Text(t, page, "p.error"); got != "that cell is taken" {
		t.Errorf("Text = %q, want its whitespace collapsed", got)
	}
	if got := Text(t, page, "p.none"); got != "" {
		t.Errorf("Text of nothing = %q", got)
	}
	if v, ok := Attr(t, page, "#unread", "hidden"); !ok || v != "" {
		t.Errorf("Attr(hidden) = %q, %v", v, ok)
	}
	if _, ok := Attr(t, page, "#unread", "class"); ok {
		t.Error("Attr finds an attribute the element does not have")
	}
	if !HasText(t, page, "#unread[hidden]", "0") || HasText(t, page, "#unread", "1") {
		t.Error("HasText")
	}
	if n := WithText(Find(t, page, "p"), "that cell is taken").Length(); n != 1 {
		t.Errorf("WithText keeps %d elements, want 1", n)
	}
	if n := Count(t, page, "main p"); n != 2 {
		t.Errorf("Count = %d, want 2", n)
	}
	if got := Texts(t, page, "title, button"); !slices.Equal(got, []string{"Game 1", "Hand over"}) {
		t.Errorf("Texts = %q", got)
	}
	if s := Show(t, page, "#unread"); s != "<span id=\"unread\" hidden=\"\">0</span>\n" {
		t.Errorf("Show = %q", s)
	}
	if s := Show(t, page, "#none"); !strings.HasPrefix(s, "nothing matches #none in:\n<main>") {
		t.Errorf("Show of nothing = %q", s)
	}
}

// An htmx answer is a fragment: no <html>, perhaps only rows of a table.
func TestFragment(t *testing.T) {
	frag := `<div id="game-main" hx-target="#game-main"><p>Your turn</p></div>
<span id="unread" hidden>3</span>`
	if got, ok := Attr(t, frag, "div#game-main", "hx-target"); !ok || got != "#game-main" {
		t.Errorf("hx-target = %q, %v", got, ok)
	}
	if !HasText(t, frag, "#unread", "3") || Count(t, frag, "div") != 1 {
		t.Error("the fragment's second element is lost")
	}
	rows := `<tr><td>1</td></tr><tr><td>2</td></tr>`
	if got := Texts(t, rows, "tr > td"); !slices.Equal(got, []string{"1", "2"}) {
		t.Errorf("rows on their own: %q", got)
	}
	if !HasText(t, `<option value="7" selected>07:00</option>`, `option[value="7"][selected]`, "07:00") {
		t.Error("an option on its own is lost")
	}
}

// A selector that is not CSS fails the test: it would otherwise match
// nothing, and a test that something is absent would pass.
func TestBadSelector(t *testing.T) {
	ft := &fakeT{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Has(ft, page, `form[action="/games/1`)
	}()
	<-done
	if !ft.failed {
		t.Error("a selector that is not CSS does not fail the test")
	}
}

// fakeT records a failure and ends its goroutine, as testing.T does.
type fakeT struct {
	testing.TB
	failed bool
}

func (f *fakeT) Helper() {}

func (f *fakeT) Fatalf(string, ...any) {
	f.failed = true
	runtime.Goexit()
}
