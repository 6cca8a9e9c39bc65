package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"cacao/engine"
	"cacao/models"
	"cacao/models/autoplay"
	"cacao/views/viewtest"
)

// TestInvitationJourney: a seat kept for an invited player is offered to
// them alone; they are told, can accept or decline, and a declined seat
// opens to anyone. Bad invitations are refused and create nothing.
func TestInvitationJourney(t *testing.T) {
	s := newSite(t)
	ana, bob, carl := s.signup("ana"), s.signup("bob"), s.signup("carl")
	for _, bad := range []url.Values{
		{"seat": {"invite"}, "invite": {"nobody-here"}},
		{"seat": {"invite"}, "invite": {""}},
		{"seat": {"open"}, "turn_hours": {"5"}},
		{"seat": {"open"}, "turn_hours": {"x"}},
	} {
		ana.get("/")
		code, body := ana.post("/games", bad)
		if code != http.StatusUnprocessableEntity || !viewtest.Has(t, body, ".error") {
			t.Fatalf("create %v: %d, want 422 with the reason", bad, code)
		}
	}
	if mine, _, _ := s.store.MyGames(1, 0, 100); len(mine) != 0 {
		t.Fatalf("refused forms created %d games", len(mine))
	}
	ana.get("/")
	code, body := ana.post("/games", url.Values{"seat": {"invite"}, "invite": {"bob"}, "turn_hours": {"72"}})
	m := gameIDRE.FindStringSubmatch(body)
	if code != http.StatusOK || m == nil {
		t.Fatalf("create with an invitation: %d\n%s", code, body)
	}
	id := m[1]
	if _, page := bob.get("/notifications"); !strings.Contains(page, "ana invited you to game "+id) {
		t.Fatal("bob was not told of his invitation")
	}
	_, home := bob.get("/")
	if !strings.Contains(home, "Invitations") || !strings.Contains(home, "/games/"+id+"/decline") || !strings.Contains(home, "3 days per turn") {
		t.Fatal("bob's home does not offer the invitation with its time limit")
	}
	if _, page := bob.get("/games/" + id); !strings.Contains(page, "A seat is kept for you") || !strings.Contains(page, "/games/"+id+"/decline") {
		t.Fatal("the game page does not offer bob his seat")
	}
	if _, page := carl.get("/games/" + id); !strings.Contains(page, "(kept for an invited player)") || strings.Contains(page, "/decline") {
		t.Fatal("the game page does not show carl that the seat is kept")
	}
	if _, home := carl.get("/"); strings.Contains(home, "/games/"+id+"/join") {
		t.Fatal("the seat kept for bob is offered to carl")
	}
	if code, _ := carl.post("/games/"+id+"/join", nil); code != http.StatusUnprocessableEntity {
		t.Fatalf("carl took bob's seat: %d", code)
	}
	if code, _ := carl.post("/games/"+id+"/decline", nil); code != http.StatusUnprocessableEntity {
		t.Fatalf("carl declined bob's invitation: %d", code)
	}
	if code, _ := bob.post("/games/"+id+"/decline", nil); code != http.StatusOK {
		t.Fatalf("decline: %d", code)
	}
	if _, page := ana.get("/notifications"); !strings.Contains(page, "bob declined your invitation to game "+id) {
		t.Fatal("ana was not told that bob declined")
	}
	if _, home := carl.get("/"); !strings.Contains(home, "/games/"+id+"/join") {
		t.Fatal("the declined seat is not open to others")
	}
	if code, body := carl.post("/games/"+id+"/join", nil); code != http.StatusOK || !strings.Contains(body, "Time per turn: 3 days.") {
		t.Fatalf("carl could not take the freed seat: %d", code)
	}
}

