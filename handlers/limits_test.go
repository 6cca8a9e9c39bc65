package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestLimitsHoldAtOnce: a limit is taken before the work it guards, in one
// step: many requests at once get no more through than one after another.
// 60 games opened at once make 10 (the burst); 30 sign-ups at once from
// one address make at most 5 (one that the hashing gate finds busy is
// refused, but its sign-up is spent all the same).
func TestLimitsHoldAtOnce(t *testing.T) {
	s := newSiteWith(t, proxied)
	ana := s.signup("ana")
	ana.get("/")
	codes := atOnce(t, 60, func() *http.Request {
		return formRequest(s, "/games", url.Values{"seat": {"greedy"}, "_csrf": {ana.csrf}})
	}, ana.http)
	if games, total, _ := s.store.MyGames(1, 0, 100); total != 10 || codes[http.StatusOK] != 10 || codes[http.StatusTooManyRequests] != 50 {
		t.Fatalf("60 games opened at once: %d made (%d), answers %v; want 10", total, len(games), codes)
	}

	eve := s.client("eve").from("203.0.113.9")
	eve.get("/signup")
	var n atomic.Int32
	codes = atOnce(t, 30, func() *http.Request {
		r := formRequest(s, "/signup", url.Values{"username": {fmt.Sprintf("user%d", n.Add(1))}, "password": {"password-x1"}, "_csrf": {eve.csrf}})
		r.Header.Set("X-Forwarded-For", "203.0.113.9")
		return r
	}, eve.http)
	made := 0
	for i := range 30 {
		if _, err := s.store.UserNamed(fmt.Sprintf("user%d", i+1)); err == nil {
			made++
		}
	}
	if made < 1 || made > 5 || codes[http.StatusOK] != made {
		t.Fatalf("30 sign-ups at once from one address: %d made, answers %v; want at most 5", made, codes)
	}
	s.clock.Advance(time.Minute) // the address's password checks are back, not its sign-ups
	if code, body := eve.post("/signup", url.Values{"username": {"late"}, "password": {"password-x1"}}); code != http.StatusTooManyRequests || !strings.Contains(body, "Too many sign-ups") {
		t.Fatalf("a sign-up after them: %d", code)
	}
}

// atOnce sends n requests (made by req) at once, with hc, and counts the
// answers' statuses.
func atOnce(t *testing.T, n int, req func() *http.Request, hc *http.Client) map[int]int {
	t.Helper()
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	start := make(chan struct{})
	for range n {
		r := req()
		wg.Go(func() {
			<-start
			res, err := hc.Do(r)
			if err != nil {
				t.Error(err)
				return
			}
			res.Body.Close()
			mu.Lock()
			codes[res.StatusCode]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return codes
}

// formRequest is a form posted to path on s.
func formRequest(s *site, path string, form url.Values) *http.Request {
	r, _ := http.NewRequest("POST", s.srv.URL+path, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return r
}

// TestRematchCountsAsNewGame: a rematch is a game opened: resigning and
// asking for a rematch, over and over, opens no more games in a row than
// the home page's form does.
func TestRematchCountsAsNewGame(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	id := ana.createGame("random")
	rematch := func() (int, string) {
		t.Helper()
		if code, _ := ana.post(fmt.Sprintf("/games/%d/resign", id), nil); code != http.StatusOK {
			t.Fatalf("resigning game %d: %d", id, code)
		}
		s.bots.Wait()
		return ana.post(fmt.Sprintf("/games/%d/rematch", id), nil)
	}
	for n := 2; n <= 10; n++ {
		code, body := rematch()
		m := gameIDRE.FindStringSubmatch(body)
		if code != http.StatusOK || m == nil {
			t.Fatalf("rematch %d: %d\n%.500s", n, code, body)
		}
		fmt.Sscan(m[1], &id)
	}
	code, body := rematch()
	if code != http.StatusTooManyRequests || !strings.Contains(body, "You opened many games in a row") || ana.last.Get("Retry-After") == "" {
		t.Fatalf("an 11th game at once, by rematch: %d\n%.500s", code, body)
	}
	if l, err := s.store.LoadGame(id); err != nil || l.Game.RematchID != nil {
		t.Fatalf("the refused rematch was made (%v)", err)
	}
	s.clock.Advance(3 * time.Minute)
	if code, _ := ana.post(fmt.Sprintf("/games/%d/rematch", id), nil); code != http.StatusOK {
		t.Fatalf("a rematch once the next game is due: %d", code)
	}
}

// TestConfirmationsPerClientAddress: one address (the client's, whatever
// accounts it signs in to) asks for at most 5 confirmation mails a day, so
// that a few addresses cannot use up the site's; another address is not
// affected.
func TestConfirmationsPerClientAddress(t *testing.T) {
	s := newSiteWith(t, proxied)
	save := func(name, ip string) (int, string) {
		t.Helper()
		if _, err := s.store.CreateUser(name, "password-x1"); err != nil {
			t.Fatal(err)
		}
		c := s.client(name).from(ip)
		if code, _ := c.login(name, "password-x1"); code != http.StatusOK {
			t.Fatalf("%s logs in: %d", name, code)
		}
		return c.post("/settings/news", newsForm(name+"@example.test", eachMail...))
	}
	for i := range 5 {
		if code, body := save(fmt.Sprintf("user%d", i), "203.0.113.20"); code != http.StatusOK || !strings.Contains(body, "We sent a link") {
			t.Fatalf("confirmation %d from one address: %d", i+1, code)
		}
	}
	code, body := save("user5", "203.0.113.20")
	if code != http.StatusTooManyRequests || !strings.Contains(body, "Your address asked for many confirmation mails today") {
		t.Fatalf("a 6th confirmation from one address: %d\n%.600s", code, body)
	}
	if code, body := save("other", "198.51.100.20"); code != http.StatusOK || !strings.Contains(body, "We sent a link") {
		t.Fatalf("a confirmation from another address: %d", code)
	}
}
