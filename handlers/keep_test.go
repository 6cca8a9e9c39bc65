package handlers_test

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"cacao/views/viewtest"
)

// ask sends a request with c's cookies and the given headers (a form body
// when form is not ""), and returns the status, body and headers.
func (c *client) ask(t *testing.T, method, path, form string, headers map[string]string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(method, c.s.srv.URL+path, strings.NewReader(form))
	if form != "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := c.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header
}

// step fetches path as htmx does from a game page.
func (c *client) step(t *testing.T, path string) string {
	t.Helper()
	code, body, _ := c.ask(t, "GET", path, "", map[string]string{"HX-Request": "true"})
	if code != http.StatusOK {
		t.Fatalf("%s: status %d", path, code)
	}
	return body
}

// TestStepsAnswerWhatTheyChange: choosing a tile and then a cell, from a
// page showing the game as it is, each answer only what a step changes
// (the bar of the move, the hand, the board with its tiles and places, the
// board's tools), and tell htmx to put it in that part's place; the move
// panel names the cell chosen: on the board it is only a drawing. A step
// from a page the game has moved past, or one that cannot be taken,
// answers the whole game area.
func TestStepsAnswerWhatTheyChange(t *testing.T) {
	s := newSite(t)
	id, ana, _ := s.midGame()
	full := ana.step(t, fmt.Sprintf("/games/%d", id))
	if viewtest.Has(t, full, "#place-cells") {
		t.Fatal("a page without a tile chosen shows places")
	}
	// The parts, by CSS selector: a list or group is there with its items.
	turn := []string{"div#game-turn", "#play", "#hand", "g#tiles > defs:first-child", "ul#cells > li:first-child", "fieldset.zoom"}
	rest := []string{"div#game-main", "#villages-h", "ul.log"}
	has := func(name, body string, parts ...string) {
		t.Helper()
		for _, p := range parts {
			if !viewtest.Has(t, body, p) {
				t.Fatalf("%s lacks %s:\n%s", name, p, body)
			}
		}
	}
	lacks := func(name, body string, parts ...string) {
		t.Helper()
		for _, p := range parts {
			if viewtest.Has(t, body, p) {
				t.Fatalf("%s has %s, which a step does not change:\n%s", name, p, viewtest.Show(t, body, p))
			}
		}
	}
	step := func(name, path string) string {
		t.Helper()
		code, body, h := ana.ask(t, "GET", path, "", map[string]string{"HX-Request": "true"})
		if code != http.StatusOK || h.Get("HX-Retarget") != "#game-turn" || h.Get("HX-Reselect") != "#game-turn" {
			t.Fatalf("%s %s: %d, HX-Retarget %q, HX-Reselect %q; want 200 and #game-turn", name, path, code, h.Get("HX-Retarget"), h.Get("HX-Reselect"))
		}
		has(name, body, turn...)
		lacks(name, body, rest...)
		return body
	}
	// A tile that fits somewhere as dealt.
	var tileBody string
	var cells []string
	href := func(attr string) func(int, *goquery.Selection) string {
		return func(_ int, s *goquery.Selection) string { return s.AttrOr(attr, "") }
	}
	for _, tile := range viewtest.Find(t, full, "[hx-get][data-tile]").Map(href("hx-get")) {
		body := step("a tile step", tile)
		if cl := viewtest.Find(t, body, "a.cell[href]").Map(href("href")); len(cl) > 1 {
			tileBody, cells = body, cl
			break
		}
	}
	if tileBody == "" {
		t.Fatal("no tile of ana's hand has two places as dealt: the test checks nothing")
	}
	has("a tile step", tileBody, "g#place-cells > a:first-child", "ul#place-list > li:first-child", `[aria-current="true"]`)
	body := step("a cell step", cells[1])
	has("a cell step", body, "g#place-cells > a:first-child", "ul#place-list > li:first-child", ".chosen", `form[action$="/turn"]`)
	u, _ := url.Parse(cells[1])
	xy := strings.Split(u.Query().Get("at"), ",")
	if want := fmt.Sprintf("Place at (%s,\u00a0%s) (chosen)", xy[0], xy[1]); !viewtest.HasText(t, body, "p#chosen-place", want) {
		t.Fatalf("the cell step does not name the cell chosen (%q):\n%s", want, viewtest.Show(t, body, "#chosen-place"))
	}

	// From a page of an older version, or to a cell no tile fits: the
	// whole game area, as htmx's attributes on it ask.
	q := u.Query()
	for name, change := range map[string]func(url.Values){
		"a step from an older page": func(q url.Values) { v, _ := strconv.Atoi(q.Get("v")); q.Set("v", strconv.Itoa(v-1)) },
		"a step to no legal cell":   func(q url.Values) { q.Set("at", "99,99") },
	} {
		q2 := url.Values{}
		for k, v := range q {
			q2[k] = v
		}
		change(q2)
		path := u.Path + "?" + q2.Encode()
		code, body, h := ana.ask(t, "GET", path, "", map[string]string{"HX-Request": "true"})
		if code != http.StatusOK || h.Get("HX-Retarget") != "" || h.Get("HX-Reselect") != "" {
			t.Fatalf("%s %s: %d, HX-Retarget %q, HX-Reselect %q; want 200 and the game area's own target", name, path, code, h.Get("HX-Retarget"), h.Get("HX-Reselect"))
		}
		has(name, body, append(turn, rest...)...)
	}
}
