// Package i18n holds the site's seven languages: their message catalogs,
// how numbers and dates are written in each, and which one a request gets.
//
// Interface text is written in English in the code, always as a literal
// passed to T or N (or to the views' t and tn helpers, or to the models'
// and engine's message constructors); the English text is the key of the
// other languages' catalogs, catalog/<code>.json. TestCatalogsComplete fails
// when a literal has no translation; `go test ./views/i18n -run
// TestCatalogsComplete -update` adds the missing keys (empty) and drops the
// ones no longer used.
package i18n

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"
)

// Lang is one of the site's languages.
type Lang struct {
	Code string // BCP 47, as in <html lang>
	Name string // in the language itself
	Dir  string // "ltr" or "rtl"
	// Plurals: its words change with a count, so each message about a
	// count gives a form for every plural category (catalog_test.go).
	Plurals bool
	digits  [10]rune
	cat     map[string]entry // English text -> this language; nil for English
	tag     language.Tag     // for CLDR's plural rules
	date    func(l *Lang, t time.Time, withYear, withTime bool) string
	loc     *time.Location // the reader's time zone; nil is UTC
}

//go:embed catalog/*.json
var catalogs embed.FS

var (
	// En is English, the language of the code and the fallback.
	En     = &Lang{Code: "en", Name: "English", Dir: "ltr", digits: latinDigits, date: englishDate}
	De     = &Lang{Code: "de", Name: "Deutsch", Dir: "ltr", Plurals: true, digits: latinDigits, date: germanDate}
	Es     = &Lang{Code: "es", Name: "Español", Dir: "ltr", Plurals: true, digits: latinDigits, date: spanishDate}
	Fr     = &Lang{Code: "fr", Name: "Français", Dir: "ltr", Plurals: true, digits: latinDigits, date: frenchDate}
	ZhHant = &Lang{Code: "zh-Hant", Name: "繁體中文", Dir: "ltr", digits: latinDigits, date: chineseDate}
	ZhHans = &Lang{Code: "zh-Hans", Name: "简体中文", Dir: "ltr", digits: latinDigits, date: chineseDate}
	Fa     = &Lang{Code: "fa", Name: "فارسی", Dir: "rtl", digits: [10]rune{'۰', '۱', '۲', '۳', '۴', '۵', '۶', '۷', '۸', '۹'}, date: persianDate}

	// All lists the languages in the order a chooser shows them.
	All = []*Lang{En, De, Es, Fr, ZhHant, ZhHans, Fa}
)

var latinDigits = [10]rune{'0', '1', '2', '3', '4', '5', '6', '7', '8', '9'}

func init() {
	for _, l := range All[1:] {
		data, err := catalogs.ReadFile("catalog/" + l.Code + ".json")
		if err != nil {
			panic("i18n: no catalog for " + l.Code)
		}
		if err := json.Unmarshal(data, &l.cat); err != nil {
			panic("i18n: catalog " + l.Code + ": " + err.Error())
		}
	}
	for _, l := range All {
		l.tag = l.Tag()
	}
}

// Get returns the language with this code (as Code spells it, any case).
func Get(code string) (*Lang, bool) {
	for _, l := range All {
		if strings.EqualFold(l.Code, code) {
			return l, true
		}
	}
	return nil, false
}

// Match picks the language for an Accept-Language header: the first of the
// listed languages (by quality) that the site has; English otherwise.
// Chinese is told apart by script, or by region where no script is given
// (Taiwan, Hong Kong and Macau write traditional characters).
func Match(header string) *Lang {
	type pref struct {
		tag string
		q   float64
		i   int
	}
	var prefs []pref
	for i, part := range strings.Split(header, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.EqualFold(k, "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		if tag != "" && q > 0 {
			prefs = append(prefs, pref{strings.ToLower(tag), q, i})
		}
	}
	sort.SliceStable(prefs, func(a, b int) bool { return prefs[a].q > prefs[b].q })
	for _, p := range prefs {
		if l := matchTag(p.tag); l != nil {
			return l
		}
	}
	return En
}

