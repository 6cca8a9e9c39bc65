package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"cacao/engine"
	"cacao/models"
	"cacao/views/viewtest"
)

// TestOpeningAGameReadsItsNotices: a player who opens a game has seen what
// its notices told ("your turn" and the like): they are read, and the
// header counts only the other games' news. Without this, every move of a
// game played at its page added one to the count.
func TestOpeningAGameReadsItsNotices(t *testing.T) {
	s := newSite(t)
	ana, bob := s.signup("ana"), s.signup("bob")
	games := []uint{ana.createGame("@bob", "none", "none"), ana.createGame("@bob", "none", "none")}
	unread := func(name string, id uint) int { return unreadNotices(t, s, id, name, id) }
	r := engine.NewRand(3)
	for _, id := range games {
		bob.post(fmt.Sprintf("/games/%d/join", id), nil)
		// Until ana's move leaves bob news of the game, not yet seen (bob's
		// own moves read it).
		for i := 0; i < 4 || unread("bob", id) == 0 && i < 100; i++ {
			if !ana.act(id, r) {
				bob.act(id, r)
			}
		}
	}
	if unread("bob", games[0]) == 0 || unread("bob", games[1]) == 0 {
		t.Fatal("bob has no unread notices of the games: the test checks nothing")
	}
	other := unread("bob", games[1])
	for _, htmx := range []bool{false, true} {
		page := fmt.Sprintf("/games/%d", games[0])
		var body string
		if htmx {
			_, body = bob.htmx("GET", page+"?live=1", nil)
		} else {
			_, body = bob.get(page)
		}
		if n := unread("bob", games[0]); n != 0 {
			t.Fatalf("after opening game %d bob has %d unread notices of it", games[0], n)
		}
		if n := unread("bob", games[1]); n != other {
			t.Fatalf("opening game %d read notices of game %d: %d unread, were %d", games[0], games[1], n, other)
		}
		// The count is hidden in a refetch, whose answer takes its text.
		sel := map[bool]string{false: "span#unread:not([hidden])", true: "span#unread[hidden]"}[htmx]
		if !viewtest.HasText(t, body, sel, fmt.Sprint(other)) {
			t.Fatalf("the page does not count the other game's news only (%s saying %d):\n%s", sel, other, viewtest.Show(t, body, "#unread"))
		}
		ana.act(games[0], r) // a new notice for bob, perhaps
		bob.act(games[0], r)
	}
}

// TestStepLeavesNotices: a step of a selection (htmx, from a page that
// is open) does not look for the game's notices, nor count them for the
// header its link does not take; the page's live refresh after the
// other's move reads them.
func TestStepLeavesNotices(t *testing.T) {
	s := newSite(t)
	ana, bob := s.signup("ana"), s.signup("bob")
	id := ana.createGame("@bob", "none", "none")
	bob.post(fmt.Sprintf("/games/%d/join", id), nil)
	unread := func() int { return unreadNotices(t, s, id, "ana", 0) }
	r := engine.NewRand(5)
	checked := 0
	for i := 0; i < 500 && checked < 3; i++ {
		if _, l := s.seatOf(id, "ana"); l.Game.Status == models.StatusFinished {
			break
		}
		m, ok := ana.plan(id, r, nil)
		if !ok {
			bob.act(id, r)
			continue
		}
		if before := unread(); m.pl != nil && before > 0 {
			_, step := ana.htmx("GET", fmt.Sprintf("/games/%d?tile=%s&rot=%d", id, m.pl.Tile, m.pl.Rot), nil)
			if unread() != before {
				t.Fatal("a selection step read the game's notices")
			}
			// Its link takes the game area alone: no count to work out.
			if !viewtest.Has(t, step, "#game-main") || viewtest.Has(t, step, "#unread") {
				t.Fatalf("a selection step's answer counts the header's notices:\n%.300s", step)
			}
			// The live refresh reads them (written with the next flush, not
			// due yet: unread just flushed), and the move's answer, before
			// they are written, does not count them again.
			_, live := ana.htmx("GET", fmt.Sprintf("/games/%d?live=1&from=0", id), nil)
			_, answer := ana.htmx("POST", m.path, m.form)
			if !viewtest.HasText(t, live, "span#unread[hidden]", "0") || !viewtest.HasText(t, answer, "span#unread[hidden]", "0") {
				t.Fatalf("ana had %d unread notices, all of the game: the live refresh counts %s, the move's answer %s", before, viewtest.Show(t, live, "#unread"), viewtest.Show(t, answer, "#unread"))
			}
			if n := unread(); n != 0 {
				t.Fatalf("after the live refresh ana has %d unread notices (%d before)", n, before)
			}
			checked++
			continue
		}
		ana.htmx("POST", m.path, m.form)
	}
	if checked == 0 {
		t.Fatal("ana never had news before her move: the test checked nothing")
	}
}

