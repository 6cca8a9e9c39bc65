package i18n

import (
	"testing"
	"time"
)

func TestSpanishDate(t *testing.T) {
	at := time.Date(2026, 12, 2, 18, 40, 0, 0, time.UTC)
	for _, c := range []struct {
		withYear, withTime bool
		want               string
	}{
		{false, false, "mié 2 dic"},
		{true, false, "mié 2 dic 2026"},
		{false, true, "mié 2 dic, 18:40 UTC"},
		{true, true, "mié 2 dic 2026, 18:40 UTC"},
	} {
		if got := Es.Date(at, c.withYear, c.withTime); got != c.want {
			t.Errorf("Es.Date(%v, %v) = %q, want %q", c.withYear, c.withTime, got, c.want)
		}
	}
	if got := Es.Date(time.Date(2027, 1, 3, 9, 5, 0, 0, time.UTC), false, true); got != "dom 3 ene, 09:05 UTC" {
		t.Errorf("a Sunday in January: %q", got)
	}
	if got := Es.Date(time.Date(2026, 9, 5, 0, 0, 0, 0, time.UTC), false, false); got != "sáb 5 sept" {
		t.Errorf("a Saturday in September: %q", got)
	}
}
