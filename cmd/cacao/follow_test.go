package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserFollow (#39): on a phone, ana follows bob from his profile
// (the button in view, taking the tap); bob opens a public table; ana's
// header counts the notice, and her notices page names bob and links to
// the table, which the link opens.
func TestBrowserFollow(t *testing.T) {
	t.Parallel()
	s := seededSite(t)
	s.user("ana")
	s.user("bob")
	b := newBrowser(t, true, s.logs)
	a := b.newTab("ana", true)
	a.must(a.do(5*time.Second, chromedp.EmulateViewport(390, 844)))
	a.logIn(s.base, "ana", "/users/bob")
	follow := `form[action="/users/bob/follow"] button[type=submit]`
	if got := a.text(follow); got != "Follow" {
		b.fatalf("bob's profile offers ana %q, want a Follow button", got)
	}
	if !a.reachable(follow) {
		b.fatalf("the Follow button is not in view or does not take the tap")
	}
	a.must(a.click(follow, "Follow"))
	if got := a.text("#main .notice"); got != "You follow bob: you are told when they open a public table." {
		b.fatalf("after Follow, ana's page says %q (on %s)", got, a.location())
	}
	if a.text(`form[action="/users/bob/unfollow"] button`) != "Unfollow" {
		b.fatalf("after Follow, bob's profile does not offer ana to unfollow him")
	}

	bob := b.newTab("bob", true)
	bob.logIn(s.base, "bob", "")
	game := bob.createGame(s.base, "open")
	path := strings.TrimPrefix(game, s.base)

	// ana's header counts the notice on the next page she opens, and its
	// link takes the tap.
	a.must(a.navigate(s.base + "/users/bob"))
	if got := a.text("#unread"); got != "1" {
		b.fatalf("ana's header counts %q unread notices after bob opened a table, want 1", got)
	}
	notices := `header.top a[href="/notifications"]`
	if !a.reachable(notices) {
		b.fatalf("the header's Notifications link does not take the tap")
	}
	a.must(a.click(notices, "Notifications"))
	section := fmt.Sprintf(`section:has(h2 a[href=%q])`, path)
	want := fmt.Sprintf("New: bob, whom you follow, opened a public table: game %d.", gameID(t, game))
	if got := a.text(section + " li"); !strings.HasPrefix(got, want) {
		b.fatalf("ana's notices say %q, want %q", got, want)
	}
	link := section + " h2 a"
	if !a.reachable(link) {
		b.fatalf("the notice's link to the table does not take the tap")
	}
	a.must(a.click(link, "the table's link"))
	if loc := a.location(); loc != game {
		b.fatalf("the notice's link leads ana to %s, want the table %s", loc, game)
	}
}
