package main

// The accessibility test: axe-core (an npm package used only by this test,
// pinned in testdata/axe) runs in headless Chromium on every page and every
// state of a game, in the light and the dark colour scheme, at desktop and
// phone sizes. A serious or critical violation fails the test; moderate and
// minor ones are logged.

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"cacao/handlers"
	"cacao/handlers/mail"
	"cacao/models"
)

// axeDir holds package.json and package-lock.json pinning axe-core.
const axeDir = "testdata/axe"

// axeSource returns axe.min.js, running `npm ci` in testdata/axe first when
// it is not installed (.ci/run installs it). Without it the test skips, or
// fails when CI=true.
func axeSource(t *testing.T) string {
	t.Helper()
	path := filepath.Join(axeDir, "node_modules", "axe-core", "axe.min.js")
	if _, err := os.Stat(path); err != nil {
		ci := os.Getenv("CI") == "true" || os.Getenv("CI") == "1"
		npm, err := exec.LookPath("npm")
		if err != nil {
			if ci {
				t.Fatal("npm not found: CI must run the accessibility test (.ci/run installs nodejs and npm, then axe-core)")
			}
			t.Skip("npm not found: install Node.js and npm to run the accessibility test (it installs axe-core from testdata/axe)")
		}
		cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = axeDir
		if out, err := cmd.CombinedOutput(); err != nil {
			if ci {
				t.Fatalf("npm ci in %s: %v\n%s", axeDir, err, out)
			}
			t.Skipf("npm ci in %s failed, so axe-core is missing: %v\n%s", axeDir, err, out)
		}
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("axe-core: %v", err)
	}
	return string(src)
}

// a11yVariant is one way of showing a page: a window size and a colour scheme.
type a11yVariant struct {
	name          string
	width, height int64
	mobile, dark  bool
}

var a11yVariants = []a11yVariant{
	{"desktop light", 1280, 800, false, false},
	{"desktop dark", 1280, 800, false, true},
	{"phone light", 390, 844, true, false},
	{"phone dark", 390, 844, true, true},
}

// show sets the tab's viewport and preferred colour scheme.
func (v a11yVariant) show() chromedp.Action[chromedp.Void] {
	scheme := "light"
	if v.dark {
		scheme = "dark"
	}
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		opts := []chromedp.EmulateViewportOption{}
		if v.mobile {
			opts = append(opts, chromedp.EmulatePortrait, chromedp.EmulateMobile)
		}
		if _, err := chromedp.EmulateViewport(v.width, v.height, opts...)(ctx, t); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		return err
	})
}

// axeRunJS runs axe on the whole document for WCAG 2.0, 2.1 and 2.2 A and AA
// and the best practices, and tells whether the game area stayed the same
// element meanwhile (an htmx swap during the run makes the result unsure).
const axeRunJS = `(async () => {
	const m = document.getElementById('game-main');
	const r = await axe.run(document, {
		runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']},
		resultTypes: ['violations'],
	});
	return {
		stable: document.getElementById('game-main') === m && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling'),
		violations: r.violations.map((v) => ({
			id: v.id, impact: v.impact || '', help: v.help,
			nodes: v.nodes.map((n) => ({
				target: n.target.map((s) => Array.isArray(s) ? s.join(' >>> ') : String(s)).join(', '),
				impact: n.impact || v.impact || '',
				html: n.html.replace(/\s+/g, ' ').slice(0, 160),
				summary: (n.failureSummary || '').replace(/\s+/g, ' ').slice(0, 300),
			})),
		})),
	};
})()`

type axeResult struct {
	Stable     bool `json:"stable"`
	Violations []struct {
		ID     string `json:"id"`
		Impact string `json:"impact"`
		Help   string `json:"help"`
		Nodes  []struct {
			Target  string `json:"target"`
			Impact  string `json:"impact"`
			HTML    string `json:"html"`
			Summary string `json:"summary"`
		} `json:"nodes"`
	} `json:"violations"`
}

// a11yFinding is one element failing one rule on one page or state, and the
// variants it fails in.
type a11yFinding struct {
	state, rule, impact, help, target, html, summary string
	variants                                         []string
}

