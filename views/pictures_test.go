package views

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"cacao/engine"
	"cacao/views/i18n"
	"cacao/views/viewtest"
)

// TestRulesHavePictures: the rules, in every language, show every kind of
// worker tile and of jungle tile, a fill and a temple's majority, drawn
// from the tiles' sprite, where their text marks them.
func TestRulesHavePictures(t *testing.T) {
	for _, code := range []string{"en", "de", "es", "fr", "fa", "zh-Hans", "zh-Hant"} {
		l, ok := i18n.Get(code)
		if !ok {
			t.Fatalf("no language %s", code)
		}
		var buf bytes.Buffer
		if err := RulesBody(RulesHTML(code)).Render(i18n.With(context.Background(), l), &buf); err != nil {
			t.Fatal(err)
		}
		html := buf.String()
		if n := viewtest.Count(t, html, "figure.rules-pic"); n != 4 || strings.Contains(html, "<!--picture:") {
			t.Errorf("%s: %d pictures drawn, want 4 (marks left: %v)", code, n, strings.Contains(html, "<!--picture:"))
		}
		for w := engine.Worker(0); int(w) < engine.NumWorkerKinds; w++ {
			if !strings.Contains(html, handIcon(w, 0)) {
				t.Errorf("%s: worker tile %s not drawn", code, w)
			}
		}
		for j := engine.Jungle(1); int(j) <= engine.NumJungleKinds; j++ {
			if !viewtest.Has(t, html, `[href="`+tileIcon(jungleID(j))+`"]`) || !viewtest.HasText(t, html, "span", JungleName(l, j)) {
				t.Errorf("%s: jungle tile %s not drawn and named", code, JungleName(l, j))
			}
		}
		if !viewtest.Has(t, html, ".fill-mark") || !strings.Contains(html, templeCaption(l)) {
			t.Errorf("%s: no fill or no temple's majority drawn", code)
		}
	}
}
