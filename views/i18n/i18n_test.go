package i18n

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestMatch(t *testing.T) {
	cases := map[string]*Lang{
		"":                              En,
		"de-DE,de;q=0.9":                De,
		"fa-IR,fa;q=0.9,en;q=0.8":       Fa,
		"zh-TW,zh;q=0.9":                ZhHant,
		"zh-HK":                         ZhHant,
		"zh-Hant-TW":                    ZhHant,
		"zh-CN,zh;q=0.9,en;q=0.5":       ZhHans,
		"zh":                            ZhHans,
		"zh-Hans-SG":                    ZhHans,
		"en;q=0.5,fa;q=0.9":             Fa,
		"de;q=1,fr;q=0.9,zh-TW;q=0.1":   De,
		"fr;q=1,de-AT;q=0.9,zh;q=0.1":   Fr,
		"de-CH":                         De,
		"it;q=1,zh-TW;q=0.1":            ZhHant,
		"fr-FR,fr;q=0.9,en;q=0.8":       Fr,
		"fr-CA":                         Fr,
		"fr-BE;q=0.8,zh-TW":             ZhHant,
		"fa;q=0,en":                     En,
		"EN-us":                         En,
		"zh_TW":                         ZhHant,
		"garbage;;q=x,,fa;q=notanumber": Fa,
		"fa;Q=0,zh-TW":                  ZhHant,
		"fa;level=1;q=0,zh-CN":          ZhHans,
		"es":                            Es,
		"es-ES,es;q=0.9":                Es,
		"es-MX,es;q=0.9,en;q=0.8":       Es,
		"es-419":                        Es,
		"es_AR":                         Es,
		"it-IT,es;q=0.7,en;q=0.5":       Es,
		"en-US,es;q=0.5":                En,
	}
	for header, want := range cases {
		if got := Match(header); got != want {
			t.Errorf("Match(%q) = %s, want %s", header, got.Code, want.Code)
		}
	}
}

func TestFormat(t *testing.T) {
	if got := En.T("%s placed %s at %s", "ana", "1111", "(0, 1)"); got != "ana placed 1111 at (0, 1)" {
		t.Errorf("English: %q", got)
	}
	if got := En.format("%[3]s ← %[1]s %[2]d%%", []any{"a", 12, "c"}); got != "c ← a 12%" {
		t.Errorf("reordered: %q", got)
	}
	// A signed number keeps its sign on the left of its digits (isolated
	// left to right), alone in a cell too.
	if got := Fa.format("%d و %+d و %+d", []any{1405, 3, -2}); got != "۱۴۰۵ و \u2066+۳\u2069 و \u2066−۲\u2069" {
		t.Errorf("Persian digits: %q", got)
	}
	if got := Fa.Signed(-10); got != "\u2066−۱۰\u2069" {
		t.Errorf("Persian signed number alone: %q", got)
	}
	if got := Fa.T("%s: %s", "ana", "x"); got != "\u2068ana\u2069: \u2068x\u2069" {
		t.Errorf("Persian text isolates its arguments: %q", got)
	}
	if got := Fa.T("%s: %s", "bob", Fa.T("%+d gold", 2)); strings.Count(got, "\u2068") != 2 {
		t.Errorf("translated text is isolated again: %q", got)
	}
	if got := En.format("%d %s", []any{1}); got != "1 %!s(MISSING)" {
		t.Errorf("missing argument: %q", got)
	}
	if got := En.N("%d tile", "%d tiles", 1, 1); got != "1 tile" {
		t.Errorf("singular: %q", got)
	}
	if got := En.N("%d tile", "%d tiles", 0, 0); got != "0 tiles" {
		t.Errorf("plural: %q", got)
	}
}

func TestVerbs(t *testing.T) {
	a, b := Verbs("%s placed %s at %d"), Verbs("%[3]d: %[1]s %[2]s")
	if len(a) != 3 || len(b) != 3 || a[0] != b[0] || a[1] != b[1] || a[2] != b[2] {
		t.Errorf("Verbs: %v vs %v", a, b)
	}
	if v := Verbs("%+d gold"); len(v) != 1 || v[0] != "1+d" {
		t.Errorf("signed: %v", v)
	}
}

