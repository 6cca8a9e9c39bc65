package main

// Seeding: a browser test about one position of a game starts there instead
// of clicking its way to it. The test writes users and games into the
// server's own database file through a store of its own, plays the moves
// that lead to the position (the people's as the greedy bot would play them,
// the bots' as the site plays them), then signs the browser in through the
// log-in form and opens the game.
//
//	s := seededSite(t)
//	alice := s.user("alice")
//	game := s.botGame(alice, "greedy")
//	s.playUntil(game, nearTheEnd(alice, 4))

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"golang.org/x/crypto/bcrypt"

	"cacao/engine"
	"cacao/engine/bot"
	"cacao/models"
	"cacao/models/autoplay"
)

// password is every test user's password.
const password = "correct horse battery"

// site is the server of a test (as startSite runs it) and a store of the
// test's own on the same SQLite file. What the test writes through the store
// the server reads: SQLite in WAL mode takes a second writer, and the
// server's cache of positions is keyed by the game's version, which every
// write moves on. The server's event streams carry only the changes it made
// itself, so a page open while a game is seeded does not update: seed first,
// then load the page.
type site struct {
	t     *testing.T
	base  string
	db    string // the SQLite file
	logs  *syncBuffer
	store *models.Store
	rand  *engine.Rand // the greedy bot's ties, for the people's moves
}

// seededSite starts the site and opens the test's store on its database.
// Like every browser test it skips with -short.
func seededSite(t *testing.T) *site {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests are skipped with -short")
	}
	db := filepath.Join(t.TempDir(), "site.db")
	base, logs := startSiteOn(t, db) // the server creates and migrates the file
	store, err := models.Open(db, models.WithPasswordCost(bcrypt.MinCost), models.WithBots(autoplay.Kinds()...))
	if err != nil {
		t.Fatalf("opening the site's database to seed it: %v", err)
	}
	t.Cleanup(func() { store.Close() })
	return &site{t: t, base: base, db: db, logs: logs, store: store, rand: engine.NewRand(uint64(time.Now().UnixNano()))}
}

// user creates an account with the test password.
func (s *site) user(name string) *models.User {
	s.t.Helper()
	u, err := s.store.CreateUser(name, password)
	if err != nil {
		s.t.Fatalf("creating user %s: %v", name, err)
	}
	return u
}

// botGame creates u's 2-player game against a bot ("random" or "greedy"),
// which starts at once; if the bot has the first turn it has played it.
func (s *site) botGame(u *models.User, kind string) uint {
	s.t.Helper()
	g, err := s.store.CreateGame(u, models.GameSpec{Seats: []string{kind}})
	if err != nil {
		s.t.Fatalf("creating %s's game against the %s bot: %v", u.Username, kind, err)
	}
	if _, err := autoplay.Bots(s.store, g.ID, nil); err != nil {
		s.t.Fatalf("the %s bot's first move: %v", kind, err)
	}
	return g.ID
}

// gameBetween creates a's 2-player game with an open seat and seats b in
// it, so that the game starts.
func (s *site) gameBetween(a, b *models.User) uint {
	s.t.Helper()
	g, err := s.store.CreateGame(a, models.GameSpec{Seats: []string{models.SeatOpen}})
	if err != nil {
		s.t.Fatalf("creating %s's game: %v", a.Username, err)
	}
	if _, err := s.store.Join(g.ID, "", b); err != nil {
		s.t.Fatalf("%s joining game %d: %v", b.Username, g.ID, err)
	}
	return g.ID
}

// gameURL is the address of game id's page.
func (s *site) gameURL(id uint) string { return fmt.Sprintf("%s/games/%d", s.base, id) }

// gameID reads the game's id from its page's address.
func gameID(t *testing.T, addr string) uint {
	t.Helper()
	u, err := url.Parse(addr)
	if err == nil {
		if rest, ok := strings.CutPrefix(u.Path, "/games/"); ok {
			if id, err := strconv.ParseUint(rest, 10, 64); err == nil {
				return uint(id)
			}
		}
	}
	t.Fatalf("%s is not a game's address", addr)
	return 0
}

