package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// The sizes screenshots are taken at: a desktop window and a phone.
var shotSizes = []struct {
	name          string
	width, height int64
	mobile        bool
}{
	{"desktop", 1280, 800, false},
	{"phone", 390, 844, true},
}

// screenshotsDir is $SCREENSHOTS_DIR, a relative path being taken from the
// module's root (go test runs in the package's directory).
func screenshotsDir(t *testing.T) string {
	dir := os.Getenv("SCREENSHOTS_DIR")
	if dir == "" {
		t.Skip("set SCREENSHOTS_DIR to write screenshots of the main pages (make screenshots)")
	}
	if !filepath.IsAbs(dir) {
		root, err := filepath.Abs(filepath.Join("..", ".."))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
			t.Fatalf("module root not found from the package directory: %v", err)
		}
		dir = filepath.Join(root, dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// shotLangs are the languages screenshots are taken in: $SCREENSHOTS_LANGS
// (codes separated by spaces), English by default.
func shotLangs() []string {
	if l := strings.Fields(os.Getenv("SCREENSHOTS_LANGS")); len(l) > 0 {
		return l
	}
	return []string{"en"}
}

// shoot writes full-page PNGs of the tab's page at every size and in every
// language of shotLangs, named NAME-desktop.png and NAME-phone.png (with
// the language code before the size when it is not English), and leaves
// the tab at desktop size, in English.
func (tb *tab) shoot(dir, name string) {
	tb.b.t.Helper()
	langs := shotLangs()
	for _, l := range langs {
		if len(langs) > 1 || l != "en" {
			tb.setLang(l)
		}
		n := name
		if l != "en" {
			n += "-" + l
		}
		tb.shootSizes(dir, n)
	}
	if len(langs) > 1 || langs[0] != "en" {
		tb.setLang("en")
	}
}

// setLang chooses the site's language with the form at the foot of every
// page, which comes back to the same page.
func (tb *tab) setLang(code string) {
	tb.b.t.Helper()
	tb.must(tb.do(10*time.Second, chromedp.SetValue(chromedp.ID("lang-foot"), code)))
	tb.must(tb.click(`footer .lang-form button[type=submit]`, "Change language"))
	tb.must(tb.waitFor(fmt.Sprintf(`document.documentElement.lang === %q`, code), 10*time.Second, "the page in "+code))
}

func (tb *tab) shootSizes(dir, name string) {
	tb.b.t.Helper()
	for _, scheme := range []string{"light", "dark"} {
		tb.setScheme(scheme)
		for _, s := range shotSizes {
			opts := []chromedp.EmulateViewportOption{chromedp.EmulatePortrait}
			if s.mobile {
				opts = append(opts, chromedp.EmulateMobile)
			}
			tb.must(tb.do(10*time.Second, chromedp.EmulateViewport(s.width, s.height, opts...)))
			time.Sleep(100 * time.Millisecond) // let the layout settle at the new size
			// What moves (a final score building up, news arriving) has come
			// to rest.
			tb.must(tb.waitFor(`document.getAnimations().every((x) => x.playState !== 'running' || x.effect.getTiming().iterations === Infinity)`, 10*time.Second, "the page at rest"))
			png, err := tb.screenshot()
			tb.must(err)
			file := fmt.Sprintf("%s-%s.png", name, s.name)
			if scheme == "dark" {
				file = fmt.Sprintf("%s-%s-dark.png", name, s.name)
			}
			path := filepath.Join(dir, file)
			if err := os.WriteFile(path, png, 0o644); err != nil {
				tb.b.t.Fatal(err)
			}
			tb.b.t.Logf("wrote %s", path)
		}
	}
	tb.setScheme("")
	tb.must(tb.do(10*time.Second, chromedp.EmulateViewport(1280, 800)))
}

// setScheme emulates the system's colour scheme ("light", "dark"; "" for
// none).
func (tb *tab) setScheme(scheme string) {
	tb.b.t.Helper()
	var features []*emulation.MediaFeature
	if scheme != "" {
		features = []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}
	}
	tb.must(tb.do(5*time.Second, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: features})
		return err
	})))
}

