package i18n

import (
	"strconv"
	"time"
)

var (
	germanWeekdays = [7]string{"So.", "Mo.", "Di.", "Mi.", "Do.", "Fr.", "Sa."}
	// Short months keep a period only where letters were dropped.
	germanMonths = [12]string{"Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."}
)

// germanDate writes Mi. 2. Dez. 2026, 18:40.
func germanDate(l *Lang, t time.Time, withYear, withTime bool) string {
	s := germanWeekdays[t.Weekday()] + " " + strconv.Itoa(t.Day()) + ". " + germanMonths[t.Month()-1]
	if withYear {
		s += " " + strconv.Itoa(t.Year())
	}
	if withTime {
		s += t.Format(", 15:04")
	}
	return s
}
