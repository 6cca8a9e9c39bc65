package main

import (
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"cacao/handlers"
	"cacao/models"
	"cacao/models/autoplay"
)

// a11ySkipped are the GET routes TestA11y does not open, and why: what is
// not a page a person reads.
var a11ySkipped = map[string]string{
	"/healthz":                "answers ok",
	"/readyz":                 "answers ok, or that the database is away",
	"/static/*":               "the site's own files",
	"/favicon.ico":            "a redirect to a static file",
	"/sw.js":                  "the service worker's script",
	"/events":                 "a stream of events",
	"/games/:id/events":       "a stream of events",
	"/games/:id/record.json":  "a record, JSON",
	"/settings/data":          "Download my data, JSON",
	"/next":                   "a redirect to the game that waits (or home)",
	"/chat":                   "a redirect to the chat that waits (or home)",
	"/admin":                  "a redirect to /admin/users",
	"/m/go":                   "a signed mail link: a redirect",
	"/m/verify":               "a signed mail link: its page is the settings'",
	"/m/unsubscribe":          "a signed mail link: its page is the settings'",
	"/api/v1/openapi.json":    "the API's document, JSON",
	"/api/v1/account":         "the API: JSON",
	"/api/v1/stream":          "the API: a stream of JSON lines",
	"/api/v1/games":           "the API: JSON",
	"/api/v1/tables":          "the API: JSON",
	"/api/v1/invitations":     "the API: JSON",
	"/api/v1/games/:id":       "the API: JSON",
	"/api/v1/games/:id/moves": "the API: JSON",
	"/api/v1/games/:id/chat":  "the API: JSON",
}

// a11yOpened is the paths of the pages TestA11y checked.
var a11yOpened = struct {
	sync.Mutex
	paths map[string]bool
}{paths: map[string]bool{}}

// opened notes that the page at address loc was checked.
func opened(loc string) {
	u, err := url.Parse(loc)
	if err != nil {
		return
	}
	a11yOpened.Lock()
	defer a11yOpened.Unlock()
	a11yOpened.paths[u.Path] = true
}

// checkEveryPageOpened fails t for each GET route of the router (but
// a11ySkipped) that no checked page's path matched, so that a new page
// cannot escape the accessibility test, and for each skipped path that
// is no route any more.
func checkEveryPageOpened(t *testing.T) {
	t.Helper()
	store, err := models.Open(":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	bots := autoplay.NewRunner(store, nil)
	defer bots.Close()
	e, err := handlers.New(store, handlers.Config{Bots: bots})
	if err != nil {
		t.Fatal(err)
	}
	a11yOpened.Lock()
	defer a11yOpened.Unlock()
	routes := map[string]bool{}
	for _, r := range e.Routes() {
		if r.Method != http.MethodGet {
			continue
		}
		routes[r.Path] = true
		if a11ySkipped[r.Path] != "" {
			continue
		}
		found := false
		for p := range a11yOpened.paths {
			found = found || routeMatches(r.Path, p)
		}
		if !found {
			t.Errorf("TestA11y opened no page of the route %s: check one, or say in a11ySkipped why not", r.Path)
		}
	}
	for p := range a11ySkipped {
		if !routes[p] {
			t.Errorf("a11ySkipped names %s, which is no GET route", p)
		}
	}
}

// routeMatches says whether path is an address of the route pattern (":x"
// one segment, "*" the rest).
func routeMatches(pattern, path string) bool {
	ps, xs := strings.Split(pattern, "/"), strings.Split(path, "/")
	for i, p := range ps {
		switch {
		case p == "*":
			return true
		case i >= len(xs):
			return false
		case strings.HasPrefix(p, ":"):
			if xs[i] == "" {
				return false
			}
		case p != xs[i]:
			return false
		}
	}
	return len(ps) == len(xs)
}

func TestRouteMatches(t *testing.T) {
	for _, c := range []struct {
		pattern, path string
		want          bool
	}{
		{"/games/:id", "/games/7", true}, {"/games/:id", "/games/7/log", false}, {"/games/:id/turns/:n", "/games/7/turns/3", true},
		{"/", "/", true}, {"/", "/rules", false}, {"/static/*", "/static/app.css", true}, {"/users/:name", "/users/", false},
	} {
		if got := routeMatches(c.pattern, c.path); got != c.want {
			t.Errorf("routeMatches(%q, %q) = %v", c.pattern, c.path, got)
		}
	}
}
