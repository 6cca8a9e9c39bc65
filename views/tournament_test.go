package views

import (
	"testing"

	"cacao/views/i18n"
)

// TestPointsText: a tournament's points are written whole, with a half,
// or to two places at most, in the reader's digits.
func TestPointsText(t *testing.T) {
	fa, _ := i18n.Get("fa")
	for _, c := range []struct {
		l    *i18n.Lang
		v    float64
		want string
	}{
		{i18n.En, 0, "0"}, {i18n.En, 3, "3"}, {i18n.En, 0.5, "½"}, {i18n.En, 4.5, "4½"}, {i18n.En, 2.25, "2.25"},
		{i18n.En, 0.75, "0.75"}, {i18n.En, 7.0 / 3, "2.33"}, {i18n.En, 1.999, "2"}, {i18n.En, 1.1, "1.1"}, {fa, 12.5, "۱۲½"},
	} {
		if got := PointsText(c.l, c.v); got != c.want {
			t.Errorf("PointsText(%s, %v) = %q; want %q", c.l.Code, c.v, got, c.want)
		}
	}
}
