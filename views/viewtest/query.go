// Package viewtest lets tests look at the HTML the site answers as a parsed
// document, by CSS selector, rather than as a string: an element found by
// its selector does not care how its attributes are ordered or what other
// attributes it has, and text that only looks like markup is not found.
//
// It is for tests only. Every function takes the page (or an htmx fragment,
// which need not have <html> or <body>) as a string and fails the test if the
// page cannot be parsed or the selector is not valid CSS (goquery alone would
// match nothing, and a test that something is absent would pass).
package viewtest

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Parse parses a whole page or a fragment of one. A fragment is parsed as
// the content of a <template>, so that rows, cells and options on their own
// are kept as the browser would keep them.
func Parse(t testing.TB, page string) *goquery.Document {
	t.Helper()
	head := strings.ToLower(strings.TrimLeft(page, " \t\r\n\f"))
	if strings.HasPrefix(head, "<!doctype") || strings.HasPrefix(head, "<html") {
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(page))
		if err != nil {
			t.Fatalf("viewtest: the page does not parse: %v\n%s", err, Excerpt(page))
		}
		return doc
	}
	context := &html.Node{Type: html.ElementNode, Data: "template", DataAtom: atom.Template}
	nodes, err := html.ParseFragment(strings.NewReader(page), context)
	if err != nil {
		t.Fatalf("viewtest: the fragment does not parse: %v\n%s", err, Excerpt(page))
	}
	root := &html.Node{Type: html.DocumentNode}
	for _, n := range nodes {
		root.AppendChild(n)
	}
	return goquery.NewDocumentFromNode(root)
}

// Find is the elements of page that selector matches.
func Find(t testing.TB, page, selector string) *goquery.Selection {
	t.Helper()
	m, err := cascadia.Compile(selector)
	if err != nil {
		t.Fatalf("viewtest: %q is not a CSS selector: %v", selector, err)
	}
	return Parse(t, page).FindMatcher(m)
}

// Has tells whether selector matches an element of page.
func Has(t testing.TB, page, selector string) bool {
	t.Helper()
	return Find(t, page, selector).Length() > 0
}

// Count is how many elements of page selector matches.
func Count(t testing.TB, page, selector string) int {
	t.Helper()
	return Find(t, page, selector).Length()
}

// Attr is attribute name of the first element selector matches, and whether
// there is such an element with such an attribute.
func Attr(t testing.TB, page, selector, name string) (string, bool) {
	t.Helper()
	return Find(t, page, selector).First().Attr(name)
}

// Text is the text of the first element selector matches, its runs of
// whitespace made one space and trimmed ("" if nothing matches).
func Text(t testing.TB, page, selector string) string {
	t.Helper()
	return Collapse(Find(t, page, selector).First().Text())
}

// Texts is the text of each element selector matches, as Text gives it.
func Texts(t testing.TB, page, selector string) []string {
	t.Helper()
	return Find(t, page, selector).Map(func(_ int, s *goquery.Selection) string { return Collapse(s.Text()) })
}

// HasText tells whether selector matches an element of page whose text, as
// Text gives it, is text.
func HasText(t testing.TB, page, selector, text string) bool {
	t.Helper()
	return WithText(Find(t, page, selector), text).Length() > 0
}

// WithText is the elements of s whose text, as Text gives it, is text.
func WithText(s *goquery.Selection, text string) *goquery.Selection {
	return s.FilterFunction(func(_ int, e *goquery.Selection) bool { return Collapse(e.Text()) == text })
}

// Collapse makes each run of HTML whitespace in s one space, and trims it.
// (A no-break space is not HTML whitespace: it stays.)
func Collapse(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f'
	}), " ")
}

// Show is what a failure message shows of page for selector: the HTML of
// the elements it matches, or else a bit of the page's <main> (or of the
// page), shortened.
func Show(t testing.TB, page, selector string) string {
	t.Helper()
	var b strings.Builder
	Find(t, page, selector).Each(func(_ int, s *goquery.Selection) {
		h, _ := goquery.OuterHtml(s)
		b.WriteString(h + "\n")
	})
	if b.Len() == 0 {
		return "nothing matches " + selector + " in:\n" + Excerpt(page)
	}
	return shorten(b.String())
}

// Excerpt is a bit of page for a failure message: from its <main> if it has
// one, shortened.
func Excerpt(page string) string {
	if i := strings.Index(page, "<main"); i >= 0 {
		page = page[i:]
	}
	return shorten(page)
}

func shorten(s string) string {
	const most = 1500
	if len(s) <= most {
		return s
	}
	return strings.ToValidUTF8(s[:most], "") + "…"
}