// shootScreen writes what the screen shows (not the whole page) at a
// size, light: the README's pictures of a game in progress.
func (tb *tab) shootScreen(dir, file string, width, height int64, mobile bool) {
	tb.b.t.Helper()
	opts := []chromedp.EmulateViewportOption{chromedp.EmulatePortrait}
	if mobile {
		opts = append(opts, chromedp.EmulateMobile)
	}
	tb.must(tb.do(10*time.Second, chromedp.EmulateViewport(width, height, opts...)))
	time.Sleep(100 * time.Millisecond)
	_, err := eval[bool](tb, `(() => { window.scrollTo(0, 0); return true; })()`) // the page's top, as it opens
	tb.must(err)
	ctx, cancel := context.WithTimeout(tb.ctx, 5*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) ([]byte, error) {
		res, err := cdp.Call(ctx, t, page.CaptureScreenshot, page.CaptureScreenshotParams{Format: page.CaptureScreenshotFormatPng})
		return res.Data, err
	})
	tb.must(err)
	if err := os.WriteFile(filepath.Join(dir, file), png, 0o644); err != nil {
		tb.b.t.Fatal(err)
	}
	tb.must(tb.do(10*time.Second, chromedp.EmulateViewport(1280, 800)))
}

// TestScreenshots writes full-page screenshots of the main pages at desktop
// (1280×800) and phone (390×844) sizes, light and dark, into
// $SCREENSHOTS_DIR: the landing page, sign-up, home (my games and the new
// game form), settings, a game waiting for players, every state of a turn
// (the hand, a tile chosen, rotated, a cell chosen with the tile on it and
// what it brings, a fill choice, a choice waiting, another's turn) and
// the final scores; and the README's two pictures of a game in progress
// (what the screen shows, readme-desktop.png and readme-phone.png).
// `make screenshots` runs it.
func TestScreenshots(t *testing.T) {
	dir := screenshotsDir(t)
	s := seededSite(t)
	// One tab visits many pages: without the back/forward cache, or the
	// streams of the pages left behind use up Chrome's connections to the
	// site (TestBrowserManyPageVisits).
	b := newBrowser(t, true, s.logs, withoutBFCache)
	a := b.newTab("alice", true)

	a.must(a.navigate(s.base + "/"))
	a.shoot(dir, "01-landing")
	a.must(a.navigate(s.base + "/signup"))
	a.shoot(dir, "02-signup")
	a.must(a.navigate(s.base + "/rules"))
	a.shoot(dir, "02-rules")
	a.shootLearn(dir, s.base)
	alice := s.user("alice")
	a.logIn(s.base, "alice", "")

	a.createGame(s.base, "open")
	a.must(a.waitFor(`!!document.querySelector('#game-main code')`, 10*time.Second, "the invite link"))
	a.shoot(dir, "03-game-waiting")
	// A game against the bot, a few turns in.
	id := s.botGame(alice, "greedy")
	s.playUntil(id, afterTurns(alice, 4))
	game := s.gameURL(id)
	a.must(a.navigate(s.base + "/"))
	a.must(a.waitFor(`document.querySelectorAll('#home-lists tbody tr').length >= 2`, 10*time.Second, "both games on the home page"))
	a.shoot(dir, "04-home")
	a.must(a.navigate(s.base + "/settings"))
	a.shoot(dir, "05-settings")

	// Every state of a turn: the hand, a tile chosen, rotated, a cell
	// chosen with the tile on it and what it brings.
	a.must(a.navigate(game))
	a.must(a.waitFor(`typeof window.htmx !== 'undefined'`, 10*time.Second, "htmx"))
	for a.mustState().Choice {
		a.must(a.click(`#confirm-choice`, "Confirm choice"))
	}
	a.shoot(dir, "06a-turn-hand")
	a.chooseTileWithPlaces(1)
	// A tile that turning changes, when the hand has one (1111 is the same
	// every way round).
	for _, w := range a.mustState().Tiles {
		if w != "1111" {
			a.must(a.click(fmt.Sprintf(`.hand a[data-tile=%q]`, w), "tile "+w))
			for r := 0; r < 3 && len(a.mustState().Cells) == 0; r++ {
				a.must(a.click(rotateSel, "Rotate"))
			}
			break
		}
	}
	if len(a.mustState().Cells) == 0 {
		a.chooseTileWithPlaces(1)
	}
	a.shoot(dir, "06b-turn-tile")
	// Turned once, or on to a turn with places (unless the hand has only
	// 1111, which does not turn).
	for r := 0; a.mustState().Rotate && (r == 0 || r < 3 && len(a.mustState().Cells) == 0); r++ {
		a.must(a.click(rotateSel, "Rotate"))
	}
	if len(a.mustState().Cells) == 0 {
		a.chooseTileWithPlaces(1)
	}
	a.shoot(dir, "06c-turn-rotated")
	// A cell that brings something (the move drawn with its gains), if any.
	cell := a.mustState().Cells[0]
	if c, err := eval[string](a, `(() => { const a = [...document.querySelectorAll('#board a.cell')].find((a) => /: you: /.test(a.getAttribute('aria-label'))); return a ? a.getAttribute('data-cell') : ''; })()`); err == nil && c != "" {
		cell = c
	}
	a.must(a.click(fmt.Sprintf(`#board a.cell[data-cell=%q]`, cell), "cell "+cell))
	a.shoot(dir, "06-game-move")
	a.shootScreen(dir, "readme-desktop.png", 1280, 800, false)
	a.shootScreen(dir, "readme-phone.png", 390, 844, true)
	// A fill choice near the end, a choice waiting, and another's turn.
	if fid, ok := s.gameAt(func() uint { return s.botGame(alice, "greedy") }, fillChoiceNearTheEnd(alice, 6), 20); ok {
		a.must(a.navigate(s.gameURL(fid)))
		a.must(a.waitFor(`typeof window.htmx !== 'undefined'`, 10*time.Second, "htmx"))
		for a.mustState().Choice {
			a.must(a.click(`#confirm-choice`, "Confirm choice"))
		}
		if a.chooseCellWithFills() {
			// From the top, as the other shots: choosing scrolled the page.
			_, err := eval[bool](a, `(() => { window.scrollTo(0, 0); return true; })()`)
			a.must(err)
			a.shoot(dir, "06d-turn-fill")
		}
	}
	if pid, ok := s.gameAt(func() uint { return s.botGame(alice, "greedy") }, choicePending(alice), 20); ok {
		a.must(a.navigate(s.gameURL(pid)))
		a.must(a.waitFor(`!!document.querySelector('#pending')`, 10*time.Second, "the waiting choice"))
		a.shoot(dir, "06e-turn-waiting-choice")
	}
	bob := s.user("bob")
	other := s.gameBetween(alice, bob)
	s.playUntil(other, toPlay(bob))
	a.must(a.navigate(s.gameURL(other)))
	a.must(a.waitFor(`document.readyState === 'complete'`, 10*time.Second, "the game page"))
	a.shoot(dir, "06f-others-turn")

	s.playUntil(id, finished)
	a.must(a.navigate(game))
	a.checkFinal(2)
	a.shoot(dir, "07-game-final")
	t.Logf("screenshots in %s", dir)
}