func matchTag(tag string) *Lang {
	parts := strings.Split(strings.ReplaceAll(tag, "_", "-"), "-")
	switch parts[0] {
	case "en":
		return En
	case "de", "deu", "ger":
		return De
	case "fr", "fra", "fre":
		return Fr
	case "es", "spa":
		return Es
	case "fa", "per", "fas":
		return Fa
	case "zh", "cmn", "yue":
		for _, p := range parts[1:] {
			switch p {
			case "hant", "tw", "hk", "mo":
				return ZhHant
			case "hans", "cn", "sg", "my":
				return ZhHans
			}
		}
		if parts[0] == "yue" {
			return ZhHant
		}
		return ZhHans
	}
	return nil
}

type ctxKey struct{}

// With returns a context carrying the language l.
func With(ctx context.Context, l *Lang) context.Context {
	return context.WithValue(ctx, ctxKey{}, l)
}

// From returns the language of a context; English when it has none.
func From(ctx context.Context) *Lang {
	if ctx != nil {
		if l, ok := ctx.Value(ctxKey{}).(*Lang); ok {
			return l
		}
	}
	return En
}

// T translates msg and fills in its arguments. msg is a format with the
// verbs %s, %v, %d and %+d (a signed number), optionally with an explicit
// argument index such as %[2]s so that a translation can reorder them;
// %% is a percent sign. Numbers are written with the language's digits.
// A message missing from the catalog is shown in English.
func (l *Lang) T(msg string, args ...any) string {
	return l.format(l.lookup(msg), args)
}

// Sentence is T for a message that stands alone, such as a refusal: the
// first letter of the translation's own words is a capital (an argument at
// its start, such as a name, is left as it is written).
func (l *Lang) Sentence(msg string, args ...any) string {
	f := l.lookup(msg)
	if r, n := utf8.DecodeRuneInString(f); unicode.IsLower(r) {
		f = string(unicode.ToUpper(r)) + f[n:]
	}
	return l.format(f, args)
}

// N is T for a message about a count n: one is the English text for n == 1,
// other the text for every other n and the catalog key, whose entry gives
// the language's form for n (see entry). The count is not an argument by
// itself: pass it in args too where the text shows it.
func (l *Lang) N(one, other string, n int, args ...any) string {
	if l.cat == nil {
		if n == 1 {
			return l.format(one, args)
		}
		return l.format(other, args)
	}
	if e, ok := l.cat[other]; ok {
		if s := e.form(l.tag, n); s != "" {
			return l.format(s, args)
		}
	}
	return l.format(l.lookup(other), args)
}

// lookup finds msg's translation. A message may carry a note for
// translators after "||" (when one English text means two things, such as
// "Water||jungle tile" and "Water||score column"); English drops the note.
func (l *Lang) lookup(msg string) string {
	if l.cat != nil {
		if e := l.cat[msg]; e.text != "" {
			return e.text
		}
		if e := l.cat[msg]; e.forms != nil {
			return e.forms["other"]
		}
	}
	if i := strings.Index(msg, "||"); i >= 0 {
		return msg[:i]
	}
	return msg
}

// Has reports whether the catalog translates msg (always true for English).
func (l *Lang) Has(msg string) bool {
	return l.cat == nil || l.cat[msg].text != "" || l.cat[msg].forms != nil
}

// Num writes an integer with the language's digits.
func (l *Lang) Num(n int) string { return l.localDigits(strconv.Itoa(n)) }

