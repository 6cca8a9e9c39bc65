package i18n

import (
	"strings"
	"time"
)

func englishDate(l *Lang, t time.Time, withYear, withTime bool) string {
	s := t.Format("Mon 2 Jan")
	if withYear {
		s += t.Format(" 2006")
	}
	if withTime {
		s += t.Format(", 15:04")
	}
	return s
}

var (
	hantWeekdays = [7]string{"週日", "週一", "週二", "週三", "週四", "週五", "週六"}
	hansWeekdays = [7]string{"周日", "周一", "周二", "周三", "周四", "周五", "周六"}
)

// chineseDate writes 2026年12月2日（週三） 18:40.
func chineseDate(l *Lang, t time.Time, withYear, withTime bool) string {
	var b strings.Builder
	if withYear {
		b.WriteString(l.Num(t.Year()) + "年")
	}
	b.WriteString(l.Num(int(t.Month())) + "月" + l.Num(t.Day()) + "日")
	wd := hansWeekdays
	if l.Code == "zh-Hant" {
		wd = hantWeekdays
	}
	b.WriteString("（" + wd[t.Weekday()] + "）")
	if withTime {
		b.WriteString(" " + t.Format("15:04"))
	}
	return b.String()
}

var (
	persianMonths   = [12]string{"فروردین", "اردیبهشت", "خرداد", "تیر", "مرداد", "شهریور", "مهر", "آبان", "آذر", "دی", "بهمن", "اسفند"}
	persianWeekdays = [7]string{"یکشنبه", "دوشنبه", "سه‌شنبه", "چهارشنبه", "پنجشنبه", "جمعه", "شنبه"}
)

// persianDate writes the day in the Solar Hijri calendar with Persian
// digits: چهارشنبه ۱۲ آذر ۱۴۰۵، ۱۸:۴۰.
func persianDate(l *Lang, t time.Time, withYear, withTime bool) string {
	y, m, d := Jalali(t.Year(), int(t.Month()), t.Day())
	s := persianWeekdays[t.Weekday()] + " " + l.Num(d) + " " + persianMonths[m-1]
	if withYear {
		s += " " + l.Num(y)
	}
	if withTime {
		s += "، " + l.Num(t.Hour()/10) + l.Num(t.Hour()%10) + ":" + l.Num(t.Minute()/10) + l.Num(t.Minute()%10)
	}
	return s
}

// Jalali converts a Gregorian date to the Solar Hijri (Jalali) calendar,
// by the arithmetic of the 33-year cycles (exact for 1800–2200).
func Jalali(gy, gm, gd int) (jy, jm, jd int) {
	gDaysBefore := [12]int{0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334}
	// Leap days counted up to this date: this year's 29 February only
	// once it has passed.
	gy2 := gy
	if gm > 2 {
		gy2 = gy + 1
	}
	days := 355666 + 365*gy + (gy2+3)/4 - (gy2+99)/100 + (gy2+399)/400 + gd + gDaysBefore[gm-1]
	jy = -1595 + 33*(days/12053)
	days %= 12053
	jy += 4 * (days / 1461)
	days %= 1461
	if days > 365 {
		jy += (days - 1) / 365
		days = (days - 1) % 365
	}
	if days < 186 {
		jm = 1 + days/31
		jd = 1 + days%31
	} else {
		jm = 7 + (days-186)/30
		jd = 1 + (days-186)%30
	}
	return jy, jm, jd
}
