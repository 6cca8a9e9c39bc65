package main

import (
	"context"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// TestBrowserCopyInviteLink: the creator of a table sees Copy link beside
// the invite link, in view; a tap puts the link on the clipboard and the
// button says so. Without JavaScript the button is not shown (it could
// not work), and the link is there to select.
func TestBrowserCopyInviteLink(t *testing.T) {
	t.Parallel()
	base, logs := startSite(t)
	for _, js := range []bool{true, false} {
		b := newBrowser(t, js, logs)
		a := b.newTab("alice", js)
		name := "alice"
		if !js {
			name = "alicenojs"
		}
		a.signUp(base, name)
		a.createGame(base, "open")
		link := a.text("#invite-link")
		if !strings.Contains(link, "/join/") {
			b.fatalf("no invite link on the table's page: %q", a.text("#game-main"))
		}
		inView, err := eval[bool](a, `(() => { const e = document.getElementById('copy-invite'); if (!e || e.hidden) return false; const r = e.getBoundingClientRect(); return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === e; })()`)
		a.must(err)
		if inView != js {
			b.fatalf("with JavaScript %v, Copy link shown in view and taking the tap: %v", js, inView)
		}
		if !js {
			continue
		}
		a.must(a.do(5*time.Second, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			for _, p := range []string{"clipboard-read", "clipboard-write"} {
				_, err := chromedp.CallBrowser(ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{Permission: &cdpbrowser.PermissionDescriptor{Name: p},
					Setting: cdpbrowser.PermissionSettingGranted, Origin: base, BrowserContextID: chromedp.FromContext(a.ctx).BrowserContextID})
				if err != nil {
					return err
				}
			}
			return nil
		})))
		a.must(a.do(10*time.Second, chromedp.Click(chromedp.CSS("#copy-invite")))) // a tap: the page does not change
		a.must(a.waitFor(`document.getElementById('copy-invite').textContent === 'Copied' && document.getElementById('invite-status').textContent === 'Copied'`, 5*time.Second, "the button to say Copied"))
		ctx, cancel := context.WithTimeout(a.ctx, 5*time.Second)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
		cancel()
		a.must(err)
		if got != link {
			b.fatalf("the clipboard holds %q; want the invite link %q", got, link)
		}
	}
}
