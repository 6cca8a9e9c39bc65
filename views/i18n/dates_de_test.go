package i18n

import (
	"testing"
	"time"
)

func TestGermanDate(t *testing.T) {
	at := time.Date(2026, 12, 2, 18, 40, 0, 0, time.UTC)
	for _, c := range []struct {
		at                 time.Time
		withYear, withTime bool
		want               string
	}{
		{at, false, false, "Mi. 2. Dez."},
		{at, true, false, "Mi. 2. Dez. 2026"},
		{at, false, true, "Mi. 2. Dez., 18:40 UTC"},
		{at, true, true, "Mi. 2. Dez. 2026, 18:40 UTC"},
		{time.Date(2027, 3, 7, 9, 5, 0, 0, time.UTC), false, true, "So. 7. März, 09:05 UTC"},
		{time.Date(2026, 9, 19, 0, 0, 0, 0, time.UTC), true, false, "Sa. 19. Sept. 2026"},
	} {
		if got := De.Date(c.at, c.withYear, c.withTime); got != c.want {
			t.Errorf("%s: %q, want %q", c.at, got, c.want)
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