// localDigits writes s's digits in the language's.
func (l *Lang) localDigits(s string) string {
	if l.digits == latinDigits {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(l.digits[r-'0'])
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Signed writes an integer with its sign: +2, −1, 0.
func (l *Lang) Signed(n int) string {
	var s string
	switch {
	case n > 0:
		s = "+" + l.Num(n)
	case n < 0:
		s = "−" + l.Num(-n)
	default:
		return l.Num(0)
	}
	if l.Dir == "rtl" {
		// The sign stays before the digits, on their left, wherever the
		// number stands (alone in a cell, it would go to their right).
		return "\u2066" + s + "\u2069"
	}
	return s
}

// Date writes a day, such as "Wed 2 Dec" (with the year when withYear),
// and the time of day when withTime, in the reader's time zone; a time
// of day says which zone it is in ("18:40 CET").
func (l *Lang) Date(t time.Time, withYear, withTime bool) string {
	t = t.In(l.Zone())
	s := l.date(l, t, withYear, withTime)
	if withTime {
		zone := l.localDigits(t.Format("MST")) // "CET", or an offset such as "+0330"
		if l.Dir == "rtl" {
			zone = "\u2066" + zone + "\u2069" // its sign stays before its digits
		}
		s += " " + zone
	}
	return s
}

// In returns the language for a reader in time zone loc.
func (l *Lang) In(loc *time.Location) *Lang {
	c := *l
	c.loc = loc
	return &c
}

// Zone is the reader's time zone (UTC unless In said another).
func (l *Lang) Zone() *time.Location {
	if l.loc == nil {
		return time.UTC
	}
	return l.loc
}

func (l *Lang) format(f string, args []any) string {
	if strings.IndexByte(f, '%') < 0 {
		return f // most interface text has no arguments
	}
	var b strings.Builder
	b.Grow(len(f) + 32)
	next := 0
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(f) {
			b.WriteByte('%')
			break
		}
		if f[i] == '%' {
			b.WriteByte('%')
			continue
		}
		plus := false
		if f[i] == '+' {
			plus = true
			i++
		}
		idx := next
		if i < len(f) && f[i] == '[' {
			end := strings.IndexByte(f[i:], ']')
			if end < 0 {
				b.WriteString("%!(BADINDEX)")
				break
			}
			n, err := strconv.Atoi(f[i+1 : i+end])
			if err != nil || n < 1 {
				b.WriteString("%!(BADINDEX)")
				break
			}
			idx = n - 1
			i += end + 1
		}
		if i >= len(f) {
			b.WriteString("%!(NOVERB)")
			break
		}
		verb := f[i]
		next = idx + 1
		if idx >= len(args) {
			b.WriteString("%!" + string(verb) + "(MISSING)")
			continue
		}
		b.WriteString(l.arg(args[idx], verb, plus))
	}
	return b.String()
}

func (l *Lang) arg(a any, verb byte, plus bool) string {
	if n, ok := asInt(a); ok && (verb == 'd' || verb == 'v') {
		if plus {
			return l.Signed(n)
		}
		return l.Num(n)
	}
	var s string
	switch v := a.(type) {
	case string:
		s = v
	case fmt.Stringer:
		s = v.String()
	default:
		s = fmt.Sprint(a)
	}
	if l.Dir == "rtl" && s != "" && !strings.ContainsRune(s, '\u2068') {
		// A name or a cell in Latin script inside right-to-left text keeps
		// its own direction (first-strong isolate ... pop isolate). Text
		// already translated (it isolates its own arguments) is not wrapped
		// again: the outer isolate would find no strong letter outside the
		// inner ones and lay it out left to right.
		return "\u2068" + s + "\u2069"
	}
	return s
}

func asInt(a any) (int, bool) {
	switch n := a.(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case int32:
		return int(n), true
	case uint:
		return int(n), true
	case uint64:
		return int(n), true
	case uint32:
		return int(n), true
	}
	return 0, false
}

// Verbs lists the argument references of a format, such as ["1d", "2s"]
// for "%d at %s" ("1+d" for a signed number), sorted: a translation must
// use the same ones.
func Verbs(f string) []string {
	var out []string
	next := 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		if i >= len(f) {
			break
		}
		if f[i] == '%' {
			continue
		}
		sign := ""
		if f[i] == '+' {
			sign = "+"
			i++
		}
		idx := next
		if i < len(f) && f[i] == '[' {
			end := strings.IndexByte(f[i:], ']')
			if end < 0 {
				break
			}
			n, _ := strconv.Atoi(f[i+1 : i+end])
			idx = n - 1
			i += end + 1
		}
		if i >= len(f) {
			break
		}
		v := f[i]
		if v == 'v' {
			v = 's'
		}
		out = append(out, strconv.Itoa(idx+1)+sign+string(v))
		next = idx + 1
	}
	sort.Strings(out)
	return out
}
