package i18n

import (
	"encoding/json"
	"fmt"
	"sort"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// A catalog's entry is the translation of one English text: a string, or
// for a message about a count (N) where the language's words change with
// the number, an object giving the text for each of the language's
// plural categories, as Unicode's CLDR names them ("one", "other", …):
//
//	"%d days": {"one": "%d Tag", "other": "%d Tage"}
//
// The category of a count is CLDR's rule for the language
// (golang.org/x/text/feature/plural); a language whose words do not change
// (Chinese; Persian, whose noun stays singular after a number) gives a
// string.
type entry struct {
	text  string
	forms map[string]string // by CLDR category; nil for a plain text
}

func (e *entry) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &e.text); err == nil {
		return nil
	}
	e.forms = map[string]string{}
	if err := json.Unmarshal(b, &e.forms); err != nil {
		return fmt.Errorf("an entry is a string or an object of plural forms: %s", b)
	}
	for cat := range e.forms {
		if _, ok := categories[cat]; !ok {
			return fmt.Errorf("%q is not a CLDR plural category", cat)
		}
	}
	return nil
}

// categories are CLDR's plural categories, by name.
var categories = map[string]plural.Form{"zero": plural.Zero, "one": plural.One, "two": plural.Two, "few": plural.Few, "many": plural.Many, "other": plural.Other}

// Category is the CLDR plural category of the count n in language tag.
func Category(tag language.Tag, n int) string {
	f := plural.Cardinal.MatchPlural(tag, n, 0, 0, 0, 0)
	for name, c := range categories {
		if c == f {
			return name
		}
	}
	return "other"
}

// Categories lists the plural categories the counts (whole numbers) of
// language tag fall in, sorted: what a plural entry of its catalog gives.
func Categories(tag language.Tag) []string {
	set := map[string]bool{}
	for n := 0; n <= 1000; n++ {
		set[Category(tag, n)] = true
	}
	for _, n := range []int{1e4, 1e5, 1e6, 2e6, 1e7, 1e9} {
		set[Category(tag, n)] = true
	}
	out := make([]string, 0, len(set))
	for c := range set {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// form is e's text for the count n in language tag.
func (e entry) form(tag language.Tag, n int) string {
	if e.forms == nil {
		return e.text
	}
	if s := e.forms[Category(tag, n)]; s != "" {
		return s
	}
	return e.forms["other"]
}

// Entry is a catalog's entry as the tests read it: its text, or its forms
// by plural category.
type Entry struct {
	Text  string
	Forms map[string]string
}

// ReadCatalog parses a catalog file (catalog/<code>.json).
func ReadCatalog(data []byte) (map[string]Entry, error) {
	var cat map[string]entry
	if err := json.Unmarshal(data, &cat); err != nil {
		return nil, err
	}
	out := make(map[string]Entry, len(cat))
	for k, e := range cat {
		out[k] = Entry{Text: e.text, Forms: e.forms}
	}
	return out, nil
}

// Tag is the language's BCP 47 tag, for CLDR's rules.
func (l *Lang) Tag() language.Tag { return language.MustParse(l.Code) }
