package handlers_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/bcrypt"

	"cacao/engine"
	"cacao/engine/bot"
	"cacao/handlers"
	"cacao/handlers/live"
	"cacao/models"
	"cacao/models/autoplay"
	"cacao/models/modeltest"
	"cacao/views"
	"cacao/views/i18n"
	"cacao/views/viewtest"
)

// site is the real router on an in-memory database, served on loopback.
type site struct {
	t     testing.TB
	store *models.Store
	srv   *httptest.Server
	clock *modeltest.Clock
	bots  *autoplay.Runner // Wait lets the slow bots finish their moves
	// routes is the router's table: the tests that must read every page
	// take their lists from it.
	routes []*echo.Route
}

// newSite serves a fresh site; opts set up its store (a dealer).
func newSite(t testing.TB, opts ...models.Option) *site {
	t.Helper()
	return newSiteWith(t, nil, opts...)
}

// newSiteWith serves a fresh site whose web layer's configuration cfg
// changes (nil: none).
func newSiteWith(t testing.TB, cfg func(*handlers.Config), opts ...models.Option) *site {
	t.Helper()
	return newSiteAt(t, modeltest.DB(t), cfg, opts...)
}

// newSiteAt is newSiteWith on the database at dsn.
func newSiteAt(t testing.TB, dsn string, cfg func(*handlers.Config), opts ...models.Option) *site {
	t.Helper()
	// The clock moves a millisecond per read, so events keep their order.
	clock := modeltest.NewClock(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), time.Millisecond)
	hub := live.New()
	store, err := models.Open(dsn, append([]models.Option{models.WithClock(clock.Now), models.WithPasswordCost(bcrypt.MinCost),
		models.WithBots(autoplay.Kinds()...), models.WithChangeListener(handlers.ChangeListener(hub))}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	// Reviews judge turns on a few short searches: made in a moment.
	config := handlers.Config{Logger: logger, Live: hub, Bots: autoplay.NewRunner(store, logger, autoplay.WithReview(bot.Review{Search: bot.Search{Iterations: 100}, Deals: 4}))}
	if cfg != nil {
		cfg(&config)
	}
	h, err := handlers.New(store, config)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); config.Bots.Close(); store.Close() })
	return &site{t: t, store: store, srv: srv, clock: clock, bots: config.Bots, routes: h.Routes()}
}

// botGame is a game of ana's (signed up for it) against a bot, and the
// first of her legal placements when her turn comes (she plays first, or
// the bot has moved).
func (s *site) botGame(bot string) (ana *client, id uint, pl engine.Placement) {
	ana = s.signup("ana")
	id = ana.createGame(bot, "none", "none")
	_, l := s.seatOf(id, "ana")
	return ana, id, l.Play.State().LegalPlacements(nil)[0]
}

// client is one browser: a cookie jar and the last CSRF token it saw.
type client struct {
	t    testing.TB
	s    *site
	http *http.Client
	csrf string
	name string
	ip   string // the address it comes from, on a proxied site ("" is the connection's)
	// token is the personal access token its API calls send (withToken).
	token string
	last  http.Header // the last answer's headers
}

// from has c come from address ip (X-Forwarded-For: a site made with
// proxied trusts it).
func (c *client) from(ip string) *client {
	c.ip = ip
	return c
}

// proxied makes a site that trusts X-Forwarded-For, as behind a proxy.
func proxied(cfg *handlers.Config) { cfg.TrustProxy = true }

var csrfRE = regexp.MustCompile(`name="_csrf" value="([^"]+)"|X-CSRF-Token&#34;: &#34;([^&]+)&#34;`)

func (s *site) client(name string) *client {
	jar, _ := cookiejar.New(nil)
	return &client{t: s.t, s: s, http: &http.Client{Jar: jar}, name: name}
}

func (c *client) do(req *http.Request) (int, string) {
	c.t.Helper()
	if c.ip != "" {
		req.Header.Set("X-Forwarded-For", c.ip)
	}
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	c.last = res.Header
	b, _ := io.ReadAll(res.Body)
	body := string(b)
	if res.StatusCode >= 500 {
		c.t.Fatalf("%s %s: %d (a 5xx is a fault of the site)\n%.500s", req.Method, req.URL, res.StatusCode, body)
	}
	if m := csrfRE.FindStringSubmatch(body); m != nil {
		c.csrf = m[1] + m[2]
	}
	return res.StatusCode, body
}

func (c *client) get(path string) (int, string) {
	c.t.Helper()
	req, _ := http.NewRequest("GET", c.s.srv.URL+path, nil)
	return c.do(req)
}

// post sends a form as a browser without JavaScript would, with the CSRF token.
func (c *client) post(path string, form url.Values) (int, string) {
	c.t.Helper()
	if c.csrf == "" {
		c.get("/")
	}
	if form == nil {
		form = url.Values{}
	}
	if _, ok := form["_csrf"]; !ok {
		form.Set("_csrf", c.csrf)
	}
	req, _ := http.NewRequest("POST", c.s.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.do(req)
}

// htmx sends a request as htmx would: HX-Request and the CSRF header.
func (c *client) htmx(method, path string, form url.Values) (int, string) {
	c.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, c.s.srv.URL+path, body)
	req.Header.Set("HX-Request", "true")
	req.Header.Set("X-CSRF-Token", c.csrf)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	return c.do(req)
}

