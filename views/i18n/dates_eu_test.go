package i18n

import (
	"testing"
	"time"
)

// TestEuropeanDates: German, Spanish and French write a day with their
// own weekday and month names, the year and the time as asked, in the
// reader's time zone.
func TestEuropeanDates(t *testing.T) {
	at := time.Date(2026, 12, 2, 18, 40, 0, 0, time.UTC)
	for _, c := range []struct {
		l                  *Lang
		at                 time.Time
		withYear, withTime bool
		want               string
	}{
		{De, at, false, false, "Mi. 2. Dez."},
		{De, at, true, false, "Mi. 2. Dez. 2026"},
		{De, at, false, true, "Mi. 2. Dez., 18:40 UTC"},
		{De, at, true, true, "Mi. 2. Dez. 2026, 18:40 UTC"},
		{De, time.Date(2027, 3, 7, 9, 5, 0, 0, time.UTC), false, true, "So. 7. März, 09:05 UTC"},
		{De, time.Date(2026, 9, 19, 0, 0, 0, 0, time.UTC), true, false, "Sa. 19. Sept. 2026"},
		{Es, at, false, false, "mié 2 dic"},
		{Es, at, true, false, "mié 2 dic 2026"},
		{Es, at, false, true, "mié 2 dic, 18:40 UTC"},
		{Es, at, true, true, "mié 2 dic 2026, 18:40 UTC"},
		{Es, time.Date(2027, 1, 3, 9, 5, 0, 0, time.UTC), false, true, "dom 3 ene, 09:05 UTC"},
		{Es, time.Date(2026, 9, 5, 0, 0, 0, 0, time.UTC), false, false, "sáb 5 sept"},
		{Fr, at, false, false, "mer. 2 déc."},
		{Fr, at, true, false, "mer. 2 déc. 2026"},
		{Fr, at, false, true, "mer. 2 déc., 18:40 UTC"},
		{Fr, at, true, true, "mer. 2 déc. 2026, 18:40 UTC"},
		{Fr, time.Date(2026, 2, 1, 9, 5, 0, 0, time.UTC), false, false, "dim. 1er févr."},
		{Fr, time.Date(2026, 8, 15, 0, 0, 0, 0, time.UTC), false, false, "sam. 15 août"},
	} {
		if got := c.l.Date(c.at, c.withYear, c.withTime); got != c.want {
			t.Errorf("%s, %s (year %v, time %v): %q, want %q", c.l.Code, c.at, c.withYear, c.withTime, got, c.want)
		}
	}
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	if got := De.In(berlin).Date(at, false, true); got != "Mi. 2. Dez., 19:40 CET" {
		t.Errorf("in Berlin: %q", got)
	}
}
