package handlers_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"cacao/models"
)

// token makes a personal access token for the named account with scopes
// (none: all three) and gives it to c, whose API calls send it.
func (c *client) withToken(scopes ...string) *client {
	c.t.Helper()
	if len(scopes) == 0 {
		scopes = []string{models.ScopeRead, models.ScopePlay, models.ScopeChat}
	}
	u, err := c.s.store.UserNamed(c.name)
	if err != nil {
		c.t.Fatal(err)
	}
	if c.token, err = c.s.store.CreateToken(u.ID, "test", scopes); err != nil {
		c.t.Fatal(err)
	}
	return c
}

// api sends a request to the API with c's token (if any) and a JSON body
// (nil: none); out, when not nil, receives the answer's JSON.
func (c *client) api(method, path string, body any, out any) (int, string) {
	c.t.Helper()
	var r *bytes.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	} else {
		r = bytes.NewReader(nil)
	}
	req, _ := http.NewRequest(method, c.s.srv.URL+path, r)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	code, text := c.do(req)
	if out != nil && code/100 == 2 {
		if err := json.Unmarshal([]byte(text), out); err != nil {
			c.t.Fatalf("%s %s: %v\n%.500s", method, path, err, text)
		}
	}
	return code, text
}

// apiError is a refusal's sentence ("" when the body is not one).
func apiError(body string) string {
	var e struct{ Error string }
	_ = json.Unmarshal([]byte(body), &e)
	return e.Error
}

type apiGame struct {
	ID      uint
	Status  string
	Version int
	You     *int
	Current *int
	Final   bool
	Hand    []string
	Choices []json.RawMessage
	Scores  []struct{ Seat, Total int }
	Winners []int
}

type apiOption struct {
	Move  map[string]any
	Gains []struct{ Seat, Gold, Sun, Water int }
}

// apiStep has c act once in game id through the API if it may: its
// waiting choice with every default, or its turn with the option that
// brings it the most. It reports whether it acted.
func (c *client) apiStep(id uint) bool {
	c.t.Helper()
	var g apiGame
	if code, body := c.api("GET", fmt.Sprintf("/api/v1/games/%d", id), nil, &g); code != http.StatusOK {
		c.t.Fatalf("the game: %d %s", code, body)
	}
	if g.You == nil || g.Status != models.StatusActive {
		return false
	}
	if len(g.Choices) > 0 {
		if code, body := c.api("POST", fmt.Sprintf("/api/v1/games/%d/choice", id), map[string]any{"version": g.Version, "acts": []any{}}, nil); code != http.StatusOK {
			c.t.Fatalf("a choice: %d %s", code, body)
		}
		return true
	}
	if g.Current == nil || *g.Current != *g.You {
		return false
	}
	var opts []apiOption
	if code, body := c.api("GET", fmt.Sprintf("/api/v1/games/%d/moves", id), nil, &opts); code != http.StatusOK || len(opts) == 0 {
		c.t.Fatalf("the moves: %d %.300s", code, body)
	}
	best, bestV := 0, -1000
	for i, o := range opts {
		for _, gn := range o.Gains {
			if gn.Seat == *g.You && gn.Gold+gn.Sun+gn.Water > bestV {
				best, bestV = i, gn.Gold+gn.Sun+gn.Water
			}
		}
	}
	turn := opts[best].Move
	turn["version"] = g.Version
	if code, body := c.api("POST", fmt.Sprintf("/api/v1/games/%d/turn", id), turn, nil); code != http.StatusOK {
		c.t.Fatalf("the turn %v: %d %s", turn, code, body)
	}
	return true
}

// Two people play a whole game through the API alone, and each sees the
// final scores.
func TestAPIPlaysAGame(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	ana.withToken()
	bob.withToken()
	var list []struct {
		ID       uint
		YourMove bool
		You      int
	}
	if code, body := ana.api("GET", "/api/v1/games", nil, &list); code != http.StatusOK || len(list) != 1 || list[0].ID != id {
		t.Fatalf("ana's games: %d %s", code, body)
	}
	for step := 0; ; step++ {
		l, _ := s.store.LoadGame(id)
		if l.Game.Status == models.StatusFinished {
			break
		}
		if step > 200 || !ana.apiStep(id) && !bob.apiStep(id) {
			t.Fatalf("the game did not get to its end (step %d)", step)
		}
	}
	var g apiGame
	ana.api("GET", fmt.Sprintf("/api/v1/games/%d", id), nil, &g)
	if !g.Final || len(g.Scores) != 2 || len(g.Winners) == 0 || g.Current != nil {
		t.Fatalf("the final game: %+v", g)
	}
}

