package handlers_test

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
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
	if strings.Contains(full, `id="place-cells"`) {
		t.Fatal("a page without a tile chosen shows places")
	}
	turn := []string{`<div id="game-turn"`, `id="play"`, `id="hand"`, `<g id="tiles"><defs>`, `<ul id="cells"><li>`, `<fieldset class="zoom">`}
	rest := []string{`<div id="game-main"`, `id="villages-h"`, `<ul class="log"`}
	has := func(name, body string, parts ...string) {
		t.Helper()
		for _, p := range parts {
			if !strings.Contains(body, p) {
				t.Fatalf("%s lacks %q:\n%s", name, p, body)
			}
		}
	}
	lacks := func(name, body string, parts ...string) {
		t.Helper()
		for _, p := range parts {
			if strings.Contains(body, p) {
				t.Fatalf("%s has %q, which a step does not change:\n%s", name, p, body)
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
	for _, m := range regexp.MustCompile(`hx-get="([^"]+)"[^>]*data-tile=`).FindAllStringSubmatch(full, -1) {
		body := step("a tile step", html.UnescapeString(m[1]))
		if cl := regexp.MustCompile(`<a href="([^"]+)"[^>]*class="cell"`).FindAllStringSubmatch(body, -1); len(cl) > 1 {
			tileBody = body
			for _, c := range cl {
				cells = append(cells, html.UnescapeString(c[1]))
			}
			break
		}
	}
	if tileBody == "" {
		t.Fatal("no tile of ana's hand has two places as dealt: the test checks nothing")
	}
	has("a tile step", tileBody, `<g id="place-cells"><a`, `<ul id="place-list"><li>`, `aria-current="true"`)
	body := step("a cell step", cells[1])
	has("a cell step", body, `<g id="place-cells"><a`, `<ul id="place-list"><li>`, `class="chosen"`, `/turn"`)
	u, _ := url.Parse(cells[1])
	xy := strings.Split(u.Query().Get("at"), ",")
	has("a cell step", body, fmt.Sprintf("<p id=\"chosen-place\">Place at (%s,\u00a0%s) (chosen)</p>", xy[0], xy[1]))

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
