package i18n

import (
	"testing"
	"time"
)

func TestFrenchDate(t *testing.T) {
	d := time.Date(2026, time.December, 2, 18, 40, 0, 0, time.UTC)
	for _, c := range []struct {
		t                  time.Time
		withYear, withTime bool
		want               string
	}{
		{d, false, false, "mer. 2 déc."},
		{d, true, false, "mer. 2 déc. 2026"},
		{d, false, true, "mer. 2 déc., 18:40 UTC"},
		{d, true, true, "mer. 2 déc. 2026, 18:40 UTC"},
		{time.Date(2026, time.February, 1, 9, 5, 0, 0, time.UTC), false, false, "dim. 1er févr."},
		{time.Date(2026, time.August, 15, 0, 0, 0, 0, time.UTC), false, false, "sam. 15 août"},
	} {
		if got := Fr.Date(c.t, c.withYear, c.withTime); got != c.want {
			t.Errorf("Fr.Date(%v, %v, %v) = %q, want %q", c.t, c.withYear, c.withTime, got, c.want)
		}
	}
}
