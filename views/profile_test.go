package views

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"cacao/views/i18n"
	"cacao/views/viewtest"
)

// TestRatingChartHasAxes: the rating's history is drawn with its axes: the
// highest and lowest ratings written at their gridlines, the dates of the
// first and last games under the axis, the rating now marked at the line's
// end; all of it said in words.
func TestRatingChartHasAxes(t *testing.T) {
	day := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	vm := ProfileVM{Page: Page{Title: "ana"}, Name: "ana", Provisional: 5, Ratings: [2]ProfileRating{{Rating: 1531, RatedGames: 30,
		History: []RatingPoint{{day, 1500}, {day.AddDate(0, 0, 9), 1562}, {day.AddDate(0, 1, 2), 1531}}}, {More: true}}}
	c := vm.Ratings[0].chart()
	if c.Hi != 1562 || c.Lo != 1500 || c.HiY >= c.LoY || c.NowX != plotX1 || c.NowY <= c.HiY || c.NowY >= c.LoY {
		t.Fatalf("chart %+v: want 1562 above 1500, the rating now (1531) at the right end between them", c)
	}
	var buf bytes.Buffer
	if err := ProfilePage(vm).Render(i18n.With(context.Background(), i18n.En), &buf); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	// The numbers and dates are written each in an element of its own.
	texts := viewtest.Texts(t, html, "svg.chart *")
	for _, want := range []string{"1562", "1500", "Sun 1 Mar", "Fri 3 Apr"} {
		if !slices.Contains(texts, want) {
			t.Errorf("the chart lacks %q:\n%s", want, viewtest.Show(t, html, "svg.chart"))
		}
	}
	if !viewtest.Has(t, html, "svg.chart .now") {
		t.Errorf("the chart does not mark the rating now:\n%s", viewtest.Show(t, html, "svg.chart"))
	}
	if label, _ := viewtest.Attr(t, html, "svg.chart", "aria-label"); !strings.Contains(label, "from Sun 1 Mar 2026 to Fri 3 Apr 2026: from 1500 to 1531") {
		t.Errorf("the chart does not say its span in words: %q", label)
	}
}
