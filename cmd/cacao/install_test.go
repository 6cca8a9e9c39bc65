package main

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestBrowserInstallable: Chromium finds nothing that keeps the site from
// being installed as an app ("Add to home screen"): the manifest, its
// icons and the start page are all right.
func TestBrowserInstallable(t *testing.T) {
	t.Parallel()
	base, logs := startSite(t)
	b := newBrowser(t, true, logs)
	a := b.newTab("alice", true)
	a.must(a.navigate(base + "/"))
	var errs []*page.InstallabilityError
	a.must(a.do(10*time.Second, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		res, err := cdp.Call(ctx, tg, page.GetInstallabilityErrors, cdp.Empty{})
		if err == nil {
			errs = res.InstallabilityErrors
		}
		return err
	})))
	for _, e := range errs {
		if e.ErrorID == "in-incognito" {
			continue // the test's browser context, not the site
		}
		b.fatalf("not installable: %s %v", e.ErrorID, e.ErrorArguments)
	}
	var m page.GetAppManifestResult
	a.must(a.do(10*time.Second, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		res, err := cdp.Call(ctx, tg, page.GetAppManifest, page.GetAppManifestParams{})
		m = res
		return err
	})))
	if len(m.Errors) > 0 || m.URL == "" || m.Manifest == nil {
		b.fatalf("the manifest: %+v", m)
	}
}
