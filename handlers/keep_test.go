package handlers_test

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"cacao/engine"
	"cacao/views"
)

var shownRE = regexp.MustCompile(`data-shown="([^"]+)"`)

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

// shown fetches path as htmx would from a page showing key ("" for none).
func (c *client) shown(t *testing.T, path, key string) (string, http.Header) {
	t.Helper()
	h := map[string]string{"HX-Request": "true"}
	if key != "" {
		h[views.ShownHeader] = key
	}
	code, body, header := c.ask(t, "GET", path, "", h)
	if code != http.StatusOK {
		t.Fatalf("%s: status %d", path, code)
	}
	return body, header
}

// TestSelectionKeepsWhatItCannotChange: a step asked from a page that shows
// the game's current version leaves out the board's tiles, the players and
// the log (the page keeps its own, hx-preserve); any other request, and one
// from a page showing an older version, a language of its own or no version,
// gets them all.
func TestSelectionKeepsWhatItCannotChange(t *testing.T) {
	s := newSite(t)
	id, ana, _ := s.midGame()
	page := fmt.Sprintf("/games/%d", id)
	full, _ := ana.shown(t, page, "")
	m := shownRE.FindStringSubmatch(full)
	if m == nil {
		t.Fatal("the game area does not say what it shows")
	}
	key := m[1]
	if !strings.Contains(full, html.EscapeString(`{"`+views.ShownHeader+`":"`+key+`"}`)) {
		t.Fatal("the game area's requests do not send what it shows (hx-headers)")
	}
	tile := regexp.MustCompile(`hx-get="([^"]+)"[^>]*data-tile=`).FindStringSubmatch(full)
	if tile == nil {
		t.Fatal("no tile in ana's hand")
	}
	step := html.UnescapeString(tile[1])
	kept := []string{`<g id="tiles" hx-preserve="true"></g>`, `<section class="card" id="villages" hx-preserve="true"></section>`, `<section class="card" id="game-log" hx-preserve="true"></section>`, `<ul id="cells" hx-preserve="true"></ul>`,
		`<form method="dialog" id="zoom" hx-preserve="true"></form>`}
	whole := []string{`<g id="tiles"><defs>`, `id="villages-h"`, `<ol class="log"`, `<ul id="cells"><li>`, `<fieldset class="zoom">`}
	// The panel of what happened since ana's last move, when there is one
	// (her last entry may be a choice made after bob's move).
	since := strings.Contains(full, `id="since-h"`)
	if since {
		kept = append(kept, `<section class="card since" id="since" hx-preserve="true"></section>`)
		whole = append(whole, `id="since-h"`)
	}
	has := func(body string, parts []string) bool {
		for _, p := range parts {
			if !strings.Contains(body, p) {
				return false
			}
		}
		return true
	}

	body, h := ana.shown(t, step, key)
	if !has(body, kept) || h.Get(views.KeptHeader) != key {
		t.Fatalf("a step from the page of the current version: kept header %q, body:\n%s", h.Get(views.KeptHeader), body)
	}
	for _, p := range whole {
		if strings.Contains(body, p) {
			t.Errorf("a step from the page of the current version sends %q again", p)
		}
	}
	if strings.Contains(body, `id="since"`) != since {
		t.Fatal("a step's answer has a panel of what happened since where the page has none, or the reverse")
	}
	if !strings.Contains(body, `class="cell"`) || !strings.Contains(body, `aria-current="true"`) {
		t.Fatalf("the step's answer lacks what it changes: the cells for the tile, the tile chosen:\n%s", body)
	}

	// id.version.lang.seat.clocks
	parts := strings.Split(key, ".")
	if len(parts) != 5 || parts[0] != fmt.Sprint(id) || parts[1] != fmt.Sprint(version(s, id)) || parts[2] != "en" {
		t.Fatalf("the game area shows %q", key)
	}
	with := func(i int, v string) string {
		p := append([]string(nil), parts...)
		p[i] = v
		return strings.Join(p, ".")
	}
	for name, other := range map[string]string{
		"no version":      "",
		"an older one":    with(1, fmt.Sprint(version(s, id)-1)),
		"other language":  with(2, "fa"),
		"another game":    with(0, fmt.Sprint(id+1)),
		"another viewer":  with(3, "9"),
		"other clocks":    with(4, "00000000"),
		"a made-up value": "<b>",
	} {
		body, h := ana.shown(t, step, other)
		if !has(body, whole) || h.Get(views.KeptHeader) != "" {
			t.Errorf("%s: the answer is not whole (kept header %q)", name, h.Get(views.KeptHeader))
		}
	}
	// Without htmx the whole page comes, whatever the headers say.
	if _, body, h := ana.ask(t, "GET", step, "", map[string]string{views.ShownHeader: key}); !has(body, whole) || h.Get(views.KeptHeader) != "" {
		t.Fatal("a plain request got an answer with parts left out")
	}
	// A refused move answers whole: the page may have moved on by then.
	code, body, h := ana.ask(t, "POST", page+"/turn", "tile=9999", map[string]string{"HX-Request": "true", "X-CSRF-Token": ana.csrf, views.ShownHeader: key})
	if code < 400 || !has(body, whole) || h.Get(views.KeptHeader) != "" {
		t.Fatalf("a refused move with the header: status %d, kept %q", code, h.Get(views.KeptHeader))
	}
	// Once the game moves on, the page's version is old: all comes again.
	if !ana.act(id, engine.NewRand(9)) {
		t.Fatal("ana could not move")
	}
	// (ana has just moved: nothing since her move to tell.)
	if body, h := ana.shown(t, page, key); !has(body, slices.DeleteFunc(whole, func(p string) bool { return p == `id="since-h"` })) || h.Get(views.KeptHeader) != "" {
		t.Fatal("after a move, a request from the page of the version before got parts left out")
	}
}