// overflowJS lists the outermost elements wider than the viewport, when the
// page is.
const overflowJS = `(() => {
	const w = document.documentElement.clientWidth;
	if (document.documentElement.scrollWidth <= w) return [];
	const wide = [...document.body.querySelectorAll('*')].filter((e) => e.getBoundingClientRect().right > w + 1);
	const outer = wide.filter((e) => !wide.includes(e.parentElement));
	return [document.documentElement.scrollWidth + 'px wide'].concat(outer.slice(0, 4).map((e) =>
		e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '') +
		(e.getAttribute('aria-label') ? '[aria-label="' + e.getAttribute('aria-label') + '"]' : '') +
		' in ' + (e.closest('[id]') ? '#' + e.closest('[id]').id : 'body')));
})()`

// TestBrowserPhoneWidth: on a 390px-wide phone no page scrolls sideways:
// landing, sign-up, home, settings, a game waiting for players (the invite
// link), a game being played (tile and cell chosen) and the final scores.
func TestBrowserPhoneWidth(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	// One tab visits many pages: without the back/forward cache
	// (TestBrowserManyPageVisits).
	b := newBrowser(t, true, s.logs, withoutBFCache)
	a := b.newTab("alice", true)
	a.must(a.do(10*time.Second, chromedp.EmulateViewport(390, 844, chromedp.EmulatePortrait, chromedp.EmulateMobile)))
	var problems []string
	check := func(what string) {
		t.Helper()
		wide, err := eval[[]string](a, overflowJS)
		a.must(err)
		if len(wide) > 0 {
			problems = append(problems, fmt.Sprintf("%s (%s) is %s: %s", what, a.location(), wide[0], strings.Join(wide[1:], ", ")))
		}
	}
	a.must(a.navigate(s.base + "/"))
	check("the landing page")
	a.must(a.navigate(s.base + "/signup"))
	check("the sign-up page")
	alice := s.user("alice")
	a.logIn(s.base, "alice", "")
	a.createGame(s.base, "open")
	check("a game waiting for players")
	// A game against the bot, a few turns in.
	id := s.botGame(alice, "random")
	s.playUntil(id, afterTurns(alice, 4))
	game := s.gameURL(id)
	a.must(a.navigate(s.base + "/"))
	check("the home page")
	a.must(a.navigate(s.base + "/settings"))
	check("the settings page")
	a.must(a.navigate(game))
	a.must(a.waitFor(`typeof window.htmx !== 'undefined'`, 10*time.Second, "htmx"))
	p := play{game: game, until: func(st pageState) bool { return st.Confirm }, limit: 60 * time.Second, stall: 20 * time.Second, reloadIdle: true}
	playToEnd(b, p, a)
	check("a game with a tile and a cell chosen")
	s.playUntil(id, finished)
	a.must(a.navigate(game))
	a.must(a.waitFor(`!!document.querySelector('#final')`, 10*time.Second, "the final scores"))
	check("the final scores")
	if len(problems) > 0 {
		b.fatalf("a 390px-wide phone must scroll sideways:\n%s", strings.Join(problems, "\n"))
	}
}

