package main

// Real-browser tests: the site runs as `cacao serve` does (serve() on a
// loopback port with a fresh SQLite file) and headless Chromium plays it by
// clicking, with JavaScript (htmx swaps, SSE updates) and without (plain links
// and form posts). One test plays a whole game so from the sign-up on
// (TestBrowserTwoPlayersFullGame); the others start where they are about,
// from positions seeded through the store (seed_test.go), and run side by
// side. Whole games beside that one are in browser_long_test.go. Without a
// browser the tests skip, except in CI (CI=true), where a skipped browser
// test would hide a broken site.

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"
)

// chromePath finds Chromium or Chrome: $CHROME_PATH first, then the usual
// names on $PATH. Without one the test skips, or fails when CI=true.
func chromePath(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("CHROME_PATH"); p != "" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
		t.Logf("CHROME_PATH=%s does not exist", p)
	}
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if ci := os.Getenv("CI"); ci == "true" || ci == "1" {
		t.Fatal("no Chromium found (tried $CHROME_PATH, /usr/bin/chromium, chromium-browser, google-chrome): CI must run the browser tests (.ci/run installs chromium)")
	}
	t.Skip("no Chromium found (set CHROME_PATH to run the browser tests)")
	return ""
}

// startSite runs the real server on a loopback port with a fresh database
// and returns its base URL; it stops when the test ends.
func startSite(t *testing.T) (base string, logs *syncBuffer) {
	t.Helper()
	return startSiteOn(t, filepath.Join(t.TempDir(), "site.db"))
}

// startSiteOn is startSite on the database file db.
func startSiteOn(t *testing.T, db string) (base string, logs *syncBuffer) {
	t.Helper()
	return startSiteWith(t, Config{DB: db})
}

// startSiteWith is startSite with the configuration cfg: its address is
// a free one of the loopback's; with no database, a new file; with no
// WorkEvery, the worker runs every hour.
func startSiteWith(t *testing.T, cfg Config) (base string, logs *syncBuffer) {
	t.Helper()
	if cfg.DB == "" {
		cfg.DB = filepath.Join(t.TempDir(), "site.db")
	}
	if cfg.WorkEvery == 0 {
		cfg.WorkEvery = time.Hour
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	logs = &syncBuffer{}
	cfg.Addr = "127.0.0.1:0"
	go func() { done <- serve(ctx, cfg, logs, ready) }()
	select {
	case addr := <-ready:
		base = "http://" + addr
	case err := <-done:
		cancel()
		t.Fatalf("the server did not start: %v", err)
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatal("the server did not start within 30s")
	}
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("server shutdown: %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Error("the server did not stop within 20s")
		}
	})
	return base, logs
}

// browser is a test's use of a headless Chromium: the tabs it opened.
type browser struct {
	t    *testing.T
	kind chromeKind
	ctx  context.Context
	logs *syncBuffer
	tabs []*tab
}

// browserOption changes how a test's Chromium runs.
type browserOption int

// withoutBFCache turns Chrome's back/forward cache off. See
// TestBrowserManyPageVisits.
const withoutBFCache browserOption = 1

// chromeKind is how a Chromium process runs: scripts on or off, the
// back/forward cache on (Chrome's default) or off.
type chromeKind struct{ js, bfCache bool }

// chromes are the Chromium processes of this test binary, one of each kind
// that a test asked for, and the tabs the tests that ended handed back.
// Starting Chromium takes a second or two, and opening a tab (a browser
// context and a renderer process) some 2 s of CPU, which on a 2-core machine
// is what the browser tests would wait for most. Each tab has a browser
// context of its own, and is emptied before another test takes it (newTab),
// so tests share no cookies, storage, cache or history. closeChromes ends
// the processes.
var chromes struct {
	sync.Mutex
	running map[chromeKind]context.Context
	idle    map[chromeKind][]idleTab
	stop    []func()
}

// idleTab is a tab no test uses: its context and what closes it.
type idleTab struct {
	ctx   context.Context
	close context.CancelFunc
}

// newBrowser gives the test a Chromium with JavaScript on or off, started
// for it or shared with other tests of the same kind.
func newBrowser(t *testing.T, js bool, logs *syncBuffer, opts ...browserOption) *browser {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests are skipped with -short")
	}
	kind := chromeKind{js: js, bfCache: !slices.Contains(opts, withoutBFCache)}
	return &browser{t: t, kind: kind, ctx: chrome(t, kind), logs: logs}
}

