package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestBrowserSignupGuessesTimeZone: a player signing up in a browser set to
// Tehran's time gets Tehran as their time zone, and the site tells the
// time there.
func TestBrowserSignupGuessesTimeZone(t *testing.T) {
	t.Parallel()
	base, logs := startSite(t)
	b := newBrowser(t, true, logs)
	a := b.newTab("alice", true)
	a.must(a.do(5*time.Second, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "Asia/Tehran"})
		return err
	})))
	a.signUp(base, "alice")
	a.must(a.navigate(base + "/settings"))
	zone, err := eval[string](a, `document.getElementById('tz').value`)
	a.must(err)
	if zone != "Asia/Tehran" || !strings.Contains(a.text("main"), "+0330.") {
		b.fatalf("after signing up from Tehran the time zone is %q: %q", zone, a.text("#zone-h"))
	}
}