func (s *site) signup(name string) *client {
	s.t.Helper()
	c := s.client(name)
	c.get("/signup")
	code, body := c.post("/signup", url.Values{"username": {name}, "password": {"secret-" + name}})
	if code != http.StatusOK || !strings.Contains(body, "My games") {
		s.t.Fatalf("signup %s: %d\n%s", name, code, body)
	}
	return c
}

var gameIDRE = regexp.MustCompile(`<h1>Game (\d+)</h1>`)

func (c *client) createGame(seats ...string) uint {
	c.t.Helper()
	c.get("/")
	code, body := c.post("/games", url.Values{"seat": seats})
	m := gameIDRE.FindStringSubmatch(body)
	if code != http.StatusOK || m == nil {
		c.t.Fatalf("create game: %d\n%s", code, body)
	}
	var id uint
	fmt.Sscan(m[1], &id)
	return id
}

// turnsBy counts the turns seat has committed in game id.
func (s *site) turnsBy(id uint, seat int) int {
	s.t.Helper()
	l, err := s.store.LoadGame(id)
	if err != nil {
		s.t.Fatal(err)
	}
	n := 0
	for _, e := range l.Log {
		if e.Seat == seat && e.Kind == models.LogTurn {
			n++
		}
	}
	return n
}

// anaAndBob signs ana and bob up and seats them at a new game of two,
// started.
func (s *site) anaAndBob() (id uint, ana, bob *client) {
	s.t.Helper()
	ana, bob = s.signup("ana"), s.signup("bob")
	id = ana.createGame("open", "none", "none")
	bob.get("/")
	if code, _ := bob.post(fmt.Sprintf("/games/%d/join", id), nil); code != http.StatusOK {
		s.t.Fatalf("join: %d", code)
	}
	return id, ana, bob
}

// playToEnd has players act in game id (each in turn, see act) until it
// is finished, at most 400 moves.
func (s *site) playToEnd(id uint, r *engine.Rand, players ...*client) {
	s.t.Helper()
	for step := 0; ; step++ {
		if l, _ := s.store.LoadGame(id); l.Game.Status == models.StatusFinished {
			return
		}
		acted := false
		for _, c := range players {
			acted = c.act(id, r) || acted
		}
		if !acted || step == 400 {
			s.t.Fatalf("game %d did not get to its end (step %d)", id, step)
		}
	}
}

// midGame is a two-player game between two new people half played (six
// moves each), with ana to play: the page a player sees most.
func (s *site) midGame() (id uint, ana, bob *client) {
	s.t.Helper()
	id, ana, bob = s.anaAndBob()
	r := engine.NewRand(4)
	for i := 0; i < 6; i++ {
		ana.act(id, r)
		bob.act(id, r)
	}
	// Then until ana may choose a tile: her turn, no choice waiting.
	seat, l := s.seatOf(id, "ana")
	ready := func() bool {
		st := l.Play.State()
		return st.Current() == seat && len(st.Player(seat).Queue()) == 0
	}
	for i := 0; i < 6 && !ready(); i++ {
		if len(l.Play.State().Player(seat).Queue()) > 0 {
			ana.act(id, r)
		} else {
			bob.act(id, r)
		}
		seat, l = s.seatOf(id, "ana")
	}
	if l.Game.Status != models.StatusActive || !ready() {
		s.t.Fatalf("the mid game is %s, with seat %d to play; want it active with ana (%d) to choose a tile", l.Game.Status, l.Play.State().Current(), seat)
	}
	return id, ana, bob
}

// seatOf finds the named player's seat in game id, and the game as
// loaded (tests only).
func (s *site) seatOf(id uint, name string) (int, *models.Loaded) {
	l, err := s.store.LoadGame(id)
	if err != nil {
		s.t.Fatal(err)
	}
	for _, seat := range l.Seats {
		if seat.Name == name {
			return seat.Index, l
		}
	}
	return -1, l
}

// act makes one move for c if the game waits on them: their pending choice
// (all defaults), else a legal placement chosen by r with a random fill
// option and explicit acts. It returns false when nothing waited on c.
func (c *client) act(id uint, r *engine.Rand) bool {
	c.t.Helper()
	m, ok := c.plan(id, r, func(tile engine.Worker) {
		// The page offers the overbuild, and the player takes it.
		_, page := c.get(fmt.Sprintf("/games/%d?tile=%s&rot=0", id, tile))
		if !strings.Contains(page, "to overbuild it for a sun token") || !strings.Contains(page, "overbuild=1") {
			c.t.Fatalf("overbuild is legal but the page does not offer it")
		}
	})
	if !ok {
		return false
	}
	code, body := c.post(m.path, m.form)
	if code != http.StatusOK {
		c.t.Fatalf("%s %v: %d\n%s", m.path, m.form, code, body)
	}
	return true
}

// move is what a player does next: the form posted to path, and for a
// turn the placement it places.
type move struct {
	path string
	form url.Values
	pl   *engine.Placement
}