// chooseCellWithFills chooses a tile, a rotation and a cell whose jungle
// can be filled in more than one way, if the hand has one.
func (tb *tab) chooseCellWithFills() bool {
	tb.b.t.Helper()
	for _, w := range tb.mustState().Tiles {
		tb.must(tb.click(fmt.Sprintf(`.hand a[data-tile=%q]`, w), "tile "+w))
		for r := 0; r < 4; r++ {
			for _, c := range tb.mustState().Cells {
				css := fmt.Sprintf(`#board a.cell[data-cell=%q]`, c)
				if !tb.reachable(css) { // e.g. under the hand laid over the board's foot
					continue
				}
				tb.must(tb.click(css, "cell "+c))
				if n, _ := eval[int](tb, `document.querySelectorAll('#play fieldset.fills a').length`); n > 0 {
					return true
				}
			}
			if !tb.mustState().Rotate { // 1111 does not turn
				break
			}
			tb.must(tb.click(rotateSel, "Rotate"))
		}
	}
	return false
}

// reachable reports whether a click at the middle of the first element
// matching css lands on it; where it does not as the page stands (covered,
// off the screen), the element is first scrolled to the middle of its
// scrolling boxes. A page where it is reachable is not scrolled: scrolling
// would slide the hand under the bar of the move, which a player at a
// laptop, with the board whole on the screen, never does.
func (tb *tab) reachable(css string) bool {
	tb.b.t.Helper()
	ok, err := eval[bool](tb, fmt.Sprintf(`(() => {
	const el = document.querySelector(%q);
	if (!el) return false;
	const hits = () => {
		const r = el.getBoundingClientRect();
		const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
		return !!hit && (el.contains(hit) || hit.contains(el));
	};
	if (hits()) return true;
	el.scrollIntoView({block: 'center', inline: 'center'});
	return hits();
})()`, css))
	tb.must(err)
	return ok
}
