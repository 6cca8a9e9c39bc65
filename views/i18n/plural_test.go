package i18n

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestPluralForms: a message about a count takes the form CLDR's rule of
// the language gives the count (French counts 0 as one, German does not);
// a plain text serves every count; English needs no catalog.
func TestPluralForms(t *testing.T) {
	lang := func(code, catalog string) *Lang {
		l := &Lang{Code: code, digits: latinDigits}
		if err := json.Unmarshal([]byte(catalog), &l.cat); err != nil {
			t.Fatal(err)
		}
		l.tag = l.Tag()
		return l
	}
	de := lang("de", `{"%d days": {"one": "%d Tag", "other": "%d Tage"}, "%d points": "%d Punkte"}`)
	fr := lang("fr", `{"%d days": {"one": "%d jour", "other": "%d jours"}}`)
	for _, c := range []struct {
		l    *Lang
		n    int
		want string
	}{
		{de, 0, "0 Tage"}, {de, 1, "1 Tag"}, {de, 2, "2 Tage"}, {de, 21, "21 Tage"},
		{fr, 0, "0 jour"}, {fr, 1, "1 jour"}, {fr, 2, "2 jours"},
		{En, 1, "1 day"}, {En, 0, "0 days"},
	} {
		if got := c.l.N("%d day", "%d days", c.n, c.n); got != c.want {
			t.Errorf("%s, %d: %q, want %q", c.l.Code, c.n, got, c.want)
		}
	}
	if got := de.N("%d point", "%d points", 1, 1); got != "1 Punkte" {
		t.Errorf("a plain text for every count: %q", got)
	}
	if got := de.T("%d days", 3); got != "3 Tage" {
		t.Errorf("T of a plural entry takes its other form: %q", got)
	}
	for code, want := range map[string][]string{"en": {"one", "other"}, "de": {"one", "other"}, "fr": {"one", "other"}, "es": {"one", "other"}, "zh-Hans": {"other"}} {
		if got := Categories((&Lang{Code: code}).Tag()); !slices.Equal(got, want) {
			t.Errorf("%s's counts fall in %v, want %v", code, got, want)
		}
	}
	if _, err := ReadCatalog([]byte(`{"%d days": {"single": "%d Tag"}}`)); err == nil {
		t.Error("a form named after no CLDR category was read")
	}
}