// plan works out c's next move in game id (see act); sawOverbuild, when
// not nil, is called with the tile when an overbuild is legal (the
// player then takes one).
func (c *client) plan(id uint, r *engine.Rand, sawOverbuild func(engine.Worker)) (move, bool) {
	c.t.Helper()
	seat, l := c.s.seatOf(id, c.name)
	if l.Play == nil || l.Game.Status != models.StatusActive {
		return move{}, false
	}
	st := l.Play.State()
	version := fmt.Sprint(l.Game.Version)
	if len(st.Player(seat).Queue()) > 0 {
		return move{path: fmt.Sprintf("/games/%d/resolve", id), form: url.Values{"version": {version}}}, true
	}
	if st.Over() || st.Current() != seat {
		return move{}, false
	}
	legal := st.LegalPlacements(nil)
	pl := legal[r.Intn(len(legal))]
	var overbuilds []engine.Placement
	for _, p := range legal {
		if p.Overbuild {
			overbuilds = append(overbuilds, p)
		}
	}
	if len(overbuilds) > 0 {
		if sawOverbuild != nil {
			sawOverbuild(overbuilds[0].Tile)
		}
		pl = overbuilds[r.Intn(len(overbuilds))]
	}
	form := url.Values{"version": {version}, "tile": {pl.Tile.String()}, "rot": {fmt.Sprint(pl.Rot)},
		"at": {fmt.Sprintf("%d,%d", pl.At.X, pl.At.Y)}}
	if pl.Overbuild {
		form.Set("overbuild", "1")
	}
	var fills []engine.Fill
	if opts := st.FillOptions(pl.At); !pl.Overbuild && len(opts) > 0 {
		i := r.Intn(len(opts))
		form.Set("fill", fmt.Sprint(i))
		fills = opts[i]
	}
	edges, err := st.Fired(pl, fills)
	if err != nil {
		c.t.Fatal(err)
	}
	order := len(edges)
	for _, e := range edges {
		if e.Owner != seat {
			continue
		}
		form.Add("edge", fmt.Sprintf("%d,%d,%s", e.Tile.X, e.Tile.Y, e.Side))
		form.Add("use", fmt.Sprint(r.Intn(e.Workers+1)))
		form.Add("order", fmt.Sprint(order)) // reverse the default order
		order--
	}
	return move{path: fmt.Sprintf("/games/%d/turn", id), form: form, pl: &pl}, true
}

// finish plays game id to the end with the given clients.
func finish(t *testing.T, s *site, id uint, players ...*client) {
	t.Helper()
	r := engine.NewRand(uint64(id) * 7)
	for step := 0; step < 500; step++ {
		l, err := s.store.LoadGame(id)
		if err != nil {
			t.Fatal(err)
		}
		if l.Game.Status == models.StatusFinished {
			return
		}
		moved := false
		for _, p := range players {
			moved = p.act(id, r) || moved
		}
		if !moved {
			t.Fatalf("nobody could move in game %d", id)
		}
	}
	t.Fatalf("game %d did not end", id)
}

// checkFinal looks at the score page as the player sees it and checks it
// against the engine's result, and downloads the record.
func checkFinal(t *testing.T, s *site, c *client, id uint) {
	t.Helper()
	code, body := c.get(fmt.Sprintf("/games/%d", id))
	if code != http.StatusOK || !strings.HasPrefix(viewtest.Text(t, body, "#final h2#final-h"), "Game over: ") || !viewtest.Has(t, body, "#final table tbody") {
		t.Fatalf("no score table on the finished game's page (%d)", code)
	}
	// A total is the only thing in its cell, in bold.
	totals := viewtest.Find(t, body, "#final tbody td > strong").FilterFunction(func(_ int, b *goquery.Selection) bool {
		return b.Parent().Children().Length() == 1 && viewtest.Collapse(b.Parent().Text()) == viewtest.Collapse(b.Text())
	})
	_, l := s.seatOf(id, c.name)
	res := l.Play.State().Score()
	for i, sc := range res.Scores {
		name := views.SeatName(i18n.En, l.Seats[i].Name, l.Seats[i].Bot, views.MarkOf(l.Seats[i].Guest, l.Seats[i].Robot))
		if viewtest.WithText(totals, fmt.Sprint(sc.Total)).Length() == 0 || !strings.Contains(viewtest.Text(t, body, "#final"), name) {
			t.Fatalf("score table lacks %s's total %d:\n%s", name, sc.Total, viewtest.Show(t, body, "#final tbody"))
		}
	}
	if !viewtest.HasText(t, body, "#final .standing.winner .status", "winner") {
		t.Fatalf("score table names no winner:\n%s", viewtest.Show(t, body, "#final .standings"))
	}
	code, rec := c.get(fmt.Sprintf("/games/%d/record.json", id))
	if code != http.StatusOK {
		t.Fatalf("record download: %d", code)
	}
	r, err := engine.DecodeRecord([]byte(rec))
	if err != nil {
		t.Fatal(err)
	}
	st, err := engine.Replay(r)
	if err != nil || st.Score().Scores[0] != res.Scores[0] {
		t.Fatalf("downloaded record replays to %v (%v); want %v", st.Score().Scores, err, res.Scores)
	}
}

func TestPlayAgainstBotToTheEnd(t *testing.T) {
	// "greedy" is the medium bot by the name games seated before the levels keep.
	for _, seats := range [][]string{{"medium", "none", "none"}, {"random", "greedy", "easy"}} {
		t.Run(strings.Join(seats, "-"), func(t *testing.T) { playAgainstBots(t, seats) })
	}
}

func playAgainstBots(t *testing.T, seats []string) {
	s := newSite(t)
	ana := s.signup("ana")
	id := ana.createGame(seats...)
	code, body := ana.get(fmt.Sprintf("/games/%d", id))
	if code != http.StatusOK || !viewtest.Has(t, body, "#board") || !strings.Contains(body, "Your hand") {
		t.Fatalf("game page: %d", code)
	}
	finish(t, s, id, ana)
	checkFinal(t, s, ana, id)
}