func TestJalali(t *testing.T) {
	cases := []struct{ g, j [3]int }{
		{[3]int{2026, 3, 21}, [3]int{1405, 1, 1}}, // Nowruz 1405
		{[3]int{2026, 12, 2}, [3]int{1405, 9, 11}},
		{[3]int{2025, 3, 20}, [3]int{1403, 12, 30}}, // last day of the leap year 1403
		{[3]int{2000, 1, 1}, [3]int{1378, 10, 11}},
		{[3]int{2024, 2, 29}, [3]int{1402, 12, 10}},
		{[3]int{2024, 3, 1}, [3]int{1402, 12, 11}}, // after 29 February of a leap year
		{[3]int{2024, 3, 20}, [3]int{1403, 1, 1}},  // Nowruz 1403
		{[3]int{2028, 3, 20}, [3]int{1407, 1, 1}},
		{[3]int{2025, 2, 28}, [3]int{1403, 12, 10}},
	}
	// Day by day, the Jalali date moves one day at a time for 40 years.
	prevY, prevM, prevD := Jalali(2000, 1, 1)
	for day := time.Date(2000, 1, 2, 0, 0, 0, 0, time.UTC); day.Year() < 2040; day = day.AddDate(0, 0, 1) {
		y, m, d := Jalali(day.Year(), int(day.Month()), day.Day())
		next := d == prevD+1 && m == prevM && y == prevY || d == 1 && (m == prevM+1 && y == prevY || m == 1 && prevM == 12 && y == prevY+1)
		if !next || d > 31 || m > 6 && d > 30 {
			t.Fatalf("%s is %d/%d/%d after %d/%d/%d", day.Format("2006-01-02"), y, m, d, prevY, prevM, prevD)
		}
		prevY, prevM, prevD = y, m, d
	}
	for _, c := range cases {
		y, m, d := Jalali(c.g[0], c.g[1], c.g[2])
		if [3]int{y, m, d} != c.j {
			t.Errorf("Jalali(%v) = %d/%d/%d, want %v", c.g, y, m, d, c.j)
		}
	}
}

func TestDates(t *testing.T) {
	at := time.Date(2026, 12, 2, 18, 40, 0, 0, time.UTC)
	cases := map[*Lang]string{
		En:     "Wed 2 Dec 2026, 18:40 UTC",
		Fr:     "mer. 2 déc. 2026, 18:40 UTC",
		ZhHant: "2026年12月2日（週三） 18:40 UTC",
		ZhHans: "2026年12月2日（周三） 18:40 UTC",
		Fa:     "چهارشنبه ۱۱ آذر ۱۴۰۵، ۱۸:۴۰ \u2066UTC\u2069",
		Es:     "mié 2 dic 2026, 18:40 UTC",
	}
	for l, want := range cases {
		if got := l.Date(at, true, true); got != want {
			t.Errorf("%s: %q, want %q", l.Code, got, want)
		}
	}
	// In the reader's time zone, which a time of day names; a day alone
	// is the reader's day.
	tehran, err := time.LoadLocation("Asia/Tehran")
	if err != nil {
		t.Fatal(err)
	}
	la, _ := time.LoadLocation("America/Los_Angeles")
	for _, c := range []struct {
		l        *Lang
		withTime bool
		want     string
	}{
		{En.In(tehran), true, "Wed 2 Dec 2026, 22:10 +0330"},
		{Fa.In(tehran), true, "چهارشنبه ۱۱ آذر ۱۴۰۵، ۲۲:۱۰ \u2066+۰۳۳۰\u2069"},
		{En.In(la), true, "Wed 2 Dec 2026, 10:40 PST"},
		{En.In(tehran), false, "Wed 2 Dec 2026"},
		{En.In(la), false, "Wed 2 Dec 2026"},
	} {
		if got := c.l.Date(at, true, c.withTime); got != c.want {
			t.Errorf("%s in %s: %q, want %q", c.l.Code, c.l.Zone(), got, c.want)
		}
	}
	if got := En.In(la).Date(time.Date(2026, 12, 3, 2, 0, 0, 0, time.UTC), false, false); got != "Wed 2 Dec" {
		t.Errorf("02:00 UTC on the 3rd is %q in Los Angeles, want the 2nd", got)
	}
}

func TestContext(t *testing.T) {
	if From(context.Background()) != En || From(With(context.Background(), Fa)) != Fa {
		t.Error("the language does not travel on the context")
	}
}

func BenchmarkT(b *testing.B) {
	for range b.N {
		_ = En.T("Your hand")
		_ = En.T("%s placed %s at %s", "ana", "1111", "(0, 1)")
		_ = Fa.T("Game %d", 12)
	}
}

// TestSentence: a refusal standing alone starts with a capital, in the
// reader's language; a name at its start is written as it is; a script
// without capitals is left alone.
func TestSentence(t *testing.T) {
	de, _ := Get("de")
	fa, _ := Get("fa")
	for _, tc := range []struct {
		l         *Lang
		msg, want string
		args      []any
	}{
		{En, "that is not your current password", "That is not your current password", nil},
		{de, "that is not your current password", "Das ist nicht dein aktuelles Passwort", nil},
		{En, "%s is not a bot others may seat: invite them instead", "rob is not a bot others may seat: invite them instead", []any{"rob"}},
		{fa, "that is not your current password", fa.T("that is not your current password"), nil},
	} {
		if got := tc.l.Sentence(tc.msg, tc.args...); got != tc.want {
			t.Errorf("%s: Sentence(%q) = %q, want %q", tc.l.Code, tc.msg, got, tc.want)
		}
	}
}
