package i18n

import "time"

// weekdayDayMonth writes a date as German, Spanish and French do: the
// weekday, the day (day writes it), the month; the year after it, the time
// after a comma: "mié 2 dic 2026, 18:40". Names are the language's short
// ones, Sunday first.
func weekdayDayMonth(weekdays [7]string, months [12]string, day func(l *Lang, d int) string) func(*Lang, time.Time, bool, bool) string {
	return func(l *Lang, t time.Time, withYear, withTime bool) string {
		s := weekdays[t.Weekday()] + " " + day(l, t.Day()) + " " + months[t.Month()-1]
		if withYear {
			s += " " + l.Num(t.Year())
		}
		if withTime {
			s += t.Format(", 15:04")
		}
		return s
	}
}

func plainDay(l *Lang, d int) string { return l.Num(d) }

var (
	// German: "Mi. 2. Dez."; short months keep a period only where
	// letters were dropped.
	germanDate = weekdayDayMonth(
		[7]string{"So.", "Mo.", "Di.", "Mi.", "Do.", "Fr.", "Sa."},
		[12]string{"Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."},
		func(l *Lang, d int) string { return l.Num(d) + "." })
	spanishDate = weekdayDayMonth(
		[7]string{"dom", "lun", "mar", "mié", "jue", "vie", "sáb"},
		[12]string{"ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic"},
		plainDay)
	// French: "mer. 2 déc."; the first of the month is "1er".
	frenchDate = weekdayDayMonth(
		[7]string{"dim.", "lun.", "mar.", "mer.", "jeu.", "ven.", "sam."},
		[12]string{"janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."},
		func(l *Lang, d int) string {
			if d == 1 {
				return "1er"
			}
			return l.Num(d)
		})
)
