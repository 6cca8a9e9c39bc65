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

// TestBrowserTitleSaysYourTurn: the tab's title says when it is the
// player's turn: not while bob plays, once his move reaches alice's page
// live, and no longer once she has moved.
func TestBrowserTitleSaysYourTurn(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	alice, bob := s.user("alice"), s.user("bob")
	game := s.gameBetween(alice, bob)
	s.playUntil(game, toPlay(bob))
	b := newBrowser(t, true, s.logs)
	a, bb := b.newTab("alice", true), b.newTab("bob", true)
	s.openGame(a, "alice", game)
	s.openGame(bb, "bob", game)
	title := func(tb *tab) string {
		s, err := eval[string](tb, `document.title`)
		tb.must(err)
		return s
	}
	if got := title(a); strings.Contains(got, "Your turn") {
		b.fatalf("while bob plays alice's tab is titled %q", got)
	}
	if got := title(bb); !strings.HasPrefix(got, "Your turn") {
		b.fatalf("on his turn bob's tab is titled %q", got)
	}
	for deadline := time.Now().Add(30 * time.Second); bb.turns == 0; {
		if time.Now().After(deadline) {
			b.fatalf("bob did not get to confirm a move: %s", bb.text("#play"))
		}
		_, err := bb.step(s.gameURL(game))
		bb.must(err)
	}
	a.must(a.waitFor(`document.title.startsWith('Your turn')`, 10*time.Second, "alice's title to say it is her turn"))
	if got := title(bb); strings.Contains(got, "Your turn") {
		b.fatalf("after his move bob's tab is titled %q", got)
	}
}