// version is the game's version now.
func version(s *site, id uint) int {
	_, l := s.seatOf(id, "ana")
	return l.Game.Version
}

// TestCellStepKeepsThePlaces: the page of a chosen tile says which places
// it shows (after a slash in data-shown); choosing a cell among them leaves
// the places out, on the board and in the list (the page keeps its own).
// Another tile, rotation, version or a made-up value gets them whole.
func TestCellStepKeepsThePlaces(t *testing.T) {
	s := newSite(t)
	id, ana, _ := s.midGame()
	full, _ := ana.shown(t, fmt.Sprintf("/games/%d", id), "")
	key := shownRE.FindStringSubmatch(full)[1]
	if strings.Contains(key, "/") || strings.Contains(full, `id="place-cells"`) {
		t.Fatalf("a page without a tile chosen shows places: %q", key)
	}
	// A tile that fits somewhere as dealt.
	var tileBody, tileKey string
	var cells []string
	for _, m := range regexp.MustCompile(`hx-get="([^"]+)"[^>]*data-tile=`).FindAllStringSubmatch(full, -1) {
		body, h := ana.shown(t, html.UnescapeString(m[1]), key)
		if h.Get(views.KeptHeader) != key {
			t.Fatalf("a tile step from the page: kept %q, want %q", h.Get(views.KeptHeader), key)
		}
		if cl := regexp.MustCompile(`<a href="([^"]+)"[^>]*class="cell"`).FindAllStringSubmatch(body, -1); len(cl) > 1 {
			tileBody, tileKey = body, shownRE.FindStringSubmatch(body)[1]
			for _, c := range cl {
				cells = append(cells, html.UnescapeString(c[1]))
			}
			break
		}
	}
	if tileBody == "" {
		t.Skip("no tile of ana's hand has two places as dealt")
	}
	base, places, ok := strings.Cut(tileKey, "/")
	if !ok || base != key || !regexp.MustCompile(`^\d{4}\.\d\.0$`).MatchString(places) {
		t.Fatalf("the tile's page shows %q; want %q, a slash, then tile.slot.rotation", tileKey, key)
	}
	whole := []string{`<g id="place-cells"><a`, `<ul id="place-list"><li>`}
	kept := []string{`<g id="place-cells" hx-preserve="true"></g>`, `<ul id="place-list" hx-preserve="true"></ul>`}
	for _, p := range whole {
		if !strings.Contains(tileBody, p) {
			t.Fatalf("the tile step lacks %q", p)
		}
	}
	body, h := ana.shown(t, cells[1], tileKey)
	if h.Get(views.KeptHeader) != tileKey || shownRE.FindStringSubmatch(body)[1] != tileKey {
		t.Fatalf("a cell step among the places shown: kept %q, shows %q; want %q", h.Get(views.KeptHeader), shownRE.FindStringSubmatch(body)[1], tileKey)
	}
	for i := range kept {
		if !strings.Contains(body, kept[i]) || strings.Contains(body, whole[i]) {
			t.Fatalf("a cell step among the places shown sends them again (or no placeholder %q):\n%s", kept[i], body)
		}
	}
	if strings.Contains(body, `class="cell"`) || !strings.Contains(body, `class="chosen"`) || !strings.Contains(body, `/turn"`) {
		t.Fatalf("a cell step: want the cell chosen and the confirm form, no places:\n%s", body)
	}
	// The list kept marks no place: the move panel names the one chosen.
	u, _ := url.Parse(cells[1])
	xy := strings.Split(u.Query().Get("at"), ",")
	if want := fmt.Sprintf(`<p id="chosen-place">Place at (%s, %s) (chosen)</p>`, xy[0], xy[1]); !strings.Contains(body, want) {
		t.Fatalf("a cell step does not say %s:\n%s", want, body)
	}
	rotated := html.UnescapeString(regexp.MustCompile(`<a href="([^"]+)"[^>]*id="rotate"`).FindStringSubmatch(tileBody)[1])
	for name, c := range map[string]struct{ path, shown string }{
		"from the page without places":    {cells[1], key},
		"from a page of another rotation": {cells[1], key + "/" + places[:len(places)-1] + "1"},
		"from a page of another tile":     {cells[1], key + "/9999.0.0"},
		"a made-up value":                 {cells[1], key + "/<b>"},
		"the tile rotated":                {rotated, tileKey},
	} {
		body, h := ana.shown(t, c.path, c.shown)
		if h.Get(views.KeptHeader) != key || !strings.Contains(body, `<g id="tiles" hx-preserve="true">`) {
			t.Errorf("%s: kept %q, want %q (the tiles kept)", name, h.Get(views.KeptHeader), key)
		}
		for _, p := range whole {
			if !strings.Contains(body, p) {
				t.Errorf("%s: no %q", name, p)
			}
		}
	}
	older := strings.Split(key, ".")
	older[1] = fmt.Sprint(version(s, id) - 1)
	if body, h := ana.shown(t, cells[1], strings.Join(older, ".")+"/"+places); h.Get(views.KeptHeader) != "" || !strings.Contains(body, whole[0]) || !strings.Contains(body, `<g id="tiles"><defs>`) {
		t.Fatalf("from a page of an older version: kept %q", h.Get(views.KeptHeader))
	}
	if _, body, h := ana.ask(t, "GET", cells[1], "", map[string]string{views.ShownHeader: tileKey}); h.Get(views.KeptHeader) != "" || !strings.Contains(body, whole[1]) {
		t.Fatal("a plain request got an answer without its places")
	}
}