func TestTwoPeoplePlayToTheEnd(t *testing.T) {
	// A fixed deal (seed 5, seat order as offered) in which overbuilding
	// becomes legal; the players take every overbuild offered.
	s := newSite(t, models.WithDealer(func(n int) ([]int, int, engine.Setup) {
		su, _ := engine.NewSetup(n, 5)
		return []int{0, 1}, 0, su
	}))
	ana, bob := s.signup("ana"), s.signup("bob")
	id := ana.createGame("open", "none", "none")
	_, body := ana.get(fmt.Sprintf("/games/%d", id))
	m := regexp.MustCompile(`/join/([0-9a-f]{32})`).FindStringSubmatch(body)
	if m == nil {
		t.Fatal("no invite link on the open game's page")
	}
	if code, body := bob.get("/join/" + m[1]); code != http.StatusOK || !viewtest.HasText(t, body, `p a[href="/users/ana"]`, "ana") ||
		!strings.Contains(viewtest.Text(t, body, `p:has(a[href="/users/ana"])`), "ana, (open)") || !strings.Contains(body, "Take a seat") {
		t.Fatalf("invite page: %d", code)
	}
	if code, _ := bob.get("/join/0123456789abcdef0123456789abcdef"); code != http.StatusNotFound {
		t.Fatalf("unknown invite: %d", code)
	}
	if code, body := bob.post("/join/"+m[1], nil); code != http.StatusOK || !strings.Contains(body, "Your hand") {
		t.Fatalf("join by invite: %d", code)
	}
	finish(t, s, id, ana, bob)
	checkFinal(t, s, ana, id)
	checkFinal(t, s, bob, id)
	_, l := s.seatOf(id, "ana")
	overbuilt := 0
	for _, ev := range l.Events {
		if ev.Placement.Overbuild {
			overbuilt++
		}
	}
	if overbuilt == 0 {
		t.Fatal("no overbuild was played: pick a deal where one becomes legal")
	}
	// My games lists the finished game for both.
	if _, body := bob.get("/"); !strings.Contains(body, fmt.Sprintf("Game %d", id)) || !strings.Contains(body, ` of 2, `) {
		t.Fatal("my games does not list the finished game")
	}
}

func TestAuthorization(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	eve := s.signup("eve")
	seatAna, l := s.seatOf(id, "ana")
	st := l.Play.State()
	mover, waiter := ana, bob
	if st.Current() != seatAna {
		mover, waiter = bob, ana
	}
	pl := st.LegalPlacements(nil)[0]
	form := func() url.Values {
		return url.Values{"version": {fmt.Sprint(l.Game.Version)}, "tile": {pl.Tile.String()}, "rot": {fmt.Sprint(pl.Rot)}, "at": {fmt.Sprintf("%d,%d", pl.At.X, pl.At.Y)}}
	}
	eve.get("/")
	cases := []struct {
		name string
		c    *client
		path string
		want int
	}{
		{"someone else's game", eve, fmt.Sprintf("/games/%d/turn", id), http.StatusForbidden},
		{"out of turn", waiter, fmt.Sprintf("/games/%d/turn", id), http.StatusUnprocessableEntity},
		{"no such game", mover, "/games/999/turn", http.StatusNotFound},
		{"malformed id", mover, "/games/abc/turn", http.StatusNotFound},
	}
	for _, tc := range cases {
		if code, _ := tc.c.post(tc.path, form()); code != tc.want {
			t.Errorf("%s: %d; want %d", tc.name, code, tc.want)
		}
	}
	bad := form()
	bad.Set("rot", "7")
	if code, body := mover.post(fmt.Sprintf("/games/%d/turn", id), bad); code != http.StatusUnprocessableEntity || !strings.Contains(body, "rotation") {
		t.Errorf("malformed form: %d", code)
	}
	bad = form()
	bad.Set("at", "99,98")
	if code, body := mover.post(fmt.Sprintf("/games/%d/turn", id), bad); code != http.StatusUnprocessableEntity || !strings.Contains(body, "Must touch a jungle tile") {
		t.Errorf("illegal cell: %d", code)
	}
	if code, _ := eve.post(fmt.Sprintf("/games/%d/resolve", id), url.Values{"version": {fmt.Sprint(l.Game.Version)}}); code != http.StatusForbidden {
		t.Errorf("resolving in someone else's game: %d", code)
	}
	if code, _ := eve.get(fmt.Sprintf("/games/%d/record.json", id)); code != http.StatusForbidden {
		t.Errorf("record of a running game: %d; want 403 (it shows the piles)", code)
	}
	// Not signed in: a watcher of the public game (no hand), 401 for a post.
	anon := s.client("anon")
	if code, body := anon.get(fmt.Sprintf("/games/%d", id)); code != http.StatusOK || viewtest.Has(t, body, "#hand") || viewtest.HasText(t, body, "h1", "Log in") {
		t.Errorf("anonymous game page: %d", code)
	}
	if code, _ := anon.post(fmt.Sprintf("/games/%d/turn", id), form()); code != http.StatusUnauthorized {
		t.Errorf("anonymous post: %d", code)
	}
	if after, _ := s.store.LoadGame(id); len(after.Log) != 0 || after.Game.Version != l.Game.Version {
		t.Fatal("a refused request changed the game")
	}
	// The rightful move still works.
	if code, _ := mover.post(fmt.Sprintf("/games/%d/turn", id), form()); code != http.StatusOK {
		t.Fatalf("the right move: %d", code)
	}
}

