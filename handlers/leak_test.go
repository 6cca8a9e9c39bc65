package handlers_test

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"cacao/engine"
	"cacao/models"
)

var tokenRE = regexp.MustCompile(`[A-Za-z0-9]{32}`)

// liveRE finds the version of the home page's live lists: the time of the
// last change, which differs between two sites run one after the other.
var liveRE = regexp.MustCompile(`/events\?since=\d+`)

// siteRE is the test site's address, each site's own (the API's page
// shows it in its examples).
var siteRE = regexp.MustCompile(`http://127\.0\.0\.1:\d+`)

// pushKeyRE is the site's push key, each site's own.
var pushKeyRE = regexp.MustCompile(`data-key="[A-Za-z0-9_-]+"`)

// leakSkipped are the GET routes the leak tests do not read, and why.
var leakSkipped = map[string]string{
	"/healthz":             "answers ok",
	"/readyz":              "answers ok, or that the database is away",
	"/static/*":            "the site's own files",
	"/favicon.ico":         "a redirect to a static file",
	"/sw.js":               "the service worker's script, a static file",
	"/events":              "a stream that names versions only (TestStreams)",
	"/games/:id/events":    "a stream that names versions only (TestStreams)",
	"/m/go":                "a signed link from a mail (the mail tests)",
	"/m/verify":            "a signed link from a mail (the mail tests)",
	"/m/unsubscribe":       "a signed link from a mail (the mail tests)",
	"/reset/new":           "a signed link from a mail (the reset tests)",
	"/api/v1/openapi.json": "the API's description, a file of the site's (TestOpenAPIMatchesRoutes)",
	"/api/v1/stream":       "a stream that names games, versions and chat messages only (TestAPIStream)",
}

// pagesFor lists every page and fragment a viewer can ask for in game id:
// each GET route of the router (s.routes, but leakSkipped), its :id the
// game, :name ana, :n its first turn, :token the game's invitation; the
// game page's live refetch and each step of choosing a move, plain and as
// htmx fragments. Whatever their status (a page may refuse the viewer),
// their bodies are checked.
func pagesFor(t *testing.T, s *site, c *client, id uint) map[string]string {
	t.Helper()
	out := map[string]string{}
	seat, l := s.seatOf(id, c.name)
	base := fmt.Sprintf("/games/%d", id)
	fill := strings.NewReplacer(":id", fmt.Sprint(id), ":name", "ana", ":n", "1") // :token stays in the page's name, each game's own
	urls := []string{base + "?live=1&from=0"}
	for _, r := range s.routes {
		if r.Method == http.MethodGet && leakSkipped[r.Path] == "" {
			urls = append(urls, fill.Replace(r.Path))
		}
	}
	sort.Strings(urls[1:]) // in one order (the router lists them as it likes): a page may leave a notice for the next
	if l.Play != nil && seat >= 0 {
		st := l.Play.State()
		for n, pl := range st.View(seat).Legal {
			urls = append(urls, base+"?tile="+pl.Tile.String(),
				fmt.Sprintf("%s?tile=%s&rot=%d", base, pl.Tile, (pl.Rot+1)%4),
				fmt.Sprintf("%s?tile=%s&rot=%d&at=%d,%d", base, pl.Tile, pl.Rot, pl.At.X, pl.At.Y))
			if n >= 3 {
				break
			}
		}
	}
	for _, name := range urls {
		u := strings.Replace(name, ":token", l.Game.InviteToken, 1)
		if strings.HasPrefix(u, "/api/") {
			// The API, with the viewer's access token (if any), its
			// requests a few seconds apart: within the token's pace.
			s.clock.Advance(5 * time.Second)
			_, out["API "+name] = c.api("GET", u, nil, nil)
			continue
		}
		for _, how := range []string{"GET", "HX"} {
			if name == "/settings/data" {
				s.clock.Advance(20 * time.Minute) // within the downloads' pace (exportKey)
			}
			var code int
			if how == "GET" {
				code, out["GET "+name] = c.get(u) // a 5xx fails the test
			} else {
				code, out["HX "+name] = c.htmx("GET", u, nil)
			}
			if code == http.StatusTooManyRequests {
				t.Fatalf("%s %s as %s: past its limit, its page is not checked", how, name, c.name)
			}
		}
	}
	return out
}

// TestLeakSkippedAreRoutes: every route the leak tests skip is one of the
// router's, so that the list cannot keep a route that went.
func TestLeakSkippedAreRoutes(t *testing.T) {
	s := newSite(t)
	have := map[string]bool{}
	for _, r := range s.routes {
		if r.Method == http.MethodGet {
			have[r.Path] = true
		}
	}
	for path := range leakSkipped {
		if !have[path] {
			t.Errorf("%s is skipped by the leak tests but is no GET route", path)
		}
	}
}

