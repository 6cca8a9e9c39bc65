package views

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"cacao/views/i18n"
)

// TestPagerSaysMoreThan: a list that counts only so far says there are
// more than it counted, in the reader's language; one counted whole says
// how many.
func TestPagerSaysMoreThan(t *testing.T) {
	zhHans, _ := i18n.Get("zh-Hans")
	for _, c := range []struct {
		p    Pager
		lang *i18n.Lang
		want string
	}{
		{Pager{Base: "/games", Offset: 20, Size: 20, Total: 1040, More: true}, i18n.En, "21–40 of more than 1040"},
		{Pager{Base: "/games", Offset: 20, Size: 20, Total: 1030}, i18n.En, "21–40 of 1030"},
		{Pager{Base: "/games", Offset: 20, Size: 20, Total: 1040, More: true}, zhHans, "共超过"},
	} {
		var b bytes.Buffer
		if err := pager(c.p).Render(i18n.With(context.Background(), c.lang), &b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), c.want) {
			t.Errorf("%+v: %s; want %q", c.p, b.String(), c.want)
		}
	}
}