// The API's refusals: JSON with the page's sentence, in the account's
// language, and nothing changed.
func TestAPIRefusals(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.midGame() // ana to play
	ana.withToken()
	reader := s.signup("rea").withToken(models.ScopeRead)
	game := fmt.Sprintf("/api/v1/games/%d", id)
	var g apiGame
	ana.api("GET", game, nil, &g)
	var opts []apiOption
	ana.api("GET", game+"/moves", nil, &opts)
	move := opts[0].Move

	// No token: a session opens nothing here.
	if code, body := bob.api("GET", "/api/v1/account", nil, nil); code != http.StatusUnauthorized || !strings.Contains(apiError(body), "Bearer") {
		t.Errorf("a session's cookie: %d %s", code, body)
	}
	if code, body := s.client("x").api("GET", "/api/v1/account", nil, nil); code != http.StatusUnauthorized || apiError(body) == "" {
		t.Errorf("no token: %d %s", code, body)
	}
	bad := &client{t: t, s: s, http: http.DefaultClient, token: "cacao_not-a-token"}
	if code, body := bad.api("GET", "/api/v1/account", nil, nil); code != http.StatusUnauthorized || !strings.Contains(apiError(body), "not valid") {
		t.Errorf("a wrong token: %d %s", code, body)
	}
	// Scopes.
	if code, body := reader.api("POST", game+"/turn", move, nil); code != http.StatusForbidden || !strings.Contains(apiError(body), "play") {
		t.Errorf("a read token plays: %d %s", code, body)
	}
	// Bob's turn is not now; in his language.
	if err := s.store.SetLang(userID(t, s, "bob"), "de"); err != nil {
		t.Fatal(err)
	}
	bob.withToken()
	withVersion := func(m map[string]any, v int) map[string]any {
		out := map[string]any{"version": v}
		for k, x := range m {
			out[k] = x
		}
		return out
	}
	if code, body := bob.api("POST", game+"/turn", withVersion(move, g.Version), nil); code != http.StatusUnprocessableEntity || apiError(body) == "" || apiError(body) == "Not this seat's turn" {
		t.Errorf("bob out of turn, in German: %d %s", code, body)
	}
	if code, body := bob.api("GET", game+"/moves", nil, nil); code != http.StatusUnprocessableEntity {
		t.Errorf("bob's moves out of turn: %d %s", code, body)
	}
	// Ana: a stale version, a move without one, a bad tile, a bad body.
	if code, body := ana.api("POST", game+"/turn", withVersion(move, g.Version-1), nil); code != http.StatusConflict || apiError(body) == "" {
		t.Errorf("a stale version: %d %s", code, body)
	}
	if code, body := ana.api("POST", game+"/turn", move, nil); code != http.StatusUnprocessableEntity || !strings.Contains(apiError(body), "version") {
		t.Errorf("no version: %d %s", code, body)
	}
	wrong := withVersion(move, g.Version)
	wrong["tile"] = "9999"
	if code, body := ana.api("POST", game+"/turn", wrong, nil); code != http.StatusUnprocessableEntity || !strings.Contains(apiError(body), "9999") {
		t.Errorf("an unknown tile: %d %s", code, body)
	}
	if code, body := ana.api("POST", game+"/turn", "not an object", nil); code != http.StatusBadRequest || apiError(body) == "" {
		t.Errorf("a body that is not a turn: %d %s", code, body)
	}
	if l, _ := s.store.LoadGame(id); l.Game.Version != g.Version {
		t.Fatalf("a refusal changed the game: version %d, was %d", l.Game.Version, g.Version)
	}
	// The move itself, twice: the second is too late.
	if code, body := ana.api("POST", game+"/turn", withVersion(move, g.Version), nil); code != http.StatusOK {
		t.Fatalf("ana's move: %d %s", code, body)
	}
	if code, _ := ana.api("POST", game+"/turn", withVersion(move, g.Version), nil); code != http.StatusConflict {
		t.Errorf("the same move again: %d", code)
	}
	// A private game of others is not found.
	cy := s.signup("cyd")
	cy.get("/")
	cy.post("/games", url.Values{"seat": {"hard", "none", "none"}, "private": {"1"}})
	var cid uint
	if games, _, err := s.store.MyGames(userID(t, s, "cyd"), 0, 1); err != nil || len(games) != 1 || !games[0].Game.Private {
		t.Fatalf("cyd's private game: %v %v", games, err)
	} else {
		cid = games[0].Game.ID
	}
	if code, body := ana.api("GET", fmt.Sprintf("/api/v1/games/%d", cid), nil, nil); code != http.StatusNotFound || apiError(body) == "" {
		t.Errorf("another's private game: %d %s", code, body)
	}
}