var handTileRE = regexp.MustCompile(`class="tile(?: turns)?" data-tile="(\d{4})"`)

// checkNoLeak asserts that a viewer's pages show their own hand and nothing
// of anybody else's, nor the piles or the setup.
func checkNoLeak(t *testing.T, s *site, c *client, id uint, pages map[string]string) {
	t.Helper()
	seat, l := s.seatOf(id, c.name)
	var own []string
	if l.Play != nil && seat >= 0 {
		for _, w := range l.Play.State().Player(seat).HandTiles() {
			own = append(own, w.String())
		}
	}
	sort.Strings(own)
	for name, body := range pages {
		// A finished game's record (its page, Download my data) shows its
		// deal: the game is over.
		if l.Game.Status == models.StatusActive {
			for _, mark := range []string{l.Game.Setup, `"workers":[`, `"jungle":[`} {
				// As JSON, or as a page's text or attribute writes it.
				if strings.Contains(body, mark) || strings.Contains(body, html.EscapeString(mark)) {
					t.Fatalf("%s as %s shows the setup (%s)", name, c.name, mark)
				}
			}
		}
		if !strings.Contains(name, fmt.Sprintf("/games/%d", id)) {
			continue
		}
		var shown []string
		for _, m := range handTileRE.FindAllStringSubmatch(body, -1) {
			shown = append(shown, m[1])
		}
		sort.Strings(shown)
		want := own
		_, rest, _ := strings.Cut(name, fmt.Sprintf("/games/%d", id))
		if rest != "" && rest[0] != '?' {
			want = nil // the log, a turn, the chat, the record show no hand at all
		}
		if strings.HasPrefix(name, "API ") {
			// The game's JSON holds the caller's hand alone; its other
			// answers none.
			var g struct{ Hand []string }
			_ = json.Unmarshal([]byte(body), &g)
			shown = append([]string(nil), g.Hand...)
			sort.Strings(shown)
			if rest != "" {
				want = nil
			}
		}
		if l.Game.Status == models.StatusActive && strings.Join(shown, " ") != strings.Join(want, " ") {
			t.Fatalf("%s as %s shows hand tiles %v; want %v", name, c.name, shown, want)
		}
	}
}

// TestNoPageLeaksHiddenInformation plays a game between two people and, after
// every move, renders every page and fragment for both, for an outsider,
// an admin, and for a watcher not signed in.
func TestNoPageLeaksHiddenInformation(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	eve := s.signup("eve")
	if _, err := s.store.SetAdmin("eve", true); err != nil {
		t.Fatal(err)
	}
	// The API's answers too, for each seat and for a watcher.
	ana.withToken()
	bob.withToken()
	eve.withToken(models.ScopeRead)
	anon := s.client("anon")
	r := engine.NewRand(3)
	for step := 0; step < 200; step++ {
		for _, c := range []*client{ana, bob, eve, anon} {
			checkNoLeak(t, s, c, id, pagesFor(t, s, c, id))
		}
		l, _ := s.store.LoadGame(id)
		if l.Game.Status == models.StatusFinished || step > 8 && testing.Short() {
			return
		}
		if !ana.act(id, r) && !bob.act(id, r) {
			t.Fatal("nobody could move")
		}
	}
}