// TestSinceYourLastMove: opening a game shows what the others did since the
// viewer's own last move, marks what is new since they last looked, and
// outlines the changed cells.
func TestSinceYourLastMove(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	seatAna, l := s.seatOf(id, "ana")
	first, second := ana, bob
	if l.Play.State().Current() != seatAna {
		first, second = bob, ana
	}
	page := fmt.Sprintf("/games/%d", id)
	if _, body := first.get(page); strings.Contains(body, "Since your last move") {
		t.Fatal("a panel of changes before anyone moved")
	}
	r := engine.NewRand(3)
	if !first.act(id, r) {
		t.Fatal("the first player could not move")
	}
	_, l = s.seatOf(id, "ana")
	placed := l.Events[len(l.Events)-1].Placement
	_, body := second.get(page)
	cell := fmt.Sprintf("at (%d,\u00a0%d)", placed.At.X, placed.At.Y) // a cell's name is not broken
	if !strings.Contains(body, "Since your last move") || !slices.ContainsFunc(newLines(t, body), func(l [2]string) bool {
		return l[1] == "Turn 1" && strings.HasPrefix(l[0], "New: Turn 1 "+first.name+" placed")
	}) || !strings.Contains(body, cell) {
		t.Fatalf("%s does not see %s's move as new\n%s", second.name, first.name, body[strings.Index(body, "<main"):])
	}
	if !viewtest.Has(t, body, ".changed") {
		t.Fatal("the changed cell is not outlined")
	}
	_, body = second.get(page)
	if !strings.Contains(body, "Since your last move") || viewtest.HasText(t, body, "strong", "New:") {
		t.Fatal("on a second look the move should still be listed, no longer as new")
	}
	// Once the viewer moves, the panel starts again from their move.
	for second.act(id, r) {
	}
	if _, body := second.get(page); strings.Contains(body, "Since your last move") {
		t.Fatal("the panel lists moves from before the viewer's own move")
	}
	answer := regexp.MustCompile(`^New: (Turn [0-9]+ )?` + second.name)
	if _, body := first.get(page); !slices.ContainsFunc(newLines(t, body), func(l [2]string) bool {
		m := answer.FindStringSubmatch(l[0])
		return m != nil && strings.TrimSpace(m[1]) == l[1] // a turn shown is in its span
	}) {
		t.Fatalf("%s does not see %s's answer:\n%s", first.name, second.name, viewtest.Show(t, body, "#since"))
	}
}

// newLines is each line of a page's lists that starts with <strong>New:</strong>:
// its text, and the turn number it shows next in a span.turn-no ("" if none).
func newLines(t testing.TB, body string) [][2]string {
	t.Helper()
	var lines [][2]string
	viewtest.Find(t, body, "li").Each(func(_ int, li *goquery.Selection) {
		if first := li.Children().First(); first.Is("strong") && viewtest.Collapse(first.Text()) == "New:" {
			turn := ""
			if next := first.Next(); next.Is("span.turn-no") {
				turn = viewtest.Collapse(next.Text())
			}
			lines = append(lines, [2]string{viewtest.Collapse(li.Text()), turn})
		}
	})
	return lines
}

// TestHomeListsLive: the home page's stream tells a player when one of
// their games changes, tells everyone when the open games change, and
// catches up a page that reconnects after missing a change.
func TestHomeListsLive(t *testing.T) {
	s := newSite(t)
	ana, bob, carl := s.signup("ana"), s.signup("bob"), s.signup("carl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	anaLines, err := ana.stream(ctx, "/events", "")
	if err != nil {
		t.Fatal(err)
	}
	carlLines, err := carl.stream(ctx, "/events", "")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, anaLines, ": connected")
	waitFor(t, carlLines, ": connected")
	id := ana.createGame("open", "none", "none")
	waitFor(t, anaLines, "event: user")
	waitFor(t, carlLines, "event: user") // a new open game
	lastCarl := strings.TrimPrefix(waitFor(t, carlLines, "data: "), "data: ")
	if !strings.Contains(lastCarl, `"topic"`) || strings.Contains(lastCarl, "<") {
		t.Fatalf("event data %q: want only a topic and a version", lastCarl)
	}
	if code, _ := bob.post(fmt.Sprintf("/games/%d/join", id), nil); code != http.StatusOK {
		t.Fatalf("join: %d", code)
	}
	waitFor(t, anaLines, "event: user") // her game started
	// A page that saw an older version catches up at once on reconnect.
	again, err := carl.stream(ctx, "/events", "1")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, again, "event: user")
	if _, err := s.client("nobody").stream(ctx, "/events", ""); err == nil {
		t.Fatal("an anonymous client got a stream")
	}
}