// auditor runs axe and collects what it finds.
type auditor struct {
	t        *testing.T
	axe      string
	findings map[string]*a11yFinding // by state, rule and target
	order    []string
	states   []string
	shots    string // $A11Y_SCREENSHOTS: a PNG of every state and variant
}

// check runs axe on the tab's page in every variant, then puts the tab back
// at desktop size in the light scheme. name says which page or state it is.
func (au *auditor) check(tb *tab, name string) {
	au.t.Helper()
	opened(tb.location())
	start := time.Now()
	for _, v := range a11yVariants {
		tb.must(tb.do(10*time.Second, v.show()))
		var res axeResult
		for try := 1; ; try++ {
			var err error
			res, err = au.run(tb)
			if err == nil && res.Stable {
				break
			}
			if try == 3 {
				if err == nil {
					err = fmt.Errorf("the page changed during every run")
				}
				tb.b.fatalf("%s: axe on %s (%s, %s): %v", tb.name, name, v.name, tb.location(), err)
			}
			au.t.Logf("%s: axe on %s (%s) again: %v (stable %v)", tb.name, name, v.name, err, res.Stable)
			time.Sleep(200 * time.Millisecond)
		}
		for _, viol := range res.Violations {
			for _, n := range viol.Nodes {
				key := name + "\x00" + viol.ID + "\x00" + n.Target
				f := au.findings[key]
				if f == nil {
					f = &a11yFinding{state: name, rule: viol.ID, impact: n.Impact, help: viol.Help, target: n.Target, html: n.HTML, summary: n.Summary}
					au.findings[key] = f
					au.order = append(au.order, key)
				}
				if severe(n.Impact) && !severe(f.impact) {
					f.impact, f.summary = n.Impact, n.Summary
				}
				f.variants = append(f.variants, v.name)
			}
		}
		if au.shots != "" {
			if png, err := tb.screenshot(); err == nil {
				file := strings.NewReplacer(" ", "-", "/", "-", "'", "", ",", "", "(", "", ")", "", ":", "").Replace(fmt.Sprintf("%02d-%s-%s.png", len(au.states), name, v.name))
				_ = os.WriteFile(filepath.Join(au.shots, file), png, 0o644)
			}
		}
	}
	tb.must(tb.do(10*time.Second, a11yVariants[0].show()))
	au.states = append(au.states, name)
	au.t.Logf("checked %s (%s) in %v", name, tb.location(), time.Since(start).Round(time.Millisecond))
}