func TestCSRFIsRequired(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	for _, tok := range []string{"", "forged-token"} {
		code, _ := ana.post("/games", url.Values{"seat": {"greedy"}, "_csrf": {tok}})
		if code != http.StatusForbidden && code != http.StatusBadRequest {
			t.Errorf("create game with token %q: %d; want 400 or 403", tok, code)
		}
	}
	if games, _, _ := s.store.MyGames(1, 0, 100); len(games) != 0 {
		t.Fatal("a forged request created a game")
	}
	// htmx requests carry the token in a header.
	code, _ := ana.htmx("POST", "/games", url.Values{"seat": {"greedy"}})
	if code != http.StatusOK {
		t.Fatalf("htmx create with header token: %d", code)
	}
	// Signing up from another site fails too.
	c := s.client("mallory")
	if code, _ := c.post("/signup", url.Values{"username": {"mallory"}, "password": {"password1"}, "_csrf": {"x"}}); code < 400 {
		t.Fatalf("signup without a valid token: %d", code)
	}
}

func TestDoubleSubmitCommitsOnce(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	id := ana.createGame("random", "none", "none")
	seat, l := s.seatOf(id, "ana")
	st := l.Play.State()
	if st.Current() != seat {
		t.Fatal("after bots moved, it must be ana's turn")
	}
	pl := st.LegalPlacements(nil)[0]
	form := url.Values{"version": {fmt.Sprint(l.Game.Version)}, "tile": {pl.Tile.String()}, "rot": {fmt.Sprint(pl.Rot)}, "at": {fmt.Sprintf("%d,%d", pl.At.X, pl.At.Y)}}
	if code, _ := ana.post(fmt.Sprintf("/games/%d/turn", id), form); code != http.StatusOK {
		t.Fatalf("first submit: %d", code)
	}
	code, body := ana.post(fmt.Sprintf("/games/%d/turn", id), form)
	if code != http.StatusConflict || !strings.Contains(body, "moved on") || !viewtest.Has(t, body, "#board") {
		t.Fatalf("second submit: %d; want 409 with the fresh board", code)
	}
	if n := s.turnsBy(id, seat); n != 1 {
		t.Fatalf("ana's turn was committed %d times", n)
	}
}

// TestHTMXFragments: with htmx, selecting a tile, rotating and choosing a
// cell each return only the game fragment; a full page without it.
func TestHTMXFragments(t *testing.T) {
	ana, id, pl := newSite(t).botGame("greedy")
	base := fmt.Sprintf("/games/%d", id)
	steps := []string{
		base + "?tile=" + pl.Tile.String(),
		base + "?tile=" + pl.Tile.String() + "&rot=1",
		fmt.Sprintf("%s?tile=%s&rot=%d&at=%d,%d", base, pl.Tile, pl.Rot, pl.At.X, pl.At.Y),
	}
	for _, u := range steps {
		code, body := ana.htmx("GET", u, nil)
		if code != http.StatusOK || strings.Contains(body, "<html") || !startsWith(t, body, "div#game-main") {
			t.Fatalf("htmx %s: %d, not a fragment:\n%.300s", u, code, body)
		}
		code, body = ana.get(u)
		if code != http.StatusOK || !strings.Contains(body, "<html") {
			t.Fatalf("plain %s: %d, not a page", u, code)
		}
	}
	// htmx restoring a page it no longer holds asks with HX-Request too,
	// and puts the answer in place of the whole page.
	if _, body, _ := ana.ask(t, "GET", steps[2], "", map[string]string{"HX-Request": "true", "HX-History-Restore-Request": "true"}); !strings.Contains(body, "<html") {
		t.Fatal("a history restore got a fragment, not the page")
	}
	_, body := ana.htmx("GET", steps[2], nil)
	// The game area says once how its requests swap (htmx inherits it): a
	// step takes the address in place, adding no page to the history; the
	// steps' links do not repeat it, and the forms and the live refetch do
	// not take the address.
	if !viewtest.Has(t, body, `div#game-main[hx-target="#game-main"][hx-select="#game-main"][hx-swap="outerHTML"][hx-replace-url="true"]`) {
		t.Fatalf("the game area does not say how its requests swap:\n%.300s", body)
	}
	if viewtest.Count(t, body, "[hx-target]") != 1 || viewtest.Count(t, body, `[hx-replace-url="true"]`) != 1 || viewtest.Has(t, body, "[hx-push-url]") {
		t.Fatalf("parts of the game area repeat how they swap:\n%s", viewtest.Show(t, body, "[hx-target], [hx-replace-url], [hx-push-url]"))
	}
	for _, sel := range []string{"form[hx-post]", "span[hidden][hx-trigger]"} {
		tags := viewtest.Find(t, body, sel)
		if tags.Length() == 0 {
			t.Fatalf("no %s in the answer to choosing a cell", sel)
		}
		tags.Each(func(_ int, tag *goquery.Selection) {
			if v, _ := tag.Attr("hx-replace-url"); v != "false" {
				t.Errorf("a %s would take the address (hx-replace-url=%q): %v", sel, v, tag.Nodes[0].Attr)
			}
		})
	}
	if !strings.Contains(body, "Confirm move") || !strings.Contains(body, "If you confirm") {
		t.Fatal("choosing a cell does not offer the preview and the confirm button")
	}
}