// TestBotGameAnswersReadNotices: against bots, a move's answer shows the
// bots' replies, and with them the turn they hand back and, at the end,
// the result: those notices are read, and the count stays where it was.
// Before, the count grew by one at every move against a bot.
func TestBotGameAnswersReadNotices(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	id := ana.createGame("greedy", "none", "none")
	unread := func() int { return unreadNotices(t, s, id, "ana", 0) }
	ana.get(fmt.Sprintf("/games/%d", id))
	if n := unread(); n != 0 {
		t.Fatalf("ana has %d unread notices after opening the game", n)
	}
	r := engine.NewRand(7)
	moves := 0
	for ; moves < 200; moves++ {
		m, ok := ana.plan(id, r, nil)
		if !ok {
			break
		}
		_, answer := ana.htmx("POST", m.path, m.form)
		if !viewtest.HasText(t, answer, "span#unread[hidden]", "0") {
			t.Fatalf("move %d: the answer counts news: %s", moves, viewtest.Show(t, answer, "#unread"))
		}
		if n := unread(); n != 0 {
			t.Fatalf("move %d: ana has %d unread notices after the answer that showed them", moves, n)
		}
	}
	if _, l := s.seatOf(id, "ana"); l.Game.Status != models.StatusFinished {
		t.Fatalf("the game did not end in %d moves", moves)
	}
}