// run injects axe-core when the page does not have it yet (a page load loses
// it; an htmx swap keeps it) and runs it once.
func (au *auditor) run(tb *tab) (axeResult, error) {
	if err := tb.waitFor(`document.readyState === 'complete' && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')`, 10*time.Second, "the page to settle"); err != nil {
		return axeResult{}, err
	}
	ctx, cancel := context.WithTimeout(tb.ctx, 30*time.Second)
	defer cancel()
	loaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof window.axe === 'object'`))
	if err != nil {
		return axeResult{}, err
	}
	if !loaded {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](au.axe)); err != nil {
			return axeResult{}, fmt.Errorf("injecting axe-core: %w", err)
		}
	}
	return chromedp.Run(ctx, chromedp.Evaluate[axeResult](axeRunJS, chromedp.EvalAwaitPromise))
}

func severe(impact string) bool { return impact == "serious" || impact == "critical" }

// report fails the test with every serious or critical violation and logs
// the others.
func (au *auditor) report() {
	au.t.Helper()
	var bad, minor []string
	for _, key := range au.order {
		f := au.findings[key]
		where := ""
		if len(f.variants) < len(a11yVariants) {
			where = " [" + strings.Join(f.variants, ", ") + "]"
		}
		line := fmt.Sprintf("%s — %s (%s): %s\n    %s%s\n      %s\n      %s", f.state, f.rule, f.impact, f.help, f.target, where, f.html, f.summary)
		if severe(f.impact) {
			bad = append(bad, line)
		} else {
			minor = append(minor, line)
		}
	}
	if len(minor) > 0 {
		au.t.Logf("axe found %d moderate or minor problems:\n%s", len(minor), strings.Join(minor, "\n"))
	}
	rules := map[string]bool{}
	for _, key := range au.order {
		if f := au.findings[key]; severe(f.impact) {
			rules[f.rule] = true
		}
	}
	ids := slices.Sorted(maps.Keys(rules))
	if len(bad) > 0 {
		au.t.Errorf("axe found %d serious or critical violations (rules %s) on %d pages and states checked:\n%s",
			len(bad), strings.Join(ids, ", "), len(au.states), strings.Join(bad, "\n"))
	}
}

// a11yGameState names the state of a game page for the audit, "" for one
// not to check (e.g. a tile chosen that has no legal cell).
const a11yGameStateJS = `(() => {
	const q = (s) => document.querySelector(s);
	if (q('#final')) return 'finished game (scores)';
	if (q('form[action$="/resolve"] button[type=submit]')) return 'pending worker choice';
	if (q('form[action$="/turn"] button[type=submit]')) {
		return document.querySelectorAll('#play fieldset li').length > 1 ? 'cell chosen, several fill options' : 'cell chosen (preview and confirm)';
	}
	if (!q('#play') || q('#play [role=alert]')) return '';
	if (q('.hand a[aria-current="true"]')) return q('#board a') ? 'tile chosen (legal cells highlighted)' : '';
	// My turn with nothing chosen, or the opponent's turn: the play panel
	// tells them apart.
	return 'play:' + q('#play').innerText;
})()`

// fillProbeJS looks, for the chosen tile, for a legal cell whose placement
// offers several ways to fill the jungle, by fetching each cell's page; it
// returns that cell's link, or "".
const fillProbeJS = `(async () => {
	for (const a of document.querySelectorAll('#board a')) {
		const href = a.getAttribute('href');
		const r = await fetch(href, {credentials: 'same-origin'});
		if (!r.ok) continue;
		const doc = new DOMParser().parseFromString(await r.text(), 'text/html');
		if (doc.querySelectorAll('#play fieldset li').length > 1 && doc.querySelector('form[action$="/turn"] button[type=submit]')) return href;
	}
	return '';
})()`

// TestA11y: axe-core reports no serious or critical violation on any page,
// signed out and in, nor in any state of a game (waiting for players, my
// turn, a tile and a cell chosen, several ways to fill the jungle, a pending
// choice of workers, the opponent's turn, the final scores), in the light and
// the dark colour scheme, at desktop (1280×800) and phone (390×844) sizes.
// Set A11Y_SCREENSHOTS to a folder to get a PNG of each. The pages signed
// out, the pages signed in and the states of a game are checked side by
// side, each on a site of its own.
func TestA11y(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("browser tests are skipped with -short")
	}
	// Once every part below has run (t.Run's parallel tests end first).
	t.Cleanup(func() {
		if !t.Failed() {
			checkEveryPageOpened(t)
		}
	})
	axe, shots := axeSource(t), os.Getenv("A11Y_SCREENSHOTS")
	if shots != "" {
		if err := os.MkdirAll(shots, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// audit starts a site and a browser for f and reports what axe found.
	audit := func(name string, f func(t *testing.T, au *auditor, s *site, b *browser)) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			au := &auditor{t: t, axe: axe, findings: map[string]*a11yFinding{}, shots: shots}
			s := seededSite(t)
			// Tabs visit many pages: without the back/forward cache
			// (TestBrowserManyPageVisits).
			b := newBrowser(t, true, s.logs, withoutBFCache)
			defer au.report()
			f(t, au, s, b)
			t.Logf("axe-core checked %d pages and states in %d variants in %v", len(au.states), len(a11yVariants), time.Since(start).Round(time.Second))
		})
	}

	audit("signed out", func(t *testing.T, au *auditor, s *site, b *browser) {
		a := b.newTab("visitor", true)
		a.must(a.navigate(s.base + "/"))
		au.check(a, "landing page (signed out)")
		a.must(a.navigate(s.base + "/signup"))
		au.check(a, "sign-up page")
		a.must(a.navigate(s.base + "/login"))
		au.check(a, "log-in page")
		a.must(a.do(10*time.Second,
			chromedp.SendKeys(chromedp.ID("username"), "nobody"),
			chromedp.SendKeys(chromedp.ID("password"), "not the password"),
		))
		a.must(a.click(`#main form button[type=submit]`, "Log in"))
		a.must(a.waitFor(`!!document.querySelector('#main .error')`, 10*time.Second, "the wrong-password error"))
		au.check(a, "log-in page with a wrong-password error")
		a.must(a.navigate(s.base + "/reset"))
		au.check(a, "forgotten password page")
		// The page a reset mail's link opens: a link signed as the site's
		// mail signs it.
		u := s.user("carol")
		signer, err := handlers.LinkSigner(s.store)
		a.must(err)
		tok := signer.Sign(mail.Claims{Purpose: mail.PurposeReset, User: u.ID, Version: u.TokenVersion, Exp: time.Now().Add(time.Hour)})
		a.must(a.navigate(s.base + "/reset/new?t=" + tok))
		au.check(a, "new password page (a reset mail's link)")
		// Playing as a guest: a private table's link offers a guest seat;
		// /play makes a guest, whose game page and home page offer to make
		// an account, as /account does on its own, and /logout before the
		// guest's games are lost.
		table, err := s.store.CreateGame(u, models.GameSpec{Seats: []string{models.SeatOpen}, Private: true})
		a.must(err)
		a.must(a.navigate(s.base + "/join/" + table.InviteToken))
		au.check(a, "join page (a private table's link: play as a guest)")
		a.must(a.navigate(s.base + "/play"))
		au.check(a, "play a bot now (a visitor: as a guest)")
		game := a.playAsGuest(s.base, "gus")
		a.must(a.waitFor(`!!document.querySelector('#board') && !!document.querySelector('#account-name')`, 10*time.Second, "the guest's game"))
		au.check(a, "a guest's game against the easy bot (make an account offered)")
		a.must(a.navigate(s.base + "/"))
		au.check(a, "home (a guest: make an account offered)")
		a.must(a.navigate(s.base + "/account?next=" + url.QueryEscape(game)))
		au.check(a, "make an account (a guest)")
		a.must(a.navigate(s.base + "/logout"))
		au.check(a, "log out (a guest: warned that their games will be lost)")
		a.must(a.navigate(s.base + "/play"))
		au.check(a, "play a bot now (signed in)")
	})

	audit("tutorial", func(t *testing.T, au *auditor, s *site, b *browser) {
		// Every step of /learn as a visitor opens it, and the states of a
		// lesson's move: the tile chosen and turned (its cell marked), the
		// move chosen, a wrong try explained.
		a := b.newTab("visitor", true)
		a.must(a.navigate(s.base + "/learn"))
		au.check(a, "tutorial: introduction")
		a.must(a.navigate(s.base + "/learn/1"))
		au.check(a, "tutorial: a lesson")
		a.must(a.click(`#hand a.tile.coach`, "the lesson's tile"))
		au.check(a, "tutorial: the lesson's tile chosen (how to turn it shown)")
		for r := 0; r < 4; r++ {
			if ok, _ := eval[bool](a, `!!document.querySelector('#place-cells a.cell.coach')`); ok {
				break
			}
			a.must(a.click(rotateSel, "Rotate"))
		}
		au.check(a, "tutorial: the lesson's tile turned, its cell marked")
		a.must(a.click(`#place-cells a.cell.coach`, "the lesson's cell"))
		au.check(a, "tutorial: the lesson's move chosen")
		a.must(a.click(`#place-cells a.cell:not(.coach)`, "another cell"))
		au.check(a, "tutorial: a wrong try explained")
		for n := 2; ; n++ {
			a.must(a.navigate(fmt.Sprintf("%s/learn/%d", s.base, n)))
			au.check(a, fmt.Sprintf("tutorial: step %d", n))
			if ok, _ := eval[bool](a, `!!document.querySelector('#learn-play')`); ok || n > 12 {
				break
			}
		}
	})

	audit("signed in", func(t *testing.T, au *auditor, s *site, b *browser) {
		// A game waiting for players, as its creator and as another
		// player (who can take the seat), and the invite link's page.
		s.user("alice")
		s.user("bob")
		a, bob := b.newTab("alice", true), b.newTab("bob", true)
		a.logIn(s.base, "alice", "")
		bob.logIn(s.base, "bob", "")
		a.must(a.navigate(s.base + "/no-such-page"))
		au.check(a, "404 page")
		a.must(a.navigate(s.base + "/rules"))
		au.check(a, "rules page")
		a.must(a.navigate(s.base + "/api"))
		au.check(a, "the API's page")
		game := a.createGame(s.base, "open")
		a.must(a.waitFor(`!!document.querySelector('#game-main code')`, 10*time.Second, "the invite link"))
		au.check(a, "game waiting for players (its creator, invite link)")
		invite := a.text("#game-main code")
		bob.must(bob.navigate(game))
		au.check(bob, "game waiting for players (another player: take a seat)")
		bob.must(bob.navigate(invite))
		au.check(bob, "join page (invite link)")
		bob.must(bob.click(`#main form button[type=submit]`, "Take a seat"))

		// The home page with games listed, settings and notifications.
		solo := a.createGame(s.base, "medium")
		if ok, _ := eval[bool](a, `!!document.querySelector('#hint-button')`); ok {
			a.must(a.click(`#hint-button`, "Hint"))
			a.must(a.waitFor(`!!document.querySelector('#hint')`, 10*time.Second, "the hint"))
			au.check(a, "game against a bot, a hint shown")
		} else {
			t.Errorf("alice's game against the medium bot, %s, offers no hint on her turn", solo)
		}
		a.must(a.navigate(s.base + "/"))
		a.must(a.waitFor(`document.querySelectorAll('#home-lists tbody tr').length >= 2`, 10*time.Second, "both games on the home page"))
		au.check(a, "home (signed in: my games, new game form)")
		a.must(a.navigate(s.base + "/settings"))
		au.check(a, "settings")
		a.must(a.navigate(s.base + "/notifications"))
		au.check(a, "notifications")
	})

	audit("chat and admin", func(t *testing.T, au *auditor, s *site, b *browser) {
		// A game with messages in its chat (and in the since panel), a
		// page of the chat alone, and the admin pages with a reported
		// message.
		alice, bobUser := s.user("alice"), s.user("bob")
		id := s.gameBetween(alice, bobUser)
		s.playUntil(id, afterTurns(alice, 2))
		var last models.ChatMessage
		for i := 0; i < 3; i++ {
			time.Sleep(models.ChatGap)
			m, err := s.store.Say([]*models.User{bobUser, alice}[i%2], id, fmt.Sprintf("message %d, with a link https://example.com/%d", i, i))
			if err != nil {
				t.Fatal(err)
			}
			last = m
		}
		if err := s.store.ReportChat(alice.ID, id, last.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.store.SetAdmin("alice", true); err != nil {
			t.Fatal(err)
		}
		a := b.newTab("alice", true)
		s.openGame(a, "alice", id)
		au.check(a, "game with chat messages")
		a.must(a.navigate(fmt.Sprintf("%s/chat?before=%d", s.gameURL(id), last.ID)))
		au.check(a, "a page of the chat alone")
		for _, page := range []string{"reports", "users", "users/bob", "games", "audit"} {
			a.must(a.navigate(s.base + "/admin/" + page))
			au.check(a, "admin: "+page)
		}
		// Profiles, the games being played, replays and records.
		done := s.gameBetween(alice, bobUser)
		s.playUntil(done, finished)
		if err := s.store.FollowUser(alice, "bob"); err != nil {
			t.Fatal(err)
		}
		// Tournaments: one open for sign-up, one whose first round is
		// played.
		signup := seedTournament(t, s, "Spring open", 3, bobUser)
		running := seedTournament(t, s, "Winter cup", 2, alice, bobUser, s.user("dave"))
		closeSignup(t, s, running.ID)
		endRound(t, s, running.ID)
		for _, page := range []struct{ path, name string }{
			{"/tournaments", "the tournaments"}, {"/tournaments/new", "the form that opens a tournament"},
			{fmt.Sprintf("/tournaments/%d", signup.ID), "a tournament open for sign-up"},
			{fmt.Sprintf("/tournaments/%d", running.ID), "a tournament's standings and rounds"},
			{"/users/alice", "a profile"}, {"/users/alice?opponent=nobody", "a profile, filtered by nobody"}, {"/ratings", "the leaderboard"},
			{"/users/bob", "a profile of someone followed"}, {"/following", "players I follow"},
			{"/games", "the games being played"}, {"/?finished=all", "my finished games"},
			{fmt.Sprintf("/games/%d", done), "a finished game (rematch offered)"},
			{fmt.Sprintf("/games/%d/turns/3", id), "a replay while the game runs"}, {fmt.Sprintf("/games/%d/turns/0", done), "a replay's start, game over"},
			{fmt.Sprintf("/games/%d/turns/9", done), "a replay, game over (every hand)"},
			{fmt.Sprintf("/games/%d/log", id), "a game's whole log"}, {fmt.Sprintf("/games/%d/resign", id), "resigning, asked to confirm (without JavaScript)"},
			{fmt.Sprintf("/games/%d/review", done), "the review of my turns, to ask for"},
			{"/replay", "the form for a record"}, // last: the record is tried on it below
		} {
			a.must(a.navigate(s.base + page.path))
			au.check(a, page.name)
		}
		// A review made, and a turn of it with the bot's move drawn.
		turn := reviewed(t, s, done, alice, func() {})
		a.must(a.navigate(fmt.Sprintf("%s/games/%d/review", s.base, done)))
		au.check(a, "the review of my turns, made")
		a.must(a.navigate(fmt.Sprintf("%s/games/%d/turns/%d", s.base, done, turn)))
		au.check(a, "a turn reviewed, the bot's move on the board")
		a.must(a.navigate(s.base + "/replay"))
		a.must(a.do(10*time.Second, chromedp.SetValue("#record-text", `{"format":"nope"}`), chromedp.Click(`form[action="/replay"] button[type=submit]`)))
		a.must(a.waitFor(`!!document.querySelector('#record-error')`, 10*time.Second, "the refusal of a bad record"))
		au.check(a, "a record refused")
	})

	audit("game", func(t *testing.T, au *auditor, s *site, b *browser) {
		// Alice and Bob play the end of a game; each state of the game is
		// checked the first time either page shows it. The game starts at
		// alice's turn, where a cell offers several ways to fill the
		// jungle.
		alice, bobUser := s.user("alice"), s.user("bob")
		id, fill := s.gameAt(func() uint { return s.gameBetween(alice, bobUser) }, fillChoiceNearTheEnd(alice, 4), 10)
		if !fill {
			t.Logf("no game of 10 came to a cell with several ways to fill the jungle near its end: that state may not be checked")
			id = s.gameBetween(alice, bobUser)
			s.playUntil(id, nearTheEnd(alice, 4))
		}
		a, bob := b.newTab("alice", true), b.newTab("bob", true)
		s.openGame(a, "alice", id)
		s.openGame(bob, "bob", id)
		for _, tb := range []*tab{a, bob} {
			tb.must(tb.waitFor(`!!document.querySelector('#board')`, 10*time.Second, "the board"))
		}
		seen := map[string]bool{}
		playAudited(b, au, seen, s.gameURL(id), 3*time.Minute, nil, a, bob)

		// A pending choice of workers comes when another player's move
		// fires them; if none came, a game against the bot is played
		// until one waits for alice.
		if !seen["pending worker choice"] {
			id, ok := s.gameAt(func() uint { return s.botGame(alice, "greedy") }, choicePending(alice), 40)
			if !ok {
				t.Fatalf("no game of 40 against the greedy bot left alice a choice of workers")
			}
			a.must(a.navigate(s.gameURL(id)))
			a.must(a.waitFor(`typeof window.htmx !== 'undefined' && !!document.querySelector('form[action$="/resolve"] button[type=submit]') && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')`, 10*time.Second, "alice's pending choice"))
			auditState(au, seen, a)
		}
		want := []string{"my turn, nothing chosen", "tile chosen (legal cells highlighted)", "cell chosen (preview and confirm)",
			"cell chosen, several fill options", "pending worker choice", "opponent's turn", "finished game (scores)"}
		for _, state := range want {
			switch {
			case seen[state]:
			case state == "cell chosen, several fill options" && !fill:
				t.Logf("no move offered several ways to fill the jungle, so that state was not checked")
			default:
				t.Errorf("the game never showed the state %q, so it was not checked", state)
			}
		}
	})
}