func userID(t *testing.T, s *site, name string) uint {
	t.Helper()
	u, err := s.store.UserNamed(name)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// A token's requests are bounded: past 60 at once, 429 with Retry-After.
func TestAPIRateLimit(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana").withToken()
	for i := 0; i < 60; i++ {
		if code, body := ana.api("GET", "/api/v1/account", nil, nil); code != http.StatusOK {
			t.Fatalf("request %d: %d %s", i, code, body)
		}
	}
	code, body := ana.api("GET", "/api/v1/account", nil, nil)
	if code != http.StatusTooManyRequests || ana.last.Get("Retry-After") == "" || apiError(body) == "" {
		t.Fatalf("the 61st request: %d %q %s", code, ana.last.Get("Retry-After"), body)
	}
}

// The OpenAPI document names every route of the API, and every route it
// names is one.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	s := newSite(t)
	b, err := os.ReadFile("api/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for path, ops := range doc.Paths {
		for method := range ops {
			if method != "parameters" {
				documented[strings.ToUpper(method)+" /api/v1"+path] = true
			}
		}
	}
	routed := map[string]bool{}
	for _, r := range s.routes {
		if strings.HasPrefix(r.Path, "/api/v1/") && r.Method != echo.RouteNotFound {
			path := strings.ReplaceAll(r.Path, ":id", "{id}")
			routed[r.Method+" "+path] = true
		}
	}
	var missing, extra []string
	for k := range routed {
		if !documented[k] {
			missing = append(missing, k)
		}
	}
	for k := range documented {
		if !routed[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing)+len(extra) > 0 || len(routed) < 5 {
		t.Fatalf("routes not documented: %v; documented, not routes: %v (%d routes)", missing, extra, len(routed))
	}
	if code, body := s.client("x").get("/api/v1/openapi.json"); code != http.StatusOK || body != string(b) {
		t.Fatalf("the served document: %d", code)
	}
	if code, body := s.client("x").get("/api"); code != http.StatusOK || !strings.Contains(body, "/api/v1/games") {
		t.Fatalf("the API's page: %d", code)
	}
}

// Tables through the API: open one, keep a seat for a player, who finds
// it among their invitations and declines it; join a table of the lobby,
// which then starts.
func TestAPITables(t *testing.T) {
	s := newSite(t)
	ana, bob := s.signup("ana").withToken(), s.signup("bob").withToken()
	var g apiGame
	if code, body := ana.api("POST", "/api/v1/games", map[string]any{"seats": []string{"@bob", "easy"}, "turnHours": 24}, &g); code != http.StatusCreated || g.Status != models.StatusOpen {
		t.Fatalf("ana's table for bob: %d %s", code, body)
	}
	var list []struct{ ID uint }
	if code, body := bob.api("GET", "/api/v1/invitations", nil, &list); code != http.StatusOK || len(list) != 1 || list[0].ID != g.ID {
		t.Fatalf("bob's invitations: %d %s", code, body)
	}
	if code, body := bob.api("POST", fmt.Sprintf("/api/v1/games/%d/decline", g.ID), nil, nil); code != http.StatusNoContent {
		t.Fatalf("bob declines: %d %s", code, body)
	}
	if code, _ := bob.api("GET", "/api/v1/invitations", nil, &list); code != http.StatusOK || len(list) != 0 {
		t.Fatalf("bob's invitations once declined: %v", list)
	}
	if code, body := ana.api("POST", "/api/v1/games", map[string]any{"seats": []string{"nobody"}}, nil); code != http.StatusUnprocessableEntity || apiError(body) == "" {
		t.Fatalf("a table with a seat nobody knows: %d %s", code, body)
	}
	ana.api("POST", "/api/v1/games", map[string]any{"seats": []string{"open"}}, &g)
	// Newest first (the declined seat opened ana's first table too).
	if code, body := bob.api("GET", "/api/v1/tables", nil, &list); code != http.StatusOK || len(list) == 0 || list[0].ID != g.ID {
		t.Fatalf("the lobby as bob sees it: %d %s", code, body)
	}
	var joined apiGame
	if code, body := bob.api("POST", fmt.Sprintf("/api/v1/games/%d/join", g.ID), nil, &joined); code != http.StatusOK || joined.Status != models.StatusActive || joined.You == nil || len(joined.Hand) != 3 {
		t.Fatalf("bob joins: %d %s", code, body)
	}
	if code, _ := bob.api("POST", fmt.Sprintf("/api/v1/games/%d/join", g.ID), nil, nil); code == http.StatusOK {
		t.Fatal("bob joined a started game twice")
	}
}

// What is refused before the API's handlers is JSON too: a body past the
// site's limit. A private table is not found to one it keeps no seat
// for, whatever they ask.
func TestAPIEdges(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana").withToken()
	code, body := ana.api("POST", "/api/v1/games", map[string]any{"seats": []string{strings.Repeat("x", 70_000)}}, nil)
	if code != http.StatusRequestEntityTooLarge || apiError(body) == "" {
		t.Errorf("a body past 64 KB: %d %.200s", code, body)
	}
	cyd := s.signup("cyd").withToken()
	var g apiGame
	cyd.api("POST", "/api/v1/games", map[string]any{"seats": []string{"open"}, "private": true}, &g)
	for _, path := range []string{"join", "decline"} {
		if code, body := ana.api("POST", fmt.Sprintf("/api/v1/games/%d/%s", g.ID, path), nil, nil); code != http.StatusNotFound {
			t.Errorf("%s on another's private table: %d %s", path, code, body)
		}
	}
}