// chrome returns the running Chromium of that kind, starting it if there is
// none (or it died).
func chrome(t *testing.T, kind chromeKind) context.Context {
	t.Helper()
	path := chromePath(t)
	chromes.Lock()
	defer chromes.Unlock()
	if ctx := chromes.running[kind]; ctx != nil && ctx.Err() == nil {
		return ctx
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // CI runs as root
		chromedp.WindowSize(1280, 800),
		chromedp.Flag("lang", "en-US"),
	)
	if !kind.js {
		opts = append(opts, chromedp.Flag("blink-settings", "scriptEnabled=false"))
	}
	if !kind.bfCache { // and the features the default options turn off
		opts = append(opts, chromedp.Flag("disable-features", "Translate,BlinkGenPropertyTrees,BackForwardCache"))
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	stop := func() { cancelBrowser(); cancelAlloc() }
	// The first Do starts the browser, which then lives as long as bctx.
	if err := chromedp.Do(bctx); err != nil {
		stop()
		t.Fatalf("starting Chromium: %v", err)
	}
	if chromes.running == nil {
		chromes.running = map[chromeKind]context.Context{}
	}
	chromes.running[kind] = bctx
	delete(chromes.idle, kind) // the tabs of a Chromium that died
	chromes.stop = append(chromes.stop, stop)
	return bctx
}

// closeChromes ends every Chromium started.
func closeChromes() {
	chromes.Lock()
	defer chromes.Unlock()
	for _, stop := range chromes.stop {
		stop()
	}
	chromes.running, chromes.idle, chromes.stop = nil, nil, nil
}

// takeTab returns a tab handed back by a test that ended, or nil.
func takeTab(b *browser) *idleTab {
	chromes.Lock()
	defer chromes.Unlock()
	idle := chromes.idle[b.kind]
	if len(idle) == 0 || b.ctx.Err() != nil {
		return nil
	}
	it := idle[len(idle)-1]
	chromes.idle[b.kind] = idle[:len(idle)-1]
	return &it
}

// handBack empties a tab (a blank page, no history, no cookies, storage or
// cache) and keeps it for the next test; a tab of a failed test, or one
// that does not empty, is closed.
func handBack(b *browser, it idleTab) {
	if b.t.Failed() {
		it.close()
		return
	}
	ctx, cancel := context.WithTimeout(it.ctx, 5*time.Second)
	defer cancel()
	origin, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.origin`))
	if err == nil {
		err = chromedp.Do(ctx, chromedp.Navigate("about:blank"), chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			if strings.HasPrefix(origin, "http") {
				if _, err := cdp.Call(ctx, t, storage.ClearDataForOrigin, storage.ClearDataForOriginParams{Origin: origin, StorageTypes: "all"}); err != nil {
					return err
				}
			}
			for _, cmd := range []cdp.Command[cdp.Empty, cdp.Empty]{network.ClearBrowserCookies, network.ClearBrowserCache, page.ResetNavigationHistory} {
				if _, err := cdp.Call(ctx, t, cmd, cdp.Empty{}); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	if err != nil {
		it.close()
		return
	}
	chromes.Lock()
	defer chromes.Unlock()
	if chromes.running[b.kind] != b.ctx { // that Chromium has ended
		it.close()
		return
	}
	if chromes.idle == nil {
		chromes.idle = map[chromeKind][]idleTab{}
	}
	chromes.idle[b.kind] = append(chromes.idle[b.kind], it)
}

// tab is one user: a tab in its own browser context, so cookies are not shared.
type tab struct {
	b    *browser
	name string
	ctx  context.Context
	js   bool

	// The turn in progress: tiles tried without a legal cell in any rotation.
	tried map[string]bool
	// Moves and pending choices confirmed so far.
	turns, choices int
	// Without JavaScript: the page shown may be out of date (someone else
	// confirmed since it was loaded), and when it was last loaded.
	stale    bool
	loadedAt time.Time
}

func (b *browser) newTab(name string, js bool) *tab {
	it := takeTab(b)
	if it == nil {
		ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
		it = &idleTab{ctx: ctx, close: cancel}
	}
	b.t.Cleanup(func() { handBack(b, *it) })
	tb := &tab{b: b, name: name, ctx: it.ctx, js: js, tried: map[string]bool{}}
	// The first Do opens a new tab, which lives as long as the context of
	// that call: it must be ctx itself, not one with a time limit.
	if err := chromedp.Do(it.ctx, chromedp.EmulateViewport(1280, 800), chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{}); err != nil { // no colour scheme
			return err
		}
		// Every page notes what the content security policy blocked
		// (cspBlocked reads it).
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `window.__cspBlocked = []; document.addEventListener("securitypolicyviolation", (e) => window.__cspBlocked.push(e.violatedDirective + " " + e.blockedURI + " " + e.sample));`})
		return err
	})); err != nil {
		b.t.Fatalf("%s: opening a tab: %v", name, err)
	}
	b.tabs = append(b.tabs, tb)
	return tb
}

// cspBlocked lists what the content security policy blocked on the page
// since it was loaded.
func (tb *tab) cspBlocked() []string {
	out, err := eval[[]string](tb, `window.__cspBlocked || []`)
	tb.must(err)
	return out
}

// do runs actions with a time limit.
func (tb *tab) do(limit time.Duration, actions ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(tb.ctx, limit)
	defer cancel()
	return chromedp.Do(ctx, actions...)
}

// eval evaluates a JavaScript expression in the tab (DevTools can evaluate
// even when the page's own scripts are off).
func eval[T any](tb *tab, expr string) (T, error) {
	ctx, cancel := context.WithTimeout(tb.ctx, 3*time.Second)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](expr))
}

// fatalf ends the test with a screenshot of every tab and the end of the
// server log, so a failure in a headless browser can be seen.
func (b *browser) fatalf(format string, args ...any) {
	b.t.Helper()
	msg := fmt.Sprintf(format, args...)
	dir, err := os.MkdirTemp("", "cacao-browser-failure-")
	if err == nil {
		for _, tb := range b.tabs {
			where := tb.location()
			path := filepath.Join(dir, b.t.Name()+"-"+tb.name+".png")
			if png, err := tb.screenshot(); err != nil {
				b.t.Logf("%s (%s): no screenshot: %v", tb.name, where, err)
			} else if err := os.WriteFile(path, png, 0o644); err == nil {
				b.t.Logf("%s was on %s: screenshot %s", tb.name, where, path)
			}
		}
	}
	if b.logs != nil {
		lines := strings.Split(strings.TrimSpace(b.logs.String()), "\n")
		if len(lines) > 15 {
			lines = lines[len(lines)-15:]
		}
		b.t.Logf("server log (last lines):\n%s", strings.Join(lines, "\n"))
	}
	b.t.Fatal(msg)
}

func (tb *tab) location() string {
	loc, err := eval[string](tb, `location.href`)
	if err != nil {
		return "(unknown: " + err.Error() + ")"
	}
	return loc
}

// screenshot takes a PNG of the whole page, not only the viewport.
func (tb *tab) screenshot() ([]byte, error) {
	ctx, cancel := context.WithTimeout(tb.ctx, 5*time.Second)
	defer cancel()
	return chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) ([]byte, error) {
		m, err := cdp.Call(ctx, t, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return nil, err
		}
		size := m.CSSContentSize
		if size.Height <= float64(m.CSSLayoutViewport.ClientHeight) {
			// The page fits the screen: the screen as it is (capturing
			// beyond the viewport shifts a short right-to-left page).
			res, err := cdp.Call(ctx, t, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng})
			return res.Data, err
		}
		res, err := cdp.Call(ctx, t, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format:                page.CaptureScreenshotFormatPng,
			CaptureBeyondViewport: new(true),
			FromSurface:           new(true),
			Clip:                  &page.Viewport{X: 0, Y: 0, Width: size.Width, Height: size.Height, Scale: 1},
		})
		return res.Data, err
	})
}

// The page as a player sees it, read in one evaluation.
type pageState struct {
	URL        string   `json:"url"`
	Busy       bool     `json:"busy"`
	Final      bool     `json:"final"`
	Choice     bool     `json:"choice"`
	Confirm    bool     `json:"confirm"`
	PlayText   string   `json:"playText"`
	PlayError  string   `json:"playError"`
	GameError  string   `json:"gameError"`
	Tiles      []string `json:"tiles"`
	Selected   string   `json:"selected"`
	Cells      []string `json:"cells"`
	Rotate     bool     `json:"rotate"`
	HasMarker  bool     `json:"hasMarker"`
	HTMXLoaded bool     `json:"htmxLoaded"`
}

const stateJS = `(() => {
	const q = (s) => document.querySelector(s);
	const all = (s) => [...document.querySelectorAll(s)];
	const text = (e) => e ? e.textContent.replace(/\s+/g, ' ').trim() : '';
	const play = q('#play');
	const sel = q('.hand a[aria-current="true"]');
	return {
		url: location.href,
		busy: document.readyState !== 'complete' || !!q('.htmx-request, .htmx-swapping, .htmx-settling'),
		final: !!q('#final'),
		choice: !!q('form[action$="/resolve"] button[type=submit]'),
		confirm: !!q('form[action$="/turn"] button[type=submit]'),
		playText: play ? play.innerText.replace(/\s+/g, ' ').trim() : '',
		playError: text(play && play.querySelector('.error')),
		gameError: text(q('#game-error')),
		tiles: all('.hand a').map((a) => a.dataset.tile),
		selected: sel ? sel.dataset.tile : '',
		cells: all('#board a.cell').map((a) => a.dataset.cell),
		rotate: !!q(rotateSel),
		hasMarker: window.__cacaoMarker === 42,
		htmxLoaded: typeof window.htmx !== 'undefined',
	};
})()`

// rotateSel is the Rotate link.
const rotateSel = `#rotate`

// aliceAgainstABot opens alice's new game against a random bot, in a
// browser with scripts, once she may choose a tile and holds one that
// turns; it returns the game's address too.
func aliceAgainstABot(t *testing.T) (*browser, *tab, string) {
	t.Helper()
	s := seededSite(t)
	alice := s.user("alice")
	game := s.botGame(alice, "random")
	s.playUntil(game, withATurningTile(alice, toPlay(alice)))
	b := newBrowser(t, true, s.logs)
	a := b.newTab("alice", true)
	s.openGame(a, "alice", game)
	a.must(a.waitFor(`(document.querySelector('#play') || {innerText: ''}).innerText.includes('Choose a tile from your hand.')`, 10*time.Second, "alice's turn"))
	return b, a, s.gameURL(game)
}

// chooseTileWithPlaces chooses a tile of the hand, and rotates it, until
// the board offers at least n places for it: a tile that turns first, so
// that a test may go on rotating it (1111 looks the same every way and has
// no Rotate).
func (tb *tab) chooseTileWithPlaces(n int) {
	tb.b.t.Helper()
	tiles := tb.mustState().Tiles
	slices.SortStableFunc(tiles, func(a, b string) int { return cmp.Compare(b2i(a == "1111"), b2i(b == "1111")) })
	for _, w := range tiles {
		tb.must(tb.click(fmt.Sprintf(`.hand a[data-tile=%q]`, w), "tile "+w))
		for r := 0; ; r++ {
			if len(tb.mustState().Cells) >= n {
				return
			}
			if r == 3 || !tb.mustState().Rotate { // 1111 does not turn
				break
			}
			tb.must(tb.click(rotateSel, "Rotate"))
		}
	}
	tb.b.fatalf("%s: no tile of the hand has %d places in any rotation", tb.name, n)
}

// mustState is state, failing the test on an error.
func (tb *tab) mustState() pageState {
	st, err := tb.state()
	tb.must(err)
	return st
}

func (tb *tab) state() (pageState, error) {
	return eval[pageState](tb, strings.Replace(stateJS, "rotateSel", strconv.Quote(rotateSel), 1))
}

// markJS marks the document and the game area; changedJS is true once
// either was replaced (a page load, or an htmx swap of #game-main) and
// nothing is loading or swapping.
const (
	markJS = `(() => {
		document.body.__stale = true;
		for (const id of ['game-main', 'game-turn']) { const e = document.getElementById(id); if (e) e.__stale = true; }
		return true;
	})()`
	// changed: a new page, or the game area or a step's part of it
	// (views.GameTurn) swapped.
	changedJS = `(() => {
		if (document.readyState !== 'complete' || document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')) return false;
		if (!document.body.__stale) return true;
		return ['game-main', 'game-turn'].some((id) => { const e = document.getElementById(id); return !!e && !e.__stale; });
	})()`
)

// diagJS describes what a page is doing, for a failure message.
const diagJS = `JSON.stringify({
	url: location.href,
	readyState: document.readyState,
	busy: [...document.querySelectorAll('.htmx-request, .htmx-swapping, .htmx-settling')].map((e) => e.tagName + '#' + e.id + '.' + e.className),
	bodyStale: !!document.body.__stale,
	mainStale: !!(document.getElementById('game-main') || {}).__stale,
	turnStale: !!(document.getElementById('game-turn') || {}).__stale,
})`

// waitFor polls a JavaScript condition until it is true.
func (tb *tab) waitFor(cond string, limit time.Duration, what string) error {
	deadline := time.Now().Add(limit)
	var last error
	for time.Now().Before(deadline) {
		ok, err := eval[bool](tb, cond)
		if err == nil && ok {
			return nil
		}
		last = err // e.g. the page navigated during the evaluation
		time.Sleep(20 * time.Millisecond)
	}
	diag, _ := eval[string](tb, diagJS)
	return fmt.Errorf("%s: waited %v for %s (last error: %v; page: %s)", tb.name, limit, what, last, diag)
}

// click clicks the first element matching the CSS selector with the mouse
// and waits until the page (without JavaScript) or the game area (htmx) is
// replaced.
func (tb *tab) click(css, what string) error {
	if _, err := eval[bool](tb, markJS); err != nil {
		return fmt.Errorf("%s: before clicking %s: %w", tb.name, what, err)
	}
	if err := tb.do(10*time.Second, chromedp.Click(chromedp.CSS(css))); err != nil {
		return fmt.Errorf("%s: clicking %s (%s): %w", tb.name, what, css, err)
	}
	return tb.waitFor(changedJS, 10*time.Second, "the page to change after clicking "+what)
}

// navigate loads a URL and waits until it has loaded.
func (tb *tab) navigate(u string) error {
	if err := tb.do(20*time.Second, chromedp.Navigate(u)); err != nil {
		return fmt.Errorf("%s: opening %s: %w", tb.name, u, err)
	}
	return nil
}

// text returns the text of the first element matching the CSS selector ("" if none).
func (tb *tab) text(css string) string {
	s, _ := eval[string](tb, fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e ? e.textContent.replace(/\s+/g, ' ').trim() : ''; })()`, css))
	return s
}

// setMarker sets a property on the page's window; a page load loses it
// (pageState.HasMarker), an htmx swap does not.
func (tb *tab) setMarker() {
	tb.b.t.Helper()
	_, err := eval[bool](tb, `(() => { window.__cacaoMarker = 42; return true; })()`)
	tb.must(err)
}

func (tb *tab) must(err error) {
	tb.b.t.Helper()
	if err != nil {
		tb.b.fatalf("%v", err)
	}
}

// signUp creates an account through /signup and checks that the header
// greets the new user.
func (tb *tab) signUp(base, name string) {
	tb.b.t.Helper()
	tb.must(tb.navigate(base + "/signup"))
	tb.must(tb.do(10*time.Second,
		chromedp.SendKeys(chromedp.ID("username"), name),
		chromedp.SendKeys(chromedp.ID("password"), password),
	))
	tb.must(tb.click(`#main form button[type=submit]`, "Create account"))
	if got := tb.text("header.top"); !strings.Contains(got, name) {
		tb.b.fatalf("%s: after signing up on %s the header says %q, want the username; the page says %q", tb.name, tb.location(), got, tb.text("#main"))
	}
}

// createGame makes a 2-player game from the home page, seat 2 being
// "open", a bot name or "@name" (that user invited), and returns the game
// page's URL.
func (tb *tab) createGame(base, seat2 string) string {
	tb.b.t.Helper()
	tb.must(tb.navigate(base + "/"))
	if name, ok := strings.CutPrefix(seat2, "@"); ok { // an invitation
		seat2 = "invite"
		tb.must(tb.do(10*time.Second, chromedp.SetValue(chromedp.ID("invite2"), name)))
	}
	tb.must(tb.do(10*time.Second, chromedp.SetValue(chromedp.ID("seat2"), seat2)))
	tb.must(tb.click(`form[action="/games"] button[type=submit]`, "Create game"))
	loc := tb.location()
	if !strings.Contains(loc, "/games/") {
		tb.b.fatalf("%s: after Create game the browser is on %s, want a game page", tb.name, loc)
	}
	return loc
}

// startTwoPlayerGame signs two users up, A creates a game with an open seat
// and B takes it through the invite link shown on A's page.
func startTwoPlayerGame(b *browser, base string, js bool) (a, bb *tab, game string) {
	b.t.Helper()
	a = b.newTab("alice", js)
	bb = b.newTab("bob", js)
	a.signUp(base, "alice")
	bb.signUp(base, "bob")
	game = a.createGame(base, "open")
	invite := a.text("#game-main code")
	if !strings.Contains(invite, "/join/") {
		b.fatalf("alice's new game page shows no invite link (code element: %q)", invite)
	}
	// The link is built on the request's host; the browser reached 127.0.0.1.
	iu, err := url.Parse(invite)
	if err != nil {
		b.fatalf("invite link %q: %v", invite, err)
	}
	bu, _ := url.Parse(base)
	if iu.Host != bu.Host {
		b.fatalf("invite link %q is not on the site's address %s", invite, base)
	}
	if js {
		a.setMarker() // from here on alice's page must update itself: no reload
	}
	bb.must(bb.navigate(invite))
	bb.must(bb.click(`#main form button[type=submit]`, "Take a seat"))
	if loc := bb.location(); loc != game {
		b.fatalf("bob took the seat and is on %s, want the game page %s", loc, game)
	}
	if js {
		bb.setMarker()
	}
	return a, bb, game
}

// errStuck says a page offers nothing the driver knows how to do.
var errStuck = errors.New("stuck")

// step does one thing the page asks of its player, if any, and reports
// whether it acted. Without JavaScript a page that waits is reloaded, since
// nothing updates it.
func (tb *tab) step(game string) (acted bool, err error) {
	st, err := tb.state()
	if err != nil || st.Busy || st.Final {
		return false, nil
	}
	switch {
	case st.Choice:
		if err := tb.click(`form[action$="/resolve"] button[type=submit]`, "Confirm choice"); err != nil {
			return true, err
		}
		tb.choices++
		return true, nil
	case st.Confirm:
		if err := tb.click(`form[action$="/turn"] button[type=submit]`, "Confirm move"); err != nil {
			return true, err
		}
		tb.turns++
		clear(tb.tried)
		return true, nil
	case strings.Contains(st.PlayText, "Choose a tile from your hand."):
		for _, w := range st.Tiles {
			if !tb.tried[w] {
				return true, tb.click(fmt.Sprintf(`.hand a[data-tile=%q]`, w), "tile "+w)
			}
		}
		return false, fmt.Errorf("%s: %w: no tile of %v has a legal cell in any rotation", tb.name, errStuck, st.Tiles)
	case strings.Contains(st.PlayText, "Choose a highlighted cell"):
		if len(st.Cells) > 0 {
			// Vary the cells a little, taking one a tap reaches where it
			// is or once scrolled to: a cell under the hand laid over
			// the board's foot on a phone is no cell a player taps.
			start := (tb.turns * 7) % len(st.Cells)
			c := st.Cells[start]
			for k := range st.Cells {
				if cell := st.Cells[(start+k)%len(st.Cells)]; tb.reachable(fmt.Sprintf(`#board a[data-cell=%q]`, cell)) {
					c = cell
					break
				}
			}
			return true, tb.click(fmt.Sprintf(`#board a[data-cell=%q]`, c), "cell "+c)
		}
		if rot := rotation(st.URL); rot < 3 && st.Rotate {
			return true, tb.click(rotateSel, "Rotate")
		}
		tb.tried[st.Selected] = true
		for _, w := range st.Tiles {
			if !tb.tried[w] {
				return true, tb.click(fmt.Sprintf(`.hand a[data-tile=%q]`, w), "tile "+w)
			}
		}
		return false, fmt.Errorf("%s: %w: no tile of %v has a legal cell in any rotation", tb.name, errStuck, st.Tiles)
	case st.PlayError != "" || st.GameError != "":
		return false, fmt.Errorf("%s: %w: the page shows an error: %q %q", tb.name, errStuck, st.PlayError, st.GameError)
	}
	if !tb.js && (tb.stale || time.Since(tb.loadedAt) > 2*time.Second) {
		tb.stale, tb.loadedAt = false, time.Now()
		return false, tb.navigate(game)
	}
	return false, nil
}

// rotation reads the quarter turns chosen from a game page's address.
func rotation(addr string) int {
	u, err := url.Parse(addr)
	if err != nil {
		return 0
	}
	r, _ := strconv.Atoi(u.Query().Get("rot"))
	return r
}

// play says how long to let tabs play.
type play struct {
	game string
	// maxTurns stops once every tab has confirmed that many moves; 0 plays
	// until every tab shows the final scores.
	maxTurns int
	// until, when set, stops once it is true of the first tab's page.
	until func(pageState) bool
	// limit is the time for the whole game; stall fails the test when no
	// tab had anything to do for that long.
	limit, stall time.Duration
	// reloadIdle reloads a JavaScript page that has had nothing to do for a
	// while, as a player would. Only for a tab playing a bot alone, where
	// nothing to do means the page missed an update (TestBrowserBotGame).
	reloadIdle bool
}

// playToEnd lets the tabs play by clicking, as p says. With JavaScript a
// tab is never reloaded (unless p.reloadIdle): it must learn of the others'
// moves through its event stream. A stall fails with what each page shows
// and what it shows once reloaded.
func playToEnd(b *browser, p play, tabs ...*tab) {
	b.t.Helper()
	deadline := time.Now().Add(p.limit)
	lastAct := time.Now()
	retries, reloads := 0, 0
	for {
		if p.until != nil {
			if st, err := tabs[0].state(); err == nil && !st.Busy && p.until(st) {
				return
			}
		}
		if allDone(tabs, p.maxTurns) {
			if reloads > 0 {
				b.t.Logf("the page was reloaded %d times after it had missed an update", reloads)
			}
			return
		}
		if time.Now().After(deadline) {
			b.fatalf("the game did not end within %v (%s)", p.limit, turnCounts(tabs))
		}
		acted := false
		for _, tb := range tabs {
			confirmed := tb.turns + tb.choices
			ok, err := tb.step(p.game)
			if tb.turns+tb.choices > confirmed {
				for _, other := range tabs {
					other.stale = other != tb
				}
			}
			if errors.Is(err, errStuck) {
				b.fatalf("%v", err)
			}
			if err != nil {
				// A swap or an update raced the click: read the page again.
				if retries++; retries > 20 {
					b.fatalf("too many failed clicks, the last: %v", err)
				}
				b.t.Logf("retrying: %v", err)
				continue
			}
			acted = acted || ok
		}
		switch {
		case acted:
			lastAct = time.Now()
		case p.reloadIdle && time.Since(lastAct) > time.Second:
			for _, tb := range tabs {
				tb.must(tb.navigate(p.game))
			}
			reloads++
			lastAct = time.Now()
		case time.Since(lastAct) > p.stall:
			var states []string
			for _, tb := range tabs {
				st, _ := tb.state()
				line := fmt.Sprintf("%s's page (%s) says %q", tb.name, st.URL, st.PlayText)
				if tb.js {
					if err := tb.navigate(p.game); err == nil {
						st, _ = tb.state()
						line += fmt.Sprintf(", and once reloaded %q", st.PlayText)
					}
				}
				states = append(states, line)
			}
			b.fatalf("nothing to do for %v (%s): %s", p.stall, turnCounts(tabs), strings.Join(states, "; "))
		default:
			time.Sleep(30 * time.Millisecond)
		}
	}
}

// allDone: every tab shows the final scores, or has played maxTurns (when
// not 0).
func allDone(tabs []*tab, maxTurns int) bool {
	for _, tb := range tabs {
		if maxTurns > 0 && tb.turns >= maxTurns {
			continue
		}
		if st, err := tb.state(); err != nil || !st.Final {
			return false
		}
	}
	return true
}

func turnCounts(tabs []*tab) string {
	var parts []string
	for _, tb := range tabs {
		parts = append(parts, fmt.Sprintf("%s %d turns %d choices", tb.name, tb.turns, tb.choices))
	}
	return strings.Join(parts, ", ")
}

// checkFinal asserts the final score table is shown with a row per player
// and a winner.
func (tb *tab) checkFinal(players int) {
	tb.b.t.Helper()
	tb.must(tb.do(10*time.Second, chromedp.WaitVisible(chromedp.CSS("#final .standings"))))
	rows, err := eval[[]string](tb, `[...document.querySelectorAll('#final .standings li')].map((r) => r.textContent.replace(/\s+/g, ' ').trim())`)
	tb.must(err)
	if len(rows) != players {
		tb.b.fatalf("%s: the final scores have %d lines, want %d: %q", tb.name, len(rows), players, rows)
	}
	if !strings.Contains(strings.Join(rows, "\n"), "winner") {
		tb.b.fatalf("%s: the final scores name no winner: %q", tb.name, rows)
	}
}

// sameFinal asserts that both players see the same final scores.
func sameFinal(b *browser, x, y *tab) {
	b.t.Helper()
	fx, fy := x.text("#final table"), y.text("#final table")
	if fx == "" || fx != fy {
		b.fatalf("the final scores differ:\n%s: %s\n%s: %s", x.name, fx, y.name, fy)
	}
}

// TestBrowserTwoPlayersFullGame: two people in two browser sessions sign up,
// one creates a game, the other joins through the invite link, and both play
// a whole game by clicking. Neither page is ever reloaded: each learns of the
// other's move through its event stream and swaps in the new position, and
// both end on the final scores.
func TestBrowserTwoPlayersFullGame(t *testing.T) {
	t.Parallel()
	base, logs := startSite(t)
	b := newBrowser(t, true, logs)
	start := time.Now()
	a, bb, game := startTwoPlayerGame(b, base, true)
	playToEnd(b, play{game: game, limit: 150 * time.Second, stall: 20 * time.Second}, a, bb)
	for _, tb := range []*tab{a, bb} {
		tb.checkFinal(2)
		st, err := tb.state()
		tb.must(err)
		if !st.HasMarker {
			b.fatalf("%s's page was reloaded during the game (the window marker is gone): updates should come through htmx and SSE", tb.name)
		}
		if !st.HTMXLoaded {
			b.fatalf("%s's page has no htmx", tb.name)
		}
		if blocked := tb.cspBlocked(); len(blocked) > 0 {
			b.fatalf("%s's page broke the content security policy: %q", tb.name, blocked)
		}
	}
	if a.turns+bb.turns < 10 {
		b.fatalf("the game ended after %d turns; a 2-player game has about 22", a.turns+bb.turns)
	}
	sameFinal(b, a, bb)
	t.Logf("full game by clicking: %s in %v", turnCounts([]*tab{a, bb}), time.Since(start).Round(time.Millisecond))
}

// TestBrowserNoJavaScript: the same journey with JavaScript off, to the
// end of the game. Every step is a plain link or a form post; a waiting
// player reloads to see the other's move. The game is played through the
// store up to a few turns from its end, then by clicking to the final scores
// (TestLongBrowserNoJavaScriptGame plays it all by clicking).
func TestBrowserNoJavaScript(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	b := newBrowser(t, false, s.logs)
	a, bb, game := startTwoPlayerGame(b, s.base, false)
	st, err := a.state()
	a.must(err)
	if st.HTMXLoaded {
		b.fatalf("htmx is loaded: JavaScript should be off in this browser")
	}
	s.playUntil(gameID(t, game), turnsLeft(2))
	a.stale, bb.stale = true, true // the pages show the game's start
	playToEnd(b, play{game: game, limit: 60 * time.Second, stall: 20 * time.Second}, a, bb)
	for _, tb := range []*tab{a, bb} {
		tb.must(tb.navigate(game))
		tb.checkFinal(2)
	}
	if a.turns < 1 || bb.turns < 1 {
		b.fatalf("each player should have played one of the last two turns: %s", turnCounts([]*tab{a, bb}))
	}
	sameFinal(b, a, bb)
}

// TestBrowserHTMXSwapNoReload: with JavaScript, choosing a tile and rotating
// it swap the game area in place: the window survives (no page load), the
// address bar follows the choice (hx-push-url), and the rotation shows.
func TestBrowserHTMXSwapNoReload(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	alice := s.user("alice")
	id := s.botGame(alice, "random")
	// Alice's turn after a move of the bot: a panel tells what it did; a
	// tile of hers turns.
	s.playUntil(id, withATurningTile(alice, toPlayAfterAMove(alice)))
	game := s.gameURL(id)
	b := newBrowser(t, true, s.logs)
	a := b.newTab("alice", true)
	s.openGame(a, "alice", id)
	a.must(a.waitFor(`!!document.querySelector('#board') && (document.querySelector('#play') || {innerText: ''}).innerText.includes('Choose a tile from your hand.')`, 10*time.Second, "alice's turn"))
	if has, _ := eval[bool](a, `!!document.getElementById('since')`); !has {
		b.fatalf("alice's turn after a move of the bot: no panel tells what the bot did")
	}
	a.setMarker()
	entries, err := eval[int](a, `history.length`)
	a.must(err)
	st, err := a.state()
	a.must(err)
	if len(st.Tiles) == 0 {
		b.fatalf("alice's hand is empty")
	}
	w := st.Tiles[0]
	for _, t := range st.Tiles {
		if t != "1111" { // a tile that turns: its Rotate link is followed below
			w = t
			break
		}
	}
	// The board as a list, opened, stays open across the steps.
	_, err = eval[bool](a, `(() => { document.getElementById('board-text').open = true; return true; })()`)
	a.must(err)
	// The board's size chosen stays chosen.
	_, err = eval[bool](a, `(() => { document.getElementById('zoom-2').click(); return true; })()`)
	a.must(err)
	a.must(a.click(fmt.Sprintf(`.hand a[data-tile=%q]`, w), "tile "+w))
	st, err = a.state()
	a.must(err)
	if !st.HasMarker {
		b.fatalf("choosing a tile reloaded the page (the window marker is gone)")
	}
	if large, _ := eval[bool](a, `document.getElementById('zoom-2').checked`); !large {
		b.fatalf("after choosing a tile the board's size chosen (Large) is no longer checked")
	}
	if shown, _ := eval[bool](a, `(() => { const e = document.getElementById('since'); return !!e && e.textContent.includes('Since your last move'); })()`); !shown {
		b.fatalf("after choosing a tile the panel of what happened since alice's move is gone")
	}
	if open, _ := eval[bool](a, `document.getElementById('board-text').open`); !open {
		b.fatalf("after choosing a tile the board as a list, which was open, is closed")
	}
	if got, _ := eval[string](a, drawnJS); got != "drawn,drawn,drawn,drawn" {
		b.fatalf("after choosing a tile the board's tiles, the players, the log and the cells in words are %s; want drawn,drawn,drawn,drawn", got)
	}
	if st.Selected != w || !strings.Contains(st.URL, "tile="+w) {
		b.fatalf("after choosing tile %s: selected %q, address %s", w, st.Selected, st.URL)
	}
	if !st.Rotate || !strings.Contains(a.text(rotateSel), "(now 0°)") {
		b.fatalf("after choosing tile %s the Rotate link says %q", w, a.text(rotateSel))
	}
	before, err := eval[string](a, `document.getElementById('game-main').outerHTML`)
	a.must(err)
	a.must(a.click(rotateSel, "Rotate"))
	st, err = a.state()
	a.must(err)
	after, err := eval[string](a, `document.getElementById('game-main').outerHTML`)
	a.must(err)
	if !st.HasMarker {
		b.fatalf("rotating reloaded the page (the window marker is gone)")
	}
	if rotation(st.URL) != 1 || !strings.HasPrefix(st.URL, game+"?") {
		b.fatalf("after Rotate the address is %s, want %s with rot=1", st.URL, game)
	}
	if got := a.text(rotateSel); !strings.Contains(got, "(now 90°)") {
		b.fatalf("after Rotate the link says %q, want (now 90°)", got)
	}
	if before == after {
		b.fatalf("#game-main did not change after Rotate")
	}
	n, err := eval[int](a, `history.length`)
	a.must(err)
	if n != entries {
		b.fatalf("history has %d entries after two steps, %d before them: a step is no page of the history", n, entries)
	}
	if open, _ := eval[bool](a, `document.getElementById('board-text').open`); !open {
		b.fatalf("after Rotate the board as a list, which was open, is closed")
	}
	if got, _ := eval[string](a, drawnJS); got != "drawn,drawn,drawn,drawn" {
		b.fatalf("after Rotate the board's tiles, the players, the log and the cells in words are %s; want drawn,drawn,drawn,drawn", got)
	}

	// A cell chosen among the places shown: the places stay on the board
	// and in the list, and their links still work: another cell.
	const places = `document.querySelectorAll('#place-cells a.cell').length`
	for turns := 0; ; turns++ {
		if n, _ := eval[int](a, places); n >= 2 {
			break
		}
		if turns == 3 {
			b.fatalf("tile %s has fewer than two places in every rotation", w)
		}
		a.must(a.click(rotateSel, "Rotate"))
	}
	n, err = eval[int](a, places)
	a.must(err)
	for i := 1; i <= 2; i++ {
		cell, err := eval[string](a, fmt.Sprintf(`document.querySelectorAll('#place-cells a.cell')[%d].getAttribute('data-cell')`, i-1))
		a.must(err)
		a.must(a.click(fmt.Sprintf(`#place-cells a.cell[data-cell=%q]`, cell), "cell "+cell))
		st, err = a.state()
		a.must(err)
		at := "at=" + url.QueryEscape(cell)
		if !st.HasMarker || !strings.Contains(st.URL, at) {
			b.fatalf("after choosing cell %s: address %s (want %s), marker %v", cell, st.URL, at, st.HasMarker)
		}
		if m, _ := eval[int](a, places); m != n {
			b.fatalf("after choosing cell %s the board shows %d places, want %d", cell, m, n)
		}
		if m, _ := eval[int](a, `document.querySelectorAll('#place-list a').length`); m != n {
			b.fatalf("after choosing cell %s the list shows %d places, want %d", cell, m, n)
		}
		if !strings.Contains(a.text("#play"), "Confirm") {
			b.fatalf("after choosing cell %s the move panel says %q", cell, a.text("#play"))
		}
		if got, _ := eval[string](a, drawnJS); got != "drawn,drawn,drawn,drawn" {
			b.fatalf("after choosing cell %s the board's tiles, the players, the log and the cells in words are %s", cell, got)
		}
	}
}

// drawnJS tells of each part of the game area a step must still show
// whether it is drawn (has content), or missing or empty.
const drawnJS = `(() => ['tiles', 'villages', 'game-log', 'cells'].map(id => { const e = document.getElementById(id); return !e || e.childElementCount === 0 ? 'empty' : 'drawn'; }).join())()`

// TestBrowserReloadAfterConfirm: after a move confirmed with htmx, reloading
// the page (or opening the address bar's link again) shows the game as it is,
// not a stale choice of a tile that was just played.
func TestBrowserReloadAfterConfirm(t *testing.T) {
	t.Parallel()
	b, a, game := aliceAgainstABot(t)
	playToEnd(b, play{game: game, maxTurns: 1, limit: 30 * time.Second, stall: 10 * time.Second}, a)
	a.must(a.waitFor(changedJS, 10*time.Second, "the move to show"))
	loc := a.location()
	// The confirm form posts without taking the address (the game area's
	// steps push theirs; the form says not to).
	if !strings.HasPrefix(loc, game) || strings.Contains(loc, "/turn") {
		b.fatalf("after confirming a move the address bar is %s, want the game's page %s", loc, game)
	}
	// Reload the address shown once the bot has answered and alice may
	// place a tile again (the bot plays within her request, which may still
	// run; a choice its move left her comes first).
	var st pageState
	for i := 0; ; i++ {
		a.must(a.navigate(loc))
		var err error
		st, err = a.state()
		a.must(err)
		if st.Choice {
			a.must(a.click(`form[action$="/resolve"] button[type=submit]`, "Confirm choice"))
			continue
		}
		if !strings.Contains(st.PlayText, "Waiting for") && !strings.Contains(st.PlayText, "is thinking…") {
			break
		}
		if i == 50 {
			b.fatalf("the bot did not answer alice's move: %q", st.PlayText)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if st.GameError != "" || st.Selected != "" {
		b.fatalf("after confirming a move the address bar is %s; reloading it shows error %q, selected tile %q", loc, st.GameError, st.Selected)
	}
}

// TestBrowserManyPageVisits: a player who goes back and forth between the
// home page and a game page by clicking (as anyone does over a game) still has
// a working site. Chrome keeps the pages left behind in its back/forward cache
// and, with them, their open event streams (/events, /games/ID/events); it
// allows 6 connections per host, so once about five pages with a stream were
// left every further request to the site waits for ever.
func TestBrowserManyPageVisits(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	game := s.botGame(s.user("alice"), "greedy")
	b := newBrowser(t, true, s.logs) // Chrome's defaults: the back/forward cache is on
	a := b.newTab("alice", true)
	s.openGame(a, "alice", game)
	gameLink := strings.TrimPrefix(s.gameURL(game), s.base)
	const visits = 4
	for i := range visits {
		if err := a.click(`header.top a[href="/"]:not(.brand)`, "My games"); err != nil {
			b.fatalf("visit %d of the home page: %v\nThe browser's requests to the site hang: pages left for Chrome's back/forward cache keep their event streams open, and 6 connections per host are allowed", i+1, err)
		}
		if err := a.click(fmt.Sprintf(`#home-lists a[href=%q]`, gameLink), "the game on the home page"); err != nil {
			b.fatalf("visit %d of the game page: %v\nThe browser's requests to the site hang: pages left for Chrome's back/forward cache keep their event streams open, and 6 connections per host are allowed", i+1, err)
		}
	}
	a.must(a.waitFor(`typeof window.htmx !== 'undefined'`, 10*time.Second, "htmx"))
	st, err := a.state()
	a.must(err)
	if len(st.Tiles) == 0 {
		b.fatalf("no hand on the game page after %d visits", visits)
	}
	if err := a.click(fmt.Sprintf(`.hand a[data-tile=%q]`, st.Tiles[0]), "a tile"); err != nil {
		b.fatalf("after %d visits of the home and game pages, choosing a tile: %v", visits, err)
	}
}

// TestBrowserBotGame: one player plays the last turns of a game against
// the greedy bot by clicking, with JavaScript, and never reloads: after each
// confirmed move the page must come back to "Choose a tile" once the bot has
// answered. The bot moves within the player's own request, so the page gets
// two versions at once (the player's move and the bot's) while its own POST
// is in flight. (TestLongBrowserBotGame plays a whole game so.)
func TestBrowserBotGame(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	alice := s.user("alice")
	id := s.botGame(alice, "greedy")
	s.playUntil(id, nearTheEnd(alice, 4))
	b := newBrowser(t, true, s.logs)
	a := b.newTab("alice", true)
	s.openGame(a, "alice", id)
	playToEnd(b, play{game: s.gameURL(id), limit: 60 * time.Second, stall: 8 * time.Second}, a)
	a.checkFinal(2)
	if a.turns < 2 {
		b.fatalf("alice played %d of her last turns by clicking; want at least 2", a.turns)
	}
	checkWholeLog(b, a, s.gameURL(id))
}

// checkWholeLog: the whole log's page of a finished game lays the log out on
// the page, not in a box that scrolls (as the game page's card does).
func checkWholeLog(b *browser, a *tab, game string) {
	b.t.Helper()
	a.must(a.navigate(game + "/log"))
	got, err := eval[string](a, `(() => { const l = document.getElementById('log'); return l.children.length + ' entries, ' + l.scrollHeight + ' high, ' + l.clientHeight + ' shown'; })()`)
	a.must(err)
	var n, high, shown int
	fmt.Sscanf(got, "%d entries, %d high, %d shown", &n, &high, &shown)
	if n < 15 || high > shown {
		b.fatalf("the whole log's page: %s; want every entry shown", got)
	}
}

// TestBrowserQuickClicks: two steps asked at once (a second cell clicked
// before the first answer came; a double click; a slow phone network) end
// with the page showing the last one asked, whole: the board's tiles, the
// places, the players, the log and the cells in words all there, and the
// address the page's own.
func TestBrowserQuickClicks(t *testing.T) {
	t.Parallel()
	b, a, _ := aliceAgainstABot(t)
	// A tile and a rotation with at least three places.
	const places = `document.querySelectorAll('#place-cells a.cell').length`
	a.chooseTileWithPlaces(3)
	whole := func(what string) {
		t.Helper()
		got, err := eval[string](a, `(() => ['tiles', 'place-cells', 'place-list', 'villages', 'game-log', 'cells', 'zoom'].map(id => { const e = document.getElementById(id); return id + ':' + (!e ? 'missing' : e.childElementCount === 0 ? 'empty' : 'ok'); }).join())()`)
		a.must(err)
		if strings.Contains(got, "missing") || strings.Contains(got, "empty") {
			b.fatalf("%s: the game area is not whole: %s", what, got)
		}
	}
	// The chosen cell drawn is the one the address names.
	chosen := func(what, cell string) {
		t.Helper()
		at, err := eval[string](a, `(() => { const c = document.querySelector('#board rect.chosen'); if (!c) return ''; const l = [...document.querySelectorAll('#place-cells a.cell')].find(a => { const r = a.querySelector('rect'); return r.getAttribute('x') === c.getAttribute('x') && r.getAttribute('y') === c.getAttribute('y'); }); return l ? l.getAttribute('data-cell') : '?'; })()`)
		a.must(err)
		if at != cell || !strings.Contains(a.location(), "at="+url.QueryEscape(cell)) {
			b.fatalf("%s: the board shows cell %q chosen and the address is %s; want cell %s in both", what, at, a.location(), cell)
		}
	}
	idle := func() {
		a.must(a.waitFor(`!document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')`, 10*time.Second, "the requests to end"))
		time.Sleep(300 * time.Millisecond) // an answer still to come would come by then
		a.must(a.waitFor(`!document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')`, 10*time.Second, "the requests to end"))
	}
	cells, err := eval[[]string](a, `[...document.querySelectorAll('#place-cells a.cell')].map(a => a.getAttribute('data-cell'))`)
	a.must(err)
	// Two cells clicked at once: the second wins.
	_, err = eval[bool](a, fmt.Sprintf(`(() => { const q = (c) => document.querySelector('#place-cells a.cell[data-cell="' + c + '"]'); q(%q).dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true})); q(%q).dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true})); return true; })()`, cells[0], cells[1]))
	a.must(err)
	idle()
	whole("two cells clicked at once")
	chosen("two cells clicked at once", cells[1])
	// A double click on one cell: no entry in the history (no step adds
	// one).
	n, err := eval[int](a, `history.length`)
	a.must(err)
	_, err = eval[bool](a, fmt.Sprintf(`(() => { const l = document.querySelector('#place-cells a.cell[data-cell="%s"]'); l.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true})); l.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true})); return true; })()`, cells[2]))
	a.must(err)
	idle()
	whole("a cell clicked twice")
	chosen("a cell clicked twice", cells[2])
	if m, _ := eval[int](a, `history.length`); m != n {
		b.fatalf("a double click on a cell left %d history entries, want none", m-n)
	}
	// A cell, then Rotate at once: the rotation wins.
	rot := rotation(a.location())
	defer func() {
		// Confirm, then Confirm again and a cell at once: the move is
		// made, once, and not aborted by what came after.
		for r := 0; len(a.mustState().Cells) == 0; r++ {
			if r == 3 {
				b.fatalf("tile %s has no place in any rotation", a.mustState().Selected)
			}
			a.must(a.click(rotateSel, "Rotate"))
		}
		a.must(a.click(fmt.Sprintf(`#place-cells a.cell[data-cell=%q]`, a.mustState().Cells[0]), "a cell"))
		placed := `[...document.querySelectorAll('#game-log li')].filter(l => l.textContent.includes('alice placed')).length`
		before, err := eval[int](a, placed)
		a.must(err)
		_, err = eval[bool](a, `(() => { const f = document.querySelector('#play form[hx-post$="/turn"]'); f.requestSubmit(); f.requestSubmit(); document.querySelector('#place-cells a.cell').dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true})); return true; })()`)
		a.must(err)
		idle()
		if after, _ := eval[int](a, placed); after != before+1 {
			b.fatalf("Confirm twice and a cell at once: alice placed %d tiles, want one (%d before, %d after)", after-before, before, after)
		}
		// The move's own answer: no refusal of a second confirm, no step
		// of the position before it.
		if st := a.mustState(); st.GameError != "" || st.PlayError != "" {
			b.fatalf("Confirm twice and a cell at once: the page says %q / %q", st.GameError, st.PlayError)
		}
		got, err := eval[string](a, `(() => ['tiles', 'villages', 'game-log', 'cells', 'zoom'].map(id => { const e = document.getElementById(id); return !e ? 'missing' : e.childElementCount === 0 ? 'empty' : 'ok'; }).join())()`)
		a.must(err)
		if got != "ok,ok,ok,ok,ok" {
			b.fatalf("Confirm and a cell at once: the board's tiles, the players, the log, the cells in words and the board size are %s", got)
		}
	}()
	_, err = eval[bool](a, fmt.Sprintf(`(() => { document.querySelector('#place-cells a.cell[data-cell="%s"]').dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true})); document.querySelector(%q).dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true})); return true; })()`, cells[0], rotateSel))
	a.must(err)
	idle()
	if got, want := rotation(a.location()), (rot+1)%4; got != want || !strings.Contains(a.text(rotateSel), fmt.Sprintf("(now %d°)", want*90)) {
		b.fatalf("a cell then Rotate at once: address %s (want rot=%d), Rotate says %q", a.location(), want, a.text(rotateSel))
	}
	got, err := eval[string](a, `(() => ['tiles', 'villages', 'game-log', 'cells', 'zoom'].map(id => { const e = document.getElementById(id); return !e ? 'missing' : e.childElementCount === 0 ? 'empty' : 'ok'; }).join())()`)
	a.must(err)
	if got != "ok,ok,ok,ok,ok" {
		b.fatalf("a cell then Rotate at once: the board's tiles, the players, the log, the cells in words and the board size are %s", got)
	}
}

// TestBrowserBoardKeepsItsScroll: on a phone, the board scrolls; a cell
// chosen at its far side leaves it scrolled where it was.
func TestBrowserBoardKeepsItsScroll(t *testing.T) {
	t.Parallel()
	b, a, game := aliceAgainstABot(t)
	// The game page as a phone loads it.
	a.must(a.do(5*time.Second, chromedp.EmulateViewport(390, 844)))
	a.must(a.navigate(game))
	a.must(a.waitFor(`typeof window.htmx !== 'undefined'`, 10*time.Second, "htmx"))
	_, err := eval[bool](a, `(() => { document.getElementById('zoom-2').click(); return true; })()`)
	a.must(err)
	a.chooseTileWithPlaces(1)
	// Scrolled to the far corner; the cell chosen is the one most in view.
	type scroll struct{ X, Y, MaxX, MaxY int }
	at := func() scroll {
		s, err := eval[scroll](a, `(() => { const w = document.getElementById('board-wrap'); return {X: Math.round(w.scrollLeft), Y: Math.round(w.scrollTop), MaxX: w.scrollWidth - w.clientWidth, MaxY: w.scrollHeight - w.clientHeight}; })()`)
		a.must(err)
		return s
	}
	_, err = eval[bool](a, `(() => { const w = document.getElementById('board-wrap'); w.scrollLeft = w.scrollWidth; w.scrollTop = w.scrollHeight; return true; })()`)
	a.must(err)
	before := at()
	if before.MaxX <= 0 && before.MaxY <= 0 {
		b.fatalf("the board does not scroll on a phone at the large size: %+v", before)
	}
	cell, err := eval[string](a, `(() => { const w = document.getElementById('board-wrap').getBoundingClientRect(); let best = null, bestD = Infinity; for (const l of document.querySelectorAll('#place-cells a.cell')) { const r = l.getBoundingClientRect(); const d = Math.hypot(r.x + r.width / 2 - (w.x + w.width / 2), r.y + r.height / 2 - (w.y + w.height / 2)); if (d < bestD) { bestD = d; best = l; } } return best.getAttribute('data-cell'); })()`)
	a.must(err)
	a.must(a.click(fmt.Sprintf(`#place-cells a.cell[data-cell=%q]`, cell), "cell "+cell))
	if !strings.Contains(a.location(), "at="+url.QueryEscape(cell)) {
		b.fatalf("after choosing cell %s the address is %s", cell, a.location())
	}
	if after := at(); after.X != before.X || after.Y != before.Y {
		b.fatalf("choosing cell %s scrolled the board from (%d, %d) to (%d, %d)", cell, before.X, before.Y, after.X, after.Y)
	}
}

// TestBrowserLanguageKeepsTheChoice: changing the language after htmx
// steps comes back to the tile and the cell chosen.
func TestBrowserLanguageKeepsTheChoice(t *testing.T) {
	t.Parallel()
	b, a, _ := aliceAgainstABot(t)
	a.chooseTileWithPlaces(1)
	cell := a.mustState().Cells[0]
	a.must(a.click(fmt.Sprintf(`#board a.cell[data-cell=%q]`, cell), "cell "+cell))
	want := a.location()
	_, err := eval[bool](a, `(() => { const f = document.querySelector('.lang-form'); f.querySelector('select').value = 'fa'; f.submit(); return true; })()`)
	a.must(err)
	a.must(a.waitFor(`document.readyState === 'complete' && document.documentElement.lang === 'fa'`, 10*time.Second, "the page in Persian"))
	if got := a.location(); got != want {
		b.fatalf("after changing the language the address is %s, want %s (the tile and the cell chosen)", got, want)
	}
	if !a.mustState().Confirm {
		b.fatalf("after changing the language the move is no longer ready to confirm")
	}
}

// TestBrowserLongNameOnAPhone: the longest name allowed, in one word, fits
// a phone's width on every page that shows it: no sideways scrolling.
func TestBrowserLongNameOnAPhone(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	name := strings.Repeat("W", 24)
	game := s.gameURL(s.botGame(s.user(name), "greedy"))
	b := newBrowser(t, true, s.logs)
	a := b.newTab(name, true)
	a.logIn(s.base, name, "")
	a.must(a.do(5*time.Second, chromedp.EmulateViewport(390, 844)))
	for _, path := range []string{game, "/", game + "/log", "/settings", "/notifications"} {
		if strings.HasPrefix(path, "/") {
			path = s.base + path
		}
		a.must(a.navigate(path))
		a.must(a.waitFor(`document.readyState === 'complete'`, 10*time.Second, "the page"))
		if w, _ := eval[int](a, `document.documentElement.scrollWidth`); w > 390 {
			b.fatalf("%s is %d px wide on a 390 px phone with the name %s", path, w, name)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
