package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"cacao/engine"
	"cacao/engine/tutorial"
	"cacao/views/viewtest"
)

// learnSteps is the tutorial's steps: the introduction, a lesson each, the score.
func learnSteps(t *testing.T) (*tutorial.Script, int) {
	t.Helper()
	sc, err := tutorial.Load()
	if err != nil {
		t.Fatal(err)
	}
	return sc, len(sc.Lessons) + 2
}

// follow takes the lesson at /learn/n as a visitor without JavaScript
// would, by the marks alone: the marked tile, Rotate until a cell is
// marked, that cell; it returns the move's form.
func follow(t *testing.T, c *client, n int) url.Values {
	t.Helper()
	path := fmt.Sprintf("/learn/%d", n)
	code, body := c.get(path)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d", path, code)
	}
	href, ok := viewtest.Attr(t, body, "#hand a.tile.coach", "href")
	if !ok {
		t.Fatalf("%s marks no tile of the hand:\n%s", path, viewtest.Show(t, body, "#hand"))
	}
	for i := 0; ; i++ {
		_, body = c.get(href)
		if cell, ok := viewtest.Attr(t, body, "#place-cells a.cell.coach", "href"); ok {
			_, body = c.get(cell)
			break
		}
		if i == 4 {
			t.Fatalf("%s: no rotation of the marked tile marks a cell", path)
		}
		if href, ok = viewtest.Attr(t, body, "#rotate", "href"); !ok {
			t.Fatalf("%s: the marked tile marks no cell and cannot be turned", path)
		}
	}
	if got := viewtest.Text(t, body, "#coach-do"); !strings.Contains(got, "Confirm") {
		t.Errorf("%s, the marked tile on the marked cell: the bar says %q, not to confirm", path, got)
	}
	if viewtest.Has(t, body, "#coach-wrong") {
		t.Errorf("%s, the lesson's move: called wrong: %s", path, viewtest.Text(t, body, "#coach-wrong"))
	}
	form := url.Values{}
	viewtest.Find(t, body, "#play form input[type=hidden]").Each(func(_ int, in *goqSel) {
		name, _ := in.Attr("name")
		value, _ := in.Attr("value")
		form.Set(name, value)
	})
	if action, _ := viewtest.Attr(t, body, "#play form", "action"); action != path {
		t.Fatalf("%s: the move's form posts to %q", path, action)
	}
	return form
}

