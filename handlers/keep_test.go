package handlers_test

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
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

// TestStepsAnswerTheWholeGameArea: choosing a tile and then a cell each
// answer the whole game area (the board's tiles, the players, the log, the
// places for the tile), and the move panel names the cell chosen: on the
// board it is only a drawing.
func TestStepsAnswerTheWholeGameArea(t *testing.T) {
	s := newSite(t)
	id, ana, _ := s.midGame()
	full := ana.step(t, fmt.Sprintf("/games/%d", id))
	if strings.Contains(full, `id="place-cells"`) {
		t.Fatal("a page without a tile chosen shows places")
	}
	whole := []string{`<div id="game-main"`, `<g id="tiles"><defs>`, `id="villages-h"`, `<ul class="log"`, `<ul id="cells"><li>`, `<fieldset class="zoom">`}
	has := func(name, body string, parts ...string) {
		t.Helper()
		for _, p := range parts {
			if !strings.Contains(body, p) {
				t.Fatalf("%s lacks %q:\n%s", name, p, body)
			}
		}
	}
	// A tile that fits somewhere as dealt.
	var tileBody string
	var cells []string
	for _, m := range regexp.MustCompile(`hx-get="([^"]+)"[^>]*data-tile=`).FindAllStringSubmatch(full, -1) {
		body := ana.step(t, html.UnescapeString(m[1]))
		has("a tile step", body, whole...)
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
	body := ana.step(t, cells[1])
	has("a cell step", body, append(whole, `<g id="place-cells"><a`, `<ul id="place-list"><li>`, `class="chosen"`, `/turn"`)...)
	u, _ := url.Parse(cells[1])
	xy := strings.Split(u.Query().Get("at"), ",")
	has("a cell step", body, fmt.Sprintf("<p id=\"chosen-place\">Place at (%s,\u00a0%s) (chosen)</p>", xy[0], xy[1]))
}