// dayPerTurn starts a game of ana and bob with a day per turn, and says
// who is to play (waiter) and who waits for them (other).
func (s *site) dayPerTurn() (id uint, waiter, other *client) {
	s.t.Helper()
	ana, bob := s.signup("ana"), s.signup("bob")
	ana.get("/")
	code, body := ana.post("/games", url.Values{"seat": {"open"}, "turn_hours": {"24"}})
	m := gameIDRE.FindStringSubmatch(body)
	if code != http.StatusOK || m == nil {
		s.t.Fatalf("create: %d", code)
	}
	fmt.Sscan(m[1], &id)
	if code, _ := bob.post(fmt.Sprintf("/games/%d/join", id), nil); code != http.StatusOK {
		s.t.Fatalf("join: %d", code)
	}
	seatAna, l := s.seatOf(id, "ana")
	if l.Play.State().Current() != seatAna {
		return id, bob, ana
	}
	return id, ana, bob
}

// TestDeadlineVisibleAndTimeoutPlayed: a game with a day per turn shows the
// time left; when it runs out the worker's greedy bot plays for the seat,
// the log and both players say so, and the player keeps the seat.
func TestDeadlineVisibleAndTimeoutPlayed(t *testing.T) {
	s := newSite(t)
	id, waiter, other := s.dayPerTurn()
	if _, home := waiter.get("/"); viewtest.WithText(viewtest.WithText(viewtest.Find(t, home, "td > strong"), "Your turn").Parent(), "Your turn (24 hours left)").Length() == 0 {
		t.Fatalf("the home page does not show the time left:\n%s", viewtest.Show(t, home, "td:has(strong)"))
	}
	if _, page := other.get(fmt.Sprintf("/games/%d", id)); !strings.Contains(page, "Time per turn: 1 day.") || !strings.Contains(page, "24 hours left") {
		t.Fatal("the game page does not show the limit and the waiting player's clock")
	}
	s.clock.Advance(13 * time.Hour)
	if n, err := s.store.SendReminders(); err != nil || n != 1 {
		t.Fatalf("reminders: %d, %v", n, err)
	}
	if _, page := waiter.get("/notifications"); !strings.Contains(page, "your time runs out in about 11 hours") {
		t.Fatal("no reminder for the waiting player")
	}
	s.clock.Advance(12 * time.Hour)
	if n, err := autoplay.Timeouts(s.store); err != nil || n != 1 {
		t.Fatalf("timeouts: %d, %v", n, err)
	}
	page := fmt.Sprintf("/games/%d", id)
	_, body := other.get(page)
	if !strings.Contains(body, waiter.name+" (out of time: the stand-in bot played) placed") {
		t.Fatal("the log does not say the bot played for the player who ran out of time")
	}
	if _, notes := other.get("/notifications"); !strings.Contains(notes, waiter.name+"&#39;s time ran out") {
		t.Fatal("the other player was not told")
	}
	if _, notes := waiter.get("/notifications"); !strings.Contains(notes, "Your seat is still yours") {
		t.Fatal("the player who ran out of time was not told")
	}
	if !other.act(id, engine.NewRand(1)) {
		t.Fatal("the game did not go on after the timeout")
	}
	if !waiter.act(id, engine.NewRand(2)) {
		t.Fatal("the player who timed out cannot play on in their seat")
	}
	_, l := s.seatOf(id, waiter.name)
	if l.Game.Status != models.StatusActive {
		t.Fatal("game stopped")
	}
}