// TestPagesDoNotDependOnHiddenInformation: two games dealt alike except for
// bob's tiles and the order of the jungle pile below the display look the
// same to ana, byte for byte (but for session tokens), before and after her
// first move.
func TestPagesDoNotDependOnHiddenInformation(t *testing.T) {
	deal := func(variant bool) models.Deal {
		return func(n int) ([]int, int, engine.Setup) {
			su, _ := engine.NewSetup(n, 11)
			if variant {
				b := append([]engine.Worker(nil), su.Workers[1]...)
				for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
					b[i], b[j] = b[j], b[i]
				}
				su.Workers[1] = b
				jg := append([]engine.Jungle(nil), su.Jungle...)
				rest := jg[2:]
				for i, j := 0, len(rest)-1; i < j; i, j = i+1, j-1 {
					rest[i], rest[j] = rest[j], rest[i]
				}
				su.Jungle = jg
			}
			return []int{0, 1}, 0, su
		}
	}
	_, _, a := deal(false)(2)
	_, _, b := deal(true)(2)
	if fmt.Sprint(a.Workers[1][:3]) == fmt.Sprint(b.Workers[1][:3]) || a.Jungle[2] == b.Jungle[2] {
		t.Fatal("the two deals must give bob different hands and the pile a different top")
	}
	var views [2]map[string]string
	for v := 0; v < 2; v++ {
		s := newSite(t, models.WithDealer(deal(v == 1)))
		ana, bob := s.signup("ana").withToken(), s.signup("bob")
		id := ana.createGame("open", "none", "none")
		bob.get("/")
		bob.post(fmt.Sprintf("/games/%d/join", id), nil)
		views[v] = pagesFor(t, s, ana, id)
		// Ana's first move, the same in both games (fills from the display only).
		_, l := s.seatOf(id, "ana")
		pl := l.Play.State().LegalPlacements(nil)[0]
		form := url.Values{"version": {fmt.Sprint(l.Game.Version)}, "tile": {pl.Tile.String()}, "rot": {fmt.Sprint(pl.Rot)}, "at": {fmt.Sprintf("%d,%d", pl.At.X, pl.At.Y)}}
		if code, _ := ana.post(fmt.Sprintf("/games/%d/turn", id), form); code != http.StatusOK {
			t.Fatalf("ana's move: %d", code)
		}
		for k, body := range pagesFor(t, s, ana, id) {
			views[v]["after "+k] = body
		}
	}
	if len(views[0]) != len(views[1]) || len(views[0]) < 10 {
		t.Fatalf("%d and %d pages", len(views[0]), len(views[1]))
	}
	for k, a := range views[0] {
		b := views[1][k]
		a, b = tokenRE.ReplaceAllString(a, "T"), tokenRE.ReplaceAllString(b, "T")
		a, b = liveRE.ReplaceAllString(a, "/events?since=V"), liveRE.ReplaceAllString(b, "/events?since=V")
		a, b = pushKeyRE.ReplaceAllString(a, "K"), pushKeyRE.ReplaceAllString(b, "K")
		a, b = siteRE.ReplaceAllString(a, "S"), siteRE.ReplaceAllString(b, "S")
		if a != b {
			t.Fatalf("%s differs with bob's hidden tiles:\n%s\n----\n%s", k, a, b)
		}
	}
}

// TestStrangersPostsToAPrivateGame: a signed-in stranger's post, plain or
// through htmx, to each POST route of a private game (every one of the
// router's under /games/:id) is refused without showing the game (its
// chat, board, villages or log) and changes nothing, as its page is not
// found for them.
func TestStrangersPostsToAPrivateGame(t *testing.T) {
	s := newSite(t)
	ana, bob, eve := s.signup("ana"), s.signup("bob"), s.signup("eve")
	ana.get("/")
	code, body := ana.post("/games", url.Values{"seat": {"invite"}, "invite": {"bob"}, "private": {"on"}})
	m := gameIDRE.FindStringSubmatch(body)
	if code != http.StatusOK || m == nil {
		t.Fatalf("a private table: %d", code)
	}
	var id uint
	fmt.Sscan(m[1], &id)
	bob.get("/")
	if code, _ := bob.post(fmt.Sprintf("/games/%d/join", id), nil); code != http.StatusOK {
		t.Fatalf("bob's join: %d", code)
	}
	const secret = "our plan for the east market"
	if code, _ := ana.post(fmt.Sprintf("/games/%d/chat", id), url.Values{"text": {secret}}); code != http.StatusOK {
		t.Fatalf("ana's message: %d", code)
	}
	before, _ := s.store.LoadGame(id)
	if before.Game.Status != models.StatusActive {
		t.Fatalf("the game is %s", before.Game.Status)
	}
	if code, _ := eve.get(fmt.Sprintf("/games/%d", id)); code != http.StatusNotFound {
		t.Fatalf("eve opened the private game: %d", code)
	}
	form := url.Values{"text": {"hello"}, "tile": {"1111"}, "rot": {"0"}, "at": {"0,1"}, "choice": {"0"}, "msg": {"1"}, "muted": {"1"}, "note": {"mine"}}
	posts := 0
	for _, r := range s.routes {
		if r.Method != http.MethodPost || !strings.HasPrefix(r.Path, "/games/:id/") {
			continue
		}
		path := strings.Replace(r.Path, ":id", fmt.Sprint(id), 1)
		for _, how := range []string{"plain", "htmx"} {
			var code int
			var body string
			if how == "plain" {
				code, body = eve.post(path, form)
			} else {
				code, body = eve.htmx("POST", path, form)
			}
			posts++
			shown := []string{}
			for _, mark := range []string{secret, `id="board"`, `id="villages"`, `id="log"`, `id="chat"`} {
				if strings.Contains(body, mark) {
					shown = append(shown, mark)
				}
			}
			if code < 400 || code >= 500 || len(shown) > 0 {
				t.Errorf("eve's %s post to %s: %d, showing %q", how, r.Path, code, shown)
			}
		}
	}
	if posts < 30 {
		t.Fatalf("only %d posts: the router's routes under /games/:id were not found", posts)
	}
	after, _ := s.store.LoadGame(id)
	if after.Game.Version != before.Game.Version || after.Game.Status != before.Game.Status || after.Game.RematchID != nil {
		t.Fatalf("eve's posts changed the game: version %d → %d, %s", before.Game.Version, after.Game.Version, after.Game.Status)
	}
}