func TestHealthz(t *testing.T) {
	s := newSite(t)
	res, err := http.Get(s.srv.URL + "/healthz")
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("healthz: %v %v", res, err)
	}
}

// TestSessionCookies: the session token changes at log-in (no fixation),
// and the session and CSRF cookies are HttpOnly and SameSite=Lax.
func TestSessionCookies(t *testing.T) {
	s := newSite(t)
	s.signup("ana")
	c := s.client("ana")
	c.get("/login")
	u, _ := url.Parse(s.srv.URL)
	before := ""
	for _, ck := range c.http.Jar.Cookies(u) {
		if ck.Name == "cacao_session" {
			before = ck.Value
		}
	}
	// Plant a session before logging in, as an attacker would.
	c.post("/login", url.Values{"username": {"nobody"}, "password": {"wrong-password"}})
	req, _ := http.NewRequest("POST", s.srv.URL+"/login", strings.NewReader(url.Values{"username": {"ana"}, "password": {"secret-ana"}, "_csrf": {c.csrf}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for _, ck := range c.http.Jar.Cookies(u) {
		req.AddCookie(ck)
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noFollow.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("login: %d", res.StatusCode)
	}
	var session *http.Cookie
	for _, ck := range res.Cookies() {
		if ck.Name == "cacao_session" {
			session = ck
		}
	}
	if session == nil || session.Value == "" || session.Value == before {
		t.Fatalf("the session token was not renewed at log-in (%v)", session)
	}
	if !session.HttpOnly || session.SameSite != http.SameSiteLaxMode {
		t.Fatalf("session cookie flags: %+v", session)
	}
	res2, err := http.Get(s.srv.URL + "/login")
	if err != nil {
		t.Fatal(err)
	}
	res2.Body.Close()
	for _, ck := range res2.Cookies() {
		if ck.Name == "cacao_csrf" && (!ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode) {
			t.Fatalf("csrf cookie flags: %+v", ck)
		}
	}
}

// TestNamesAreEscaped: a username with HTML is shown as text everywhere.
func TestNamesAreEscaped(t *testing.T) {
	s := newSite(t)
	c := s.client("x")
	c.get("/signup")
	code, body := c.post("/signup", url.Values{"username": {"<b>bo</b>"}, "password": {"password-1"}})
	if code != http.StatusUnprocessableEntity || viewtest.HasText(t, body, "b", "bo") {
		t.Fatalf("a username with HTML: %d", code)
	}
}

// TestLogout: after logging out, the game pages ask to log in again and the
// old session cookie no longer works.
func TestLogout(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	ana.createGame("greedy", "none", "none")
	u, _ := url.Parse(s.srv.URL)
	old := ana.http.Jar.Cookies(u)
	if code, body := ana.post("/logout", nil); code != http.StatusOK || !strings.Contains(body, "Sign up") {
		t.Fatalf("logout: %d", code)
	}
	if _, body := ana.get("/settings"); !viewtest.HasText(t, body, "h1", "Log in") {
		t.Fatal("still signed in after logging out")
	}
	replay := s.client("replay")
	replay.http.Jar.SetCookies(u, old)
	if _, body := replay.get("/settings"); !viewtest.HasText(t, body, "h1", "Log in") {
		t.Fatal("the session cookie from before logging out still works")
	}
}

// TestNext: /next opens the game that has waited longest on the player.
func TestNext(t *testing.T) {
	s := newSite(t)
	ana, bob := s.signup("ana"), s.signup("bob")
	if _, body := ana.get("/next"); !strings.Contains(body, "No game is waiting for you.") {
		t.Fatal("/next with nothing waiting does not say so")
	}
	// Two games against bots wait on ana: the older first.
	first := ana.createGame("greedy", "none", "none")
	second := ana.createGame("random", "none", "none")
	if _, body := ana.get("/next"); !viewtest.HasText(t, body, "h1", fmt.Sprintf("Game %d", first)) {
		t.Fatalf("/next did not open game %d", first)
	}
	r := engine.NewRand(1)
	ana.act(first, r)
	if _, body := ana.get("/next"); !viewtest.HasText(t, body, "h1", fmt.Sprintf("Game %d", second)) {
		t.Fatalf("after moving in game %d, /next did not open game %d", first, second)
	}
	if _, body := bob.get("/next"); !strings.Contains(body, "No game is waiting for you.") {
		t.Fatal("/next sent bob into someone else's game")
	}
}

// TestSignupSaysTheRules: the sign-up form and a guest's account form say
// what a name and a password must be, and the browser checks the lengths
// before sending.
func TestSignupSaysTheRules(t *testing.T) {
	s := newSite(t)
	_, page := s.client("visitor").get("/signup")
	guest := s.client("guest")
	guest.get("/play")
	if code, _ := guest.post("/play", url.Values{"name": {"guesty"}, "bot": {"easy"}}); code != http.StatusOK {
		t.Fatalf("a guest's game: %d", code)
	}
	_, home := guest.get("/")
	for _, f := range []struct{ page, name, password string }{{page, "#username", "#password"}, {home, "#account-name", "#account-password"}} {
		if !strings.Contains(viewtest.Text(t, f.page, `label[for="`+f.name[1:]+`"]`), "3 to 24 letters") || !viewtest.Has(t, f.page, f.name+`[minlength="3"][maxlength="24"]`) ||
			!strings.Contains(viewtest.Text(t, f.page, `label[for="`+f.password[1:]+`"]`), "8 to 72 characters") || !viewtest.Has(t, f.page, f.password+`[minlength="8"][maxlength="72"]`) {
			t.Fatalf("a form does not say the rules of %s and %s:\n%s", f.name, f.password, viewtest.Show(t, f.page, "form:has("+f.name+")"))
		}
	}
}

// TestHomeFirstSteps: a new account's home page, with no game yet, leads
// to the tutorial and to a game against a bot at once; once it has a
// game, the list takes their place.
func TestHomeFirstSteps(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	_, home := ana.get("/")
	for _, href := range []string{"/learn", "/play"} {
		if !viewtest.Has(t, home, `#home-lists a.button[href="`+href+`"]`) {
			t.Fatalf("a new account's home page does not lead to %s:\n%s", href, viewtest.Show(t, home, "#home-lists"))
		}
	}
	ana.createGame("easy")
	if _, home := ana.get("/"); viewtest.Has(t, home, "#home-lists .first-steps") {
		t.Fatal("the first steps are still offered beside a game")
	}
}

// TestHomeListsLatestFinished: the home page lists the latest ten finished
// games with a link to all of them, a page at a time; that page keeps
// itself in its live refetch.
func TestHomeListsLatestFinished(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	for i := 0; i < 12; i++ {
		s.clock.Advance(3 * time.Minute) // past the limit on games made in a row
		finish(t, s, ana.createGame("greedy"), ana)
	}
	ana.createGame("greedy")
	_, home := ana.get("/")
	if n, f := gameRows(t, home), viewtest.Count(t, home, ".result"); n != 11 || f != 10 {
		t.Fatalf("the home page lists %d games, %d finished; want 11, 10", n, f)
	}
	if !viewtest.HasText(t, home, `a#all-finished[href="/?finished=all"]`, "Show 2 more finished games") || !viewtest.Has(t, home, `[hx-get="/"]`) {
		t.Fatalf("no link to the other finished games:\n%s", viewtest.Show(t, home, "#all-finished"))
	}
	_, all := ana.get("/?finished=all")
	if n := gameRows(t, all); n != 12 || viewtest.Count(t, all, ".result") != 12 || viewtest.Has(t, all, "#all-finished") || !viewtest.Has(t, all, `[hx-get="/?finished=all"]`) {
		t.Fatalf("the page of finished games lists %d, want the 12, and refetches itself", n)
	}
}

// errorSays tells whether an error of the page (a p.error, or a span of a
// list) says want.
func errorSays(t testing.TB, page, want string) bool {
	t.Helper()
	return slices.ContainsFunc(viewtest.Texts(t, page, ".error"), func(e string) bool { return strings.Contains(e, want) })
}

// gameRows is how many rows of a page's tables open with a link to a game.
func gameRows(t testing.TB, page string) int {
	t.Helper()
	return viewtest.Find(t, page, "tr > td:first-child > a:first-child").FilterFunction(func(_ int, a *goquery.Selection) bool {
		return gameHrefRE.MatchString(a.AttrOr("href", ""))
	}).Length()
}

var gameHrefRE = regexp.MustCompile(`^/games/\d+$`)

// startsWith tells whether the first thing in page (past white space) is an
// element selector matches.
func startsWith(t testing.TB, page, selector string) bool {
	t.Helper()
	first := viewtest.Parse(t, page).Contents().FilterFunction(func(_ int, n *goquery.Selection) bool {
		return goquery.NodeName(n) != "#text" || viewtest.Collapse(n.Text()) != ""
	}).First()
	return first.Is(selector)
}

// TestHomePagesGames: the games not over come 30 a page, with links to
// the pages before and after; each page refetches itself.
func TestHomePagesGames(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	u, _ := s.store.UserNamed("ana")
	for i := 0; i < 32; i++ {
		if _, err := s.store.CreateGame(u, models.GameSpec{Seats: []string{"greedy"}}); err != nil {
			t.Fatal(err)
		}
	}
	_, home := ana.get("/")
	if n := gameRows(t, home); n != 30 || !viewtest.HasText(t, home, `a[href="/?from=30"]`, "Next page") || !strings.Contains(home, "1–30 of 32") {
		t.Fatalf("the first page lists %d games:\n%s", n, home)
	}
	_, next := ana.get("/?from=30")
	if n := gameRows(t, next); n != 2 || !viewtest.HasText(t, next, `a[href="/"]`, "Previous page") || !viewtest.Has(t, next, `[hx-get="/?from=30"]`) {
		t.Fatalf("the second page lists %d games:\n%s", n, next)
	}
}

// TestHandSlot: a selection's place in the hand (slot, which of two alike
// tiles was clicked) that cannot be read is refused with a sentence and
// nothing chosen; one that does not hold the tile marks the first alike.
// A move does not need it: the confirm form leaves it out.
func TestHandSlot(t *testing.T) {
	ana, id, pl := newSite(t).botGame("greedy")
	base := fmt.Sprintf("/games/%d?tile=%s&rot=0", id, pl.Tile)
	for _, bad := range []string{"x", "-1", "99"} {
		code, body := ana.get(base + "&slot=" + bad)
		if code != http.StatusOK || !strings.Contains(body, "Unknown place in the hand") || viewtest.Has(t, body, `[aria-current="true"]`) {
			t.Fatalf("slot=%s: %d, want the page with a sentence and nothing chosen:\n%.300s", bad, code, body)
		}
	}
	_, body := ana.get(base + "&slot=5")
	if viewtest.Has(t, body, ".error") || !viewtest.Has(t, body, `[aria-current="true"][data-tile="`+pl.Tile.String()+`"]`) {
		t.Fatalf("slot=5 (no such place) should mark the first %s:\n%s", pl.Tile, body)
	}
	cell := fmt.Sprintf("&at=%d,%d", pl.At.X, pl.At.Y)
	if _, body = ana.get(base + "&slot=2" + cell); !strings.Contains(body, "Confirm move") || viewtest.Has(t, body, `[name="slot"]`) {
		t.Fatal("the confirm form should be offered, without the slot")
	}
}

// TestHandSlotFollowsTheCells: the cells offered for the second of two
// alike tiles lead on with that tile marked (their links name its slot),
// and those for the first do not, whichever was asked first (the cells are
// worked out once per position and kept).
func TestHandSlotFollowsTheCells(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	id := ana.createGame("greedy", "none", "none")
	r := engine.NewRand(11)
	for moves := 0; moves < 40; moves++ {
		seat, l := s.seatOf(id, "ana")
		st := l.Play.State()
		if st.Over() {
			break
		}
		hand := st.Player(seat).HandTiles()
		var pl *engine.Placement
		slot := 0
		for j := range hand {
			for i := 0; i < j && pl == nil; i++ {
				if hand[i] != hand[j] || st.Current() != seat {
					continue
				}
				for _, p := range st.LegalPlacements(nil) {
					if p.Tile == hand[j] && !p.Overbuild {
						pl, slot = &p, j
						break
					}
				}
			}
		}
		if pl == nil {
			if !ana.act(id, r) {
				t.Fatal("ana cannot move")
			}
			continue
		}
		base := fmt.Sprintf("/games/%d?rot=%d", id, pl.Rot)
		for _, with := range []bool{true, false, true} {
			u := base + fmt.Sprintf("&slot=%d&tile=%s", slot, pl.Tile)
			if !with {
				u = base + "&tile=" + pl.Tile.String()
			}
			_, body := ana.htmx("GET", u, nil)
			found := viewtest.Find(t, body, `a.cell[href], a[id^="place-"][href]`)
			if found.Length() == 0 {
				t.Fatalf("%s: no cells offered", u)
			}
			for _, href := range found.Map(func(_ int, a *goquery.Selection) string { return a.AttrOr("href", "") }) {
				if has := strings.Contains(href, fmt.Sprintf("slot=%d&", slot)); has != with {
					t.Fatalf("%s: a cell leads to %s", u, href)
				}
			}
		}
		return
	}
	t.Fatal("ana never held two alike tiles: the test checks nothing")
}

// TestLobbyPaged: the open games come 30 a page, newest first, with links
// to the pages before and after.
// TestInvitationsPaged: 32 invitations (sent over two days, as the daily
// limit asks) come 30 a page.
func TestInvitationsPaged(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	for i := 0; i < 32; i++ {
		if i == models.MaxInvitesFromStrangers {
			s.clock.Advance(25 * time.Hour)
			if _, err := s.store.ExpireTables(0); err != nil { // the day's invitations no longer count
				t.Fatal(err)
			}
		}
		host := fmt.Sprintf("host%d", i/models.MaxInvitesFromOne)
		u, err := s.store.UserNamed(host)
		if err != nil {
			if u, err = s.store.CreateUser(host, "secret-"+host); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.store.CreateGame(u, models.GameSpec{Seats: []string{"@ana"}}); err != nil {
			t.Fatal(i, err)
		}
	}
	accepts := `form[action$="/join"]`
	_, home := ana.get("/")
	if n := viewtest.Count(t, home, accepts); n != 30 || !viewtest.HasText(t, home, `a[href="/?inv=30"]`, "Next page") {
		t.Fatalf("the first page lists %d invitations", n)
	}
	_, next := ana.get("/?inv=30")
	if n := viewtest.Count(t, next, accepts); n != 2 || !viewtest.Has(t, next, `[hx-get="/?inv=30"]`) {
		t.Fatalf("the second page lists %d invitations", n)
	}
}

func TestLobbyPaged(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	for i := 0; i < 32; i++ {
		u, err := s.store.UserNamed(fmt.Sprintf("host%d", i/8))
		if err != nil {
			s.signup(fmt.Sprintf("host%d", i/8))
			u, _ = s.store.UserNamed(fmt.Sprintf("host%d", i/8))
		}
		if _, err := s.store.CreateGame(u, models.GameSpec{Seats: []string{models.SeatOpen}}); err != nil {
			t.Fatal(err)
		}
	}
	joins := `form[action$="/join"]`
	_, home := ana.get("/")
	if n := viewtest.Count(t, home, joins); n != 30 || !viewtest.HasText(t, home, `a[href="/?open=30"]`, "Next page") {
		t.Fatalf("the lobby's first page lists %d games", n)
	}
	_, next := ana.get("/?open=30")
	if n := viewtest.Count(t, next, joins); n != 2 || !viewtest.HasText(t, next, `a[href="/"]`, "Previous page") || !viewtest.Has(t, next, `[hx-get="/?open=30"]`) {
		t.Fatalf("the lobby's second page lists %d games", n)
	}
}