// playAudited lets the tabs play (as playToEnd does) until every tab shows the
// final scores or done says so, checking each game state the first time a tab
// shows it.
func playAudited(b *browser, au *auditor, seen map[string]bool, game string, limit time.Duration, done func() bool, tabs ...*tab) {
	b.t.Helper()
	deadline := time.Now().Add(limit)
	lastAct := time.Now()
	retries := 0
	for {
		if done != nil && done() {
			return
		}
		if allDone(tabs, 0) {
			for _, tb := range tabs {
				auditState(au, seen, tb)
			}
			return
		}
		if time.Now().After(deadline) {
			b.fatalf("the game did not end within %v (%s)", limit, turnCounts(tabs))
		}
		acted := false
		for _, tb := range tabs {
			kind := auditState(au, seen, tb)
			if kind == "tile chosen (legal cells highlighted)" && !seen["cell chosen, several fill options"] {
				ctx, cancel := context.WithTimeout(tb.ctx, 10*time.Second)
				cell, err := chromedp.Run(ctx, chromedp.Evaluate[string](fillProbeJS, chromedp.EvalAwaitPromise))
				cancel()
				if err == nil && cell != "" {
					if err := tb.click(fmt.Sprintf(`#board a[href=%q]`, cell), "the cell "+cell); err != nil {
						b.t.Logf("retrying: %v", err)
					}
					acted = true
					continue
				}
			}
			confirmed := tb.turns + tb.choices
			ok, err := tb.step(game)
			if tb.turns+tb.choices > confirmed {
				for _, other := range tabs {
					other.stale = other != tb
				}
			}
			if err != nil {
				if retries++; retries > 20 || errors.Is(err, errStuck) {
					b.fatalf("%v", err)
				}
				b.t.Logf("retrying: %v", err)
				continue
			}
			acted = acted || ok
		}
		switch {
		case acted:
			lastAct = time.Now()
		case time.Since(lastAct) > 20*time.Second:
			b.fatalf("nothing to do for 20s (%s)", turnCounts(tabs))
		case len(tabs) == 1 && time.Since(lastAct) > time.Second:
			// Alone against the bot a page with nothing to do missed an
			// update (see TestBrowserBotGame): reload it.
			tabs[0].must(tabs[0].navigate(game))
			lastAct = time.Now()
		default:
			time.Sleep(30 * time.Millisecond)
		}
	}
}

// auditState checks the tab's game page if it shows a state not checked yet,
// and returns the state's name.
func auditState(au *auditor, seen map[string]bool, tb *tab) string {
	st, err := tb.state()
	if err != nil || st.Busy {
		return ""
	}
	kind, err := eval[string](tb, a11yGameStateJS)
	if err != nil {
		return ""
	}
	if rest, ok := strings.CutPrefix(kind, "play:"); ok {
		switch {
		case strings.Contains(st.PlayText, "Choose a tile from your hand."):
			kind = "my turn, nothing chosen"
		case strings.Contains(rest, "Waiting for"), strings.Contains(rest, "is thinking…"):
			kind = "opponent's turn"
		default:
			kind = ""
		}
	}
	if kind != "" && !seen[kind] {
		seen[kind] = true
		au.check(tb, "game: "+kind)
	}
	return kind
}