// unreadNotices counts the unread notices of name, a player of game id
// (of game only, when it is not 0).
func unreadNotices(t *testing.T, s *site, id uint, name string, only uint) (n int) {
	t.Helper()
	seat, l := s.seatOf(id, name)
	ns, _, err := s.store.Notifications(*l.Seats[seat].UserID, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range ns {
		if !x.Read && (only == 0 || x.GameID == only) {
			n++
		}
	}
	return n
}

// TestHomeSaysWhoTheGameWaitsOn: "My games" names the player a game waits
// on ("Waiting for bob"), not "others" in a two-player game.
func TestHomeSaysWhoTheGameWaitsOn(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.midGame()
	_, l := s.seatOf(id, "ana")
	waiter, other, name := ana, bob, "bob"
	if l.Seats[l.Play.State().Current()].Name == "ana" {
		waiter, other, name = bob, ana, "ana"
	}
	_, body := waiter.get("/")
	if !strings.Contains(body, "Waiting for "+name) || strings.Contains(body, "Waiting for others") {
		t.Fatalf("%s's home page does not say the game waits on %s:\n%s", waiter.name, name, body[strings.Index(body, "<main"):])
	}
	if _, body := other.get("/"); !strings.Contains(body, "Your turn") {
		t.Fatalf("%s's home page does not say it is their turn", other.name)
	}
}

// TestNotificationsGroupedByGame: the notifications page shows each game's
// notices under the game, alike ones once with their number: "It is your
// turn in game 1." once, not once a move.
func TestNotificationsGroupedByGame(t *testing.T) {
	s := newSite(t)
	id, ana, _ := s.midGame()
	_, body := ana.get("/notifications")
	turn := fmt.Sprintf("It is your turn in game %d.", id)
	if got := strings.Count(body, turn); got != 1 {
		t.Fatalf("the notifications page tells %q %d times, want once:\n%s", turn, got, body[strings.Index(body, "<main"):])
	}
	if !regexp.MustCompile(regexp.QuoteMeta(turn) + ` \([0-9]+ times\)`).MatchString(body) {
		t.Fatalf("the notice told once does not say how many times:\n%s", body[strings.Index(body, "<main"):])
	}
	if !viewtest.HasText(t, body, fmt.Sprintf(`h2 > a:last-child[href="/games/%d"]`, id), fmt.Sprintf("Game %d", id)) {
		t.Fatalf("the game's notices are not under the game:\n%s", viewtest.Show(t, body, "main h2"))
	}
}

// TestNotificationsPaged: the notifications page lists the newest
// notices a page at a time, with a link to the older ones.
func TestNotificationsPaged(t *testing.T) {
	s := newSite(t)
	ana, bob := s.signup("ana"), s.signup("bob")
	r := engine.NewRand(5)
	for n := 0; n < 8; n++ {
		s.clock.Advance(time.Hour) // past the limit on games opened in a row
		id := ana.createGame("open", "none", "none")
		bob.get("/")
		bob.post(fmt.Sprintf("/games/%d/join", id), nil)
		s.playToEnd(id, r, ana, bob)
	}
	u, _ := s.store.UserNamed("bob")
	all, _, _ := s.store.Notifications(u.ID, 0, 1000)
	if len(all) <= 100 {
		t.Fatalf("bob has %d notices: the test needs more than a page", len(all))
	}
	_, first := bob.get("/notifications")
	if !viewtest.HasText(t, first, `a[href="/notifications?from=100"]`, "Next page") || !strings.Contains(first, fmt.Sprintf("1–100 of %d", len(all))) {
		t.Fatalf("the first page of %d notices has no link to the older ones", len(all))
	}
	_, older := bob.get("/notifications?from=100")
	if !viewtest.HasText(t, older, `a[href="/notifications"]`, "Previous page") || !strings.Contains(older, fmt.Sprintf("101–%d of %d", len(all), len(all))) {
		t.Fatal("the second page does not follow the first")
	}
}

// TestNotificationsPageReadsNothing: reading the notifications (a page,
// an htmx fetch, a prefetch) marks none read; "Mark all read", a plain
// post with the CSRF token, does, but not a notice that came after the
// page was shown.
func TestNotificationsPageReadsNothing(t *testing.T) {
	s := newSite(t)
	ana, bob := s.signup("ana"), s.signup("bob")
	bobU, _ := s.store.UserNamed("bob")
	unread := func() int64 {
		t.Helper()
		n, err := s.store.Unread(bobU.ID)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	first := ana.createGame("@bob", "none", "none")
	_, page := bob.get("/notifications")
	bob.htmx("GET", "/notifications", nil)
	if n := unread(); n != 1 || !strings.Contains(page, "New:") {
		t.Fatalf("after reading the notifications bob has %d unread", n)
	}
	// The form's token, then up to which notice it marks.
	read := `form[method="post"][action="/notifications/read"] > input:first-child[type="hidden"][name="_csrf"]`
	token, _ := viewtest.Attr(t, page, read, "value")
	upto, _ := viewtest.Attr(t, page, read+` + input[type="hidden"][name="upto"]`, "value")
	if token == "" || !regexp.MustCompile(`^\d+$`).MatchString(upto) {
		t.Fatalf("no form marks the notices read:\n%s", viewtest.Show(t, page, `form[action="/notifications/read"]`))
	}
	ana.createGame("@bob", "none", "none") // after the page was shown
	if code, _ := bob.post("/notifications/read", url.Values{"upto": {upto}, "_csrf": {"x"}}); code < 400 || unread() != 2 {
		t.Fatalf("marking read without the CSRF token: %d, %d unread", code, unread())
	}
	code, page := bob.post("/notifications/read", url.Values{"upto": {upto}})
	if code != http.StatusOK || unread() != 1 || !strings.Contains(page, fmt.Sprintf("ana invited you to game %d.", first)) {
		t.Fatalf("marking read: %d, %d unread (want the later one)", code, unread())
	}
}
