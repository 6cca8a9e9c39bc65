package views

import (
	"bytes"
	"context"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"cacao/views/i18n"
	"cacao/views/viewtest"
)

// TestWelcomeOffersThreeWaysIn: the welcome page offers, in this order,
// Learn to play, Play a bot now and Sign up, and says what Cacao is in
// three pictures, each drawn (hidden from screen readers) and told in its
// caption, in the reader's language.
func TestWelcomeOffersThreeWaysIn(t *testing.T) {
	de, _ := i18n.Get("de")
	for _, l := range []*i18n.Lang{i18n.En, de} {
		var buf bytes.Buffer
		if err := LandingPage(Page{Title: "x"}).Render(i18n.With(context.Background(), l), &buf); err != nil {
			t.Fatal(err)
		}
		page := buf.String()
		var ways []string
		viewtest.Find(t, page, ".welcome .bar a.button").Each(func(_ int, a *goquery.Selection) {
			ways = append(ways, a.AttrOr("href", "")+" "+viewtest.Collapse(a.Text()))
		})
		want := []string{"/learn " + l.T("Learn to play"), "/play " + l.T("Play a bot now"), "/signup " + l.T("Sign up")}
		if len(ways) != len(want) {
			t.Fatalf("%s: the ways in are %q; want %q", l.Code, ways, want)
		}
		for i := range want {
			if ways[i] != want[i] {
				t.Errorf("%s: way in %d is %q; want %q", l.Code, i+1, ways[i], want[i])
			}
		}
		figures := viewtest.Find(t, page, ".welcome-pictures figure")
		if figures.Length() != 3 {
			t.Fatalf("%s: %d pictures; want 3", l.Code, figures.Length())
		}
		for i, title := range []string{"Lay your workers", "Harvest and sell", "Win the temples"} {
			f := figures.Eq(i)
			if got := viewtest.Collapse(f.Find("figcaption strong").Text()); got != l.T(title) {
				t.Errorf("%s: picture %d is titled %q; want %q", l.Code, i+1, got, l.T(title))
			}
			if svg := f.Find(`svg[aria-hidden="true"]`); svg.Length() != 1 || svg.Find("use").Length() < 2 {
				t.Errorf("%s: picture %d draws no tiles, or is not hidden from screen readers", l.Code, i+1)
			}
		}
	}
}
