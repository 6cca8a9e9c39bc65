package i18n

import (
	"strconv"
	"time"
)

var (
	frenchWeekdays = [7]string{"dim.", "lun.", "mar.", "mer.", "jeu.", "ven.", "sam."}
	frenchMonths   = [12]string{"janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."}
)

// frenchDate writes "mer. 2 déc.", "mer. 2 déc. 2026", "mer. 2 déc., 18:40";
// the first of the month is "1er".
func frenchDate(l *Lang, t time.Time, withYear, withTime bool) string {
	day := strconv.Itoa(t.Day())
	if t.Day() == 1 {
		day = "1er"
	}
	s := frenchWeekdays[t.Weekday()] + " " + day + " " + frenchMonths[t.Month()-1]
	if withYear {
		s += " " + strconv.Itoa(t.Year())
	}
	if withTime {
		s += t.Format(", 15:04")
	}
	return s
}
