package i18n

import "time"

var (
	spanishWeekdays = [7]string{"dom", "lun", "mar", "mié", "jue", "vie", "sáb"}
	spanishMonths   = [12]string{"ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic"}
)

// spanishDate writes "mié 2 dic", "mié 2 dic 2026", "mié 2 dic, 18:40".
func spanishDate(l *Lang, t time.Time, withYear, withTime bool) string {
	s := spanishWeekdays[t.Weekday()] + " " + l.Num(t.Day()) + " " + spanishMonths[t.Month()-1]
	if withYear {
		s += " " + l.Num(t.Year())
	}
	if withTime {
		s += t.Format(", 15:04")
	}
	return s
}