// A target is a position of a game, where seeding stops.
type target struct {
	what string
	is   func(l *models.Loaded) bool
}

// seatOf is u's seat in a started game, or -1.
func seatOf(l *models.Loaded, u *models.User) int {
	if l.Play == nil {
		return -1
	}
	return l.SeatOf(u.ID)
}

// toPlay: u may choose a tile (their turn, no choice of theirs pending).
func toPlay(u *models.User) target {
	return target{u.Username + " to play", func(l *models.Loaded) bool {
		i := seatOf(l, u)
		return l.Game.Status == models.StatusActive && i >= 0 && l.Play.State().Current() == i && len(l.Play.State().Player(i).Queue()) == 0
	}}
}

// toPlayAfterAMove: u may choose a tile, and another seat has moved since
// u's last move (the page tells what it did).
func toPlayAfterAMove(u *models.User) target {
	p := toPlay(u)
	return target{p.what + " after another's move", func(l *models.Loaded) bool {
		return p.is(l) && l.Play.State().Turns() > 0
	}}
}

// nearTheEnd: u may choose a tile and at most turns turns are left.
func nearTheEnd(u *models.User, turns int) target {
	p := toPlay(u)
	return target{fmt.Sprintf("%s with at most %d turns left", p.what, turns), func(l *models.Loaded) bool {
		return p.is(l) && l.Play.State().TotalTurns()-l.Play.State().Turns() <= turns
	}}
}

// turnsLeft: at most turns turns of the game are left.
func turnsLeft(turns int) target {
	return target{fmt.Sprintf("at most %d turns left", turns), func(l *models.Loaded) bool {
		return l.Game.Status == models.StatusActive && l.Play.State().TotalTurns()-l.Play.State().Turns() <= turns
	}}
}

// afterTurns: u may choose a tile and has made at least n moves.
func afterTurns(u *models.User, n int) target {
	p := toPlay(u)
	return target{fmt.Sprintf("%s after %d moves of theirs", p.what, n), func(l *models.Loaded) bool {
		if !p.is(l) {
			return false
		}
		moves := 0
		for _, e := range l.Log {
			if e.Kind == models.LogTurn && e.Seat == seatOf(l, u) {
				moves++
			}
		}
		return moves >= n
	}}
}

// afterTurnsWithNews: as afterTurns, and the log's last entry is not u's
// (a choice u made after the others' moves leaves no news since it).
func afterTurnsWithNews(u *models.User, n int) target {
	p := afterTurns(u, n)
	return target{p.what + ", with news", func(l *models.Loaded) bool {
		return p.is(l) && len(l.Log) > 0 && l.Log[len(l.Log)-1].Seat != seatOf(l, u)
	}}
}

// choicePending: a choice of u's workers waits for u.
func choicePending(u *models.User) target {
	return target{"a choice pending for " + u.Username, func(l *models.Loaded) bool {
		i := seatOf(l, u)
		return l.Game.Status == models.StatusActive && i >= 0 && len(l.Play.State().Player(i).Queue()) > 0
	}}
}

// fillChoiceNearTheEnd: u may choose a tile, at most turns turns are left,
// and a cell where a tile may go offers several ways to fill the jungle
// around it.
func fillChoiceNearTheEnd(u *models.User, turns int) target {
	p := nearTheEnd(u, turns)
	return target{p.what + " and a choice of fills", func(l *models.Loaded) bool {
		if !p.is(l) {
			return false
		}
		st := l.Play.State()
		for _, c := range st.LegalCells(nil) {
			if len(st.FillOptions(c)) > 1 {
				return true
			}
		}
		return false
	}}
}

// finished: the game is over and scored.
var finished = target{"the game finished", func(l *models.Loaded) bool { return l.Game.Status == models.StatusFinished }}

// playUntil plays game id through the store until it is at p, and fails the
// test if the game ends first.
func (s *site) playUntil(id uint, p target) *models.Loaded {
	s.t.Helper()
	l, err := s.tryPlayUntil(id, p)
	if err != nil {
		s.t.Fatalf("seeding game %d to %s: %v", id, p.what, err)
	}
	return l
}