// TestLearnByTheMarks: a visitor without an account follows every lesson
// by its marks and confirms; each move leads to the next step, and the
// last step offers a real game against the easy bot and a sign-up.
func TestLearnByTheMarks(t *testing.T) {
	s := newSite(t)
	c := s.client("visitor")
	_, steps := learnSteps(t)
	code, body := c.get("/learn")
	if code != http.StatusOK {
		t.Fatalf("GET /learn: %d", code)
	}
	if href, _ := viewtest.Attr(t, body, "#learn-start", "href"); href != "/learn/1" {
		t.Fatalf("the introduction starts at %q", href)
	}
	for n := 1; n < steps-1; n++ {
		form := follow(t, c, n)
		req, _ := http.NewRequest("POST", s.srv.URL+fmt.Sprintf("/learn/%d", n), strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		noFollow := *c.http
		noFollow.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
		res, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if want := fmt.Sprintf("/learn/%d", n+1); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != want {
			t.Fatalf("lesson %d's move confirmed: %d to %q, want 303 to %s", n, res.StatusCode, res.Header.Get("Location"), want)
		}
	}
	code, body = c.get(fmt.Sprintf("/learn/%d", steps-1))
	if code != http.StatusOK || !viewtest.Has(t, body, "#final") {
		t.Fatalf("the last step (%d) shows no score", code)
	}
	if href, _ := viewtest.Attr(t, body, "#learn-play", "href"); href != "/play?bot=easy" {
		t.Errorf("the last step offers %q, not a game against the easy bot", href)
	}
	if !viewtest.Has(t, body, `#learn-signup[href="/signup"]`) {
		t.Error("the last step offers no sign-up")
	}
	if viewtest.Has(t, body, "#learn-skip") {
		t.Error("the last step offers to skip it")
	}
}

// TestLearnMoveWithHTMX: the lesson's move confirmed from htmx answers
// with the next step, its address pushed into the history.
func TestLearnMoveWithHTMX(t *testing.T) {
	s := newSite(t)
	c := s.client("visitor")
	form := follow(t, c, 1)
	code, body := c.htmx("POST", "/learn/1", form)
	if code != http.StatusOK || c.last.Get("HX-Push-Url") != "/learn/2" {
		t.Fatalf("the move from htmx: %d, HX-Push-Url %q", code, c.last.Get("HX-Push-Url"))
	}
	if !viewtest.Has(t, body, "#game-main #lesson") || viewtest.Has(t, body, "header.top") {
		t.Errorf("the answer is not the tutorial's area alone:\n%s", viewtest.Excerpt(body))
	}
	if got := viewtest.Text(t, body, ".lesson-step"); !strings.Contains(got, "3") {
		t.Errorf("the answer is step %q, not the third", got)
	}
	if viewtest.Count(t, body, "#learn-since li") == 0 || viewtest.Count(t, body, "#announce p") == 0 {
		t.Error("the next step tells nothing of what happened since the lesson, on the page nor for a screen reader")
	}
}

// TestLearnWrongTry: another tile, another cell or the tile turned
// another way is told why it is not the lesson's move, on the lesson
// (200), and changes nothing: the lesson's move still goes on.
func TestLearnWrongTry(t *testing.T) {
	s := newSite(t)
	c := s.client("visitor")
	sc, _ := learnSteps(t)
	for i := range sc.Lessons {
		n := i + 1
		st, err := sc.At(sc.Lessons[i].Turn)
		if err != nil {
			t.Fatal(err)
		}
		m := sc.Move(i)
		var wrong []engine.Placement
		for _, pl := range st.LegalPlacements(nil) {
			switch {
			case pl.Tile != m.Tile && len(wrong) == 0, pl.Tile == m.Tile && pl.At != m.At && len(wrong) == 1:
				wrong = append(wrong, pl)
			}
		}
		if turned := (engine.Placement{Tile: m.Tile, Rot: (m.Rot + 1) % 4, At: m.At, Overbuild: m.Overbuild}); m.Tile.Edges(turned.Rot) != m.Tile.Edges(m.Rot) {
			wrong = append(wrong, turned)
		}
		for _, pl := range wrong {
			form := url.Values{"tile": {pl.Tile.String()}, "rot": {fmt.Sprint(pl.Rot)}, "at": {fmt.Sprintf("%d,%d", pl.At.X, pl.At.Y)}}
			if pl.Overbuild {
				form.Set("overbuild", "1")
			}
			code, body := c.post(fmt.Sprintf("/learn/%d", n), form)
			if code != http.StatusOK {
				t.Fatalf("lesson %d, the try %+v: %d, not the lesson with why", n, pl, code)
			}
			got := viewtest.Text(t, body, "#coach-wrong")
			if got == "" || !strings.Contains(viewtest.Text(t, body, ".lesson-step"), fmt.Sprint(n+1)) {
				t.Errorf("lesson %d, the try %+v: not explained on the lesson (%q)", n, pl, got)
			}
		}
		// Posted with nothing chosen, too.
		if code, body := c.post(fmt.Sprintf("/learn/%d", n), url.Values{}); code != http.StatusOK || !viewtest.Has(t, body, "#coach-wrong") {
			t.Errorf("lesson %d, an empty try: %d, explained %v", n, code, viewtest.Has(t, body, "#coach-wrong"))
		}
	}
	// A wrong tile chosen is told at once.
	st, _ := sc.At(sc.Lessons[0].Turn)
	for _, w := range st.Player(tutorial.Learner).HandTiles() {
		if w != sc.Move(0).Tile {
			_, body := c.get("/learn/1?tile=" + w.String())
			if !strings.Contains(viewtest.Text(t, body, "#coach-wrong"), "not the marked tile") {
				t.Errorf("another tile chosen: %q", viewtest.Text(t, body, "#coach-wrong"))
			}
			break
		}
	}
	form := follow(t, c, 1)
	if code, body := c.post("/learn/1", form); code != http.StatusOK || !strings.Contains(viewtest.Text(t, body, ".lesson-step"), "3") {
		t.Fatalf("the lesson's move after wrong tries: %d, step %q", code, viewtest.Text(t, body, ".lesson-step"))
	}
}

// TestLearnSkip: every step but the last can be skipped, to the next.
func TestLearnSkip(t *testing.T) {
	s := newSite(t)
	c := s.client("visitor")
	_, steps := learnSteps(t)
	for n := 1; n < steps-1; n++ {
		_, body := c.get(fmt.Sprintf("/learn/%d", n))
		if href, _ := viewtest.Attr(t, body, "#learn-skip", "href"); href != fmt.Sprintf("/learn/%d", n+1) {
			t.Errorf("step %d skips to %q", n, href)
		}
	}
}

// TestLearnBadAddresses: a step out of range or not a number is a clear
// 404; a selection that cannot be read is said on the lesson (200).
func TestLearnBadAddresses(t *testing.T) {
	s := newSite(t)
	c := s.client("visitor")
	_, steps := learnSteps(t)
	for _, p := range []string{"/learn/0", fmt.Sprintf("/learn/%d", steps), "/learn/-1", "/learn/x", "/learn/99999999999999999999"} {
		code, body := c.get(p)
		if code != http.StatusNotFound || !strings.Contains(body, "The tutorial has no step") {
			t.Errorf("GET %s: %d, want a 404 that says the steps\n%s", p, code, viewtest.Excerpt(body))
		}
		if code, _ := c.post(p, url.Values{"tile": {"2101"}}); code != http.StatusNotFound {
			t.Errorf("POST %s: %d, want 404", p, code)
		}
	}
	for _, q := range []string{"tile=zz", "tile=2101&rot=9", "tile=2101&at=nowhere", "tile=2101&at=1,1&fill=x", "tile=2101&slot=-3"} {
		code, body := c.get("/learn/1?" + q)
		if code != http.StatusOK || viewtest.Text(t, body, "#game-error") == "" {
			t.Errorf("GET /learn/1?%s: %d, error %q", q, code, viewtest.Text(t, body, "#game-error"))
		}
	}
	// A cell no tile can go to, and a tile not in the hand.
	for _, q := range []string{"tile=" + sc0(t).Move(0).Tile.String() + "&at=40,40", "tile=1111&at=1,0"} {
		if code, _ := c.get("/learn/1?" + q); code != http.StatusOK {
			t.Errorf("GET /learn/1?%s: %d", q, code)
		}
	}
}

func sc0(t *testing.T) *tutorial.Script {
	sc, _ := learnSteps(t)
	return sc
}

// TestLearnShowsNothingHidden: every step shows the learner's own hand
// and nothing of the bot's hand, the piles or the deal.
func TestLearnShowsNothingHidden(t *testing.T) {
	s := newSite(t)
	c := s.client("visitor")
	sc, steps := learnSteps(t)
	var pile []string
	for _, j := range sc.Record.Setup.Jungle {
		pile = append(pile, j.String())
	}
	for n := 0; n < steps; n++ {
		_, body := c.get(learnAddr(n))
		var hand []string
		if n > 0 && n < steps-1 {
			st, _ := sc.At(sc.Lessons[n-1].Turn)
			for _, w := range st.Player(tutorial.Learner).HandTiles() {
				hand = append(hand, w.String())
			}
		}
		var shown []string
		viewtest.Find(t, body, "[data-tile]").Each(func(_ int, e *goqSel) {
			v, _ := e.Attr("data-tile")
			shown = append(shown, v)
		})
		if strings.Join(shown, " ") != strings.Join(hand, " ") {
			t.Errorf("step %d shows the tiles %v, the learner's hand is %v", n, shown, hand)
		}
		// Nor links to a game of the site's: the tutorial's is none.
		if viewtest.Has(t, body, `a[href^="/games/"], form[action^="/games/"]`) {
			t.Errorf("step %d links to a game: %s", n, viewtest.Show(t, body, `a[href^="/games/"], form[action^="/games/"]`))
		}
		low := strings.ToLower(body)
		for _, secret := range []string{"seed", strings.ToLower(strings.Join(pile[:4], " ")), strings.ToLower(strings.Join(pile[:4], ",")), "script.json"} {
			if strings.Contains(low, secret) {
				t.Errorf("step %d shows %q", n, secret)
			}
		}
	}
}

type goqSel = goquery.Selection

func learnAddr(n int) string {
	if n == 0 {
		return "/learn"
	}
	return fmt.Sprintf("/learn/%d", n)
}