// TestIllegalCellIsExplained: a link naming a cell where the chosen tile
// cannot go says so, and offers the legal cells again.
func TestIllegalCellIsExplained(t *testing.T) {
	ana, id, pl := newSite(t).botGame("random")
	_, body := ana.get(fmt.Sprintf("/games/%d?tile=%s&rot=%d&at=40,40", id, pl.Tile, pl.Rot))
	if !strings.Contains(body, "That cell is not a legal place for this tile") || !strings.Contains(body, "Place at ") {
		t.Fatal("an illegal cell in the address is not explained, or the legal cells are not offered again")
	}
	// A legal cell asked as an overbuild (no own tile there to cover) is
	// not a legal place either, not a rule of overbuilding broken.
	_, body = ana.get(fmt.Sprintf("/games/%d?tile=%s&rot=%d&at=%d,%d&overbuild=1", id, pl.Tile, pl.Rot, pl.At.X, pl.At.Y))
	if !strings.Contains(body, "That cell is not a legal place for this tile") || strings.Contains(body, `/turn"`) {
		t.Fatal("an overbuild of an empty legal cell is not refused as an illegal place")
	}
}

// TestKeptSeatsAreNotOffered: a seat kept for an invited player is not
// counted among the open seats, nor offered to anyone else once it is the
// only one left (the game page, the invite link's page).
func TestKeptSeatsAreNotOffered(t *testing.T) {
	s := newSite(t)
	ana, bob, carl, dave := s.signup("ana"), s.signup("bob"), s.signup("carl"), s.signup("dave")
	ana.get("/")
	code, body := ana.post("/games", url.Values{"seat": {"invite", "open"}, "invite": {"bob", ""}})
	m := gameIDRE.FindStringSubmatch(body)
	if code != http.StatusOK || m == nil {
		t.Fatalf("create: %d\n%s", code, body)
	}
	id := m[1]
	if _, home := dave.get("/"); viewtest.Find(t, home, "li").FilterFunction(func(_ int, li *goquery.Selection) bool {
		return strings.HasPrefix(viewtest.Collapse(li.Text()), "Game "+id+": ana (1500?), (invited), (open) — 1 seat open") &&
			viewtest.WithText(li.Find(`a[href="/users/ana"]`), "ana").Length() == 1 && viewtest.WithText(li.Find("span.rating"), "(1500?)").Length() == 1
	}).Length() != 1 {
		t.Fatalf("dave's open games do not count one seat open in game %s:\n%s", id, home)
	}
	_, page := ana.get("/games/" + id)
	tok := regexp.MustCompile(`/join/([0-9a-f]{32})`).FindStringSubmatch(page)
	if tok == nil {
		t.Fatal("no invite link on ana's page")
	}
	if code, _ := carl.post("/games/"+id+"/join", nil); code != http.StatusOK {
		t.Fatalf("carl joins: %d", code)
	}
	for _, path := range []string{"/games/" + id, "/join/" + tok[1]} {
		if _, page := dave.get(path); strings.Contains(page, "Take a seat") || !strings.Contains(page, "kept for") {
			t.Errorf("%s offers dave the seat kept for bob, or does not say it is kept", path)
		}
	}
	if _, page := bob.get("/games/" + id); !strings.Contains(page, "A seat is kept for you") || !strings.Contains(page, "Take a seat") {
		t.Fatal("bob is not offered his seat")
	}
	if _, page := bob.get("/join/" + tok[1]); !strings.Contains(page, "Take a seat") {
		t.Fatal("the invite link's page does not offer bob his seat")
	}
}

// TestClockSaysVacation: the game page tells a waiting player's clock is
// paused by their vacation while it lasts, and no more once it is over.
func TestClockSaysVacation(t *testing.T) {
	s := newSite(t)
	id, waiter, other := s.dayPerTurn()
	if code, _ := waiter.post("/settings/vacation", url.Values{"days": {"2"}}); code != http.StatusOK {
		t.Fatalf("vacation: %d", code)
	}
	page := fmt.Sprintf("/games/%d", id)
	if _, body := other.get(page); !strings.Contains(body, ", on vacation until") {
		t.Fatalf("the waiting player's clock does not say they are on vacation:\n%s", body)
	}
	s.clock.Advance(2*24*time.Hour + time.Hour)
	if _, body := other.get(page); strings.Contains(body, ", on vacation until") {
		t.Fatal("the clock still tells of a vacation that is over")
	}
}
