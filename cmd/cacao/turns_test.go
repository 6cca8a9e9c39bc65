package main

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestBrowserOneTurnNumbering: the turn a waiting choice names ("On turn N
// your workers were activated") is the log's turn N, a placement, on the
// game page and in the whole log.
func TestBrowserOneTurnNumbering(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	alice := s.user("alice")
	id, ok := s.gameAt(func() uint { return s.botGame(alice, "greedy") }, choicePending(alice), 5)
	if !ok {
		t.Skip("no game came to a pending choice")
	}
	b := newBrowser(t, true, s.logs)
	a := b.newTab("alice", true)
	s.openGame(a, "alice", id)
	m := regexp.MustCompile(`On turn (\d+) your workers`).FindStringSubmatch(a.text("#pending"))
	if m == nil {
		b.fatalf("the waiting choice names no turn: %q", a.text("#pending"))
	}
	for _, page := range []string{"the game page", "the whole log"} {
		if page == "the whole log" {
			a.must(a.navigate(s.gameURL(id) + "/log"))
			a.must(a.waitFor(`document.readyState === 'complete'`, 10*time.Second, "the whole log"))
		}
		lines, err := eval[[]string](a, `[...document.querySelectorAll('#log li')].map((l) => l.textContent.replace(/\s+/g, ' ').trim())`)
		a.must(err)
		var line string
		for _, l := range lines {
			if strings.HasPrefix(l, "Turn "+m[1]+" ") {
				line = l
			}
		}
		if !strings.Contains(line, " placed ") && !strings.Contains(line, " overbuilt ") {
			b.fatalf("on %s the choice names turn %s, and the log's turn %s is %q: %q", page, m[1], m[1], line, lines)
		}
	}
}