// gameAt makes a game with newGame and plays it until it is at p, up to
// tries games when they end first. It reports whether one came to p.
func (s *site) gameAt(newGame func() uint, p target, tries int) (uint, bool) {
	s.t.Helper()
	for n := 1; ; n++ {
		id := newGame()
		_, err := s.tryPlayUntil(id, p)
		switch {
		case err == nil:
			return id, true
		case !errors.Is(err, errEnded):
			s.t.Fatalf("seeding game %d to %s: %v", id, p.what, err)
		case n == tries:
			return id, false
		}
	}
}

// errEnded says a game ended before the position sought.
var errEnded = errors.New("the game ended first")

// tryPlayUntil plays game id until it is at p: each person's pending choices,
// then their turn, as the greedy bot would play them, and the bots' as the
// site plays them after a move. It stops with errEnded when the game ends
// before.
func (s *site) tryPlayUntil(id uint, p target) (*models.Loaded, error) {
	for range 1000 {
		l, err := autoplay.Bots(s.store, id, nil)
		if err != nil {
			return nil, err
		}
		if p.is(l) {
			return l, nil
		}
		if l.Game.Status != models.StatusActive {
			return l, errEnded
		}
		actor, play, err := s.personPlay(l)
		if err != nil {
			return nil, err
		}
		if _, err := s.store.Commit(id, l.Game.Version, actor, play); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("game %d did not come to %s in 1000 moves", id, p.what)
}

// personPlay is what the greedy bot would do for the people of l: resolve
// the first pending choice, or play the turn.
func (s *site) personPlay(l *models.Loaded) (models.Actor, models.Play, error) {
	st := l.Play.State()
	g := bot.Greedy{}
	for i, seat := range l.Seats {
		if seat.UserID != nil && len(st.Player(i).Queue()) > 0 {
			return models.Actor{UserID: *seat.UserID}, models.Play{Acts: g.Resolve(st, i, s.rand)}, nil
		}
	}
	cur := l.Seats[st.Current()]
	if cur.UserID == nil {
		return models.Actor{}, models.Play{}, fmt.Errorf("nobody has anything to do at turn %d", st.Turns())
	}
	m, err := g.Move(st, s.rand)
	if err != nil {
		return models.Actor{}, models.Play{}, err
	}
	m.Fills = append([]engine.Fill(nil), m.Fills...) // the bot's buffer
	return models.Actor{UserID: *cur.UserID}, models.Play{Move: &m}, nil
}

// logIn signs the tab in as name through the log-in form, which leads to
// next (a path; "" for the home page), and checks that the header greets
// the user.
func (tb *tab) logIn(base, name, next string) {
	tb.b.t.Helper()
	addr := base + "/login"
	if next != "" {
		addr += "?next=" + url.QueryEscape(next)
	}
	tb.must(tb.navigate(addr))
	tb.must(tb.do(10*time.Second,
		chromedp.SetValue(chromedp.ID("username"), name),
		chromedp.SetValue(chromedp.ID("password"), password),
	))
	tb.must(tb.click(`#main form button[type=submit]`, "Log in"))
	if got := tb.text("header.top"); !strings.Contains(got, name) {
		tb.b.fatalf("%s: after logging in on %s the header says %q, want the username; the page says %q", tb.name, tb.location(), got, tb.text("#main"))
	}
	if next != "" {
		if u, err := url.Parse(tb.location()); err != nil || u.Path != next {
			tb.b.fatalf("%s: logged in with next=%s, the browser is on %s", tb.name, next, tb.location())
		}
	}
}

// openGame signs the tab in as name straight to game id's page, and waits
// for the page (and htmx, with JavaScript).
func (s *site) openGame(tb *tab, name string, id uint) {
	s.t.Helper()
	tb.logIn(s.base, name, fmt.Sprintf("/games/%d", id))
	cond := `document.readyState === 'complete' && !!document.querySelector('#game-main')`
	if tb.js {
		cond += ` && typeof window.htmx !== 'undefined'`
	}
	tb.must(tb.waitFor(cond, 10*time.Second, "the game page"))
}
