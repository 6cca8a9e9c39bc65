package handlers_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"cacao/models"
	"cacao/views/viewtest"
)

// TestAbortByAgreementPages: in a game's first rounds a player asks, from
// the game page, to end it without a result; the other is told, sees who
// asks and agrees there; the game then ends, says so, and is listed as
// ended without a result. A watcher is offered nothing and refused.
func TestAbortByAgreementPages(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	eve := s.signup("eve")
	page := fmt.Sprintf("/games/%d", id)
	form := fmt.Sprintf(`form[action="%s/abort"] button`, page)
	if _, body := ana.get(page); viewtest.Text(t, body, form) != "Ask to end without a result" {
		t.Fatalf("ana is not offered to ask: %q", viewtest.Text(t, body, form))
	}
	if _, body := eve.get(page); viewtest.Has(t, body, form) {
		t.Fatal("a watcher is offered to end the game")
	}
	if code, _ := eve.post(page+"/abort", nil); code != http.StatusForbidden {
		t.Fatalf("a watcher asking: %d", code)
	}
	if code, _ := ana.post(page+"/abort", nil); code != http.StatusOK {
		t.Fatalf("ana asking: %d", code)
	}
	if _, body := ana.get(page); !strings.Contains(viewtest.Text(t, body, "#abort"), "You asked to end this game without a result") || viewtest.Has(t, body, form) {
		t.Fatalf("ana's page after asking: %q", viewtest.Text(t, body, "#abort"))
	}
	_, body := bob.get(page)
	if !strings.HasPrefix(viewtest.Text(t, body, "#abort"), "ana asks to end this game without a result") || viewtest.Text(t, body, "#abort "+form) != "Agree to end it" {
		t.Fatalf("bob's page: %q", viewtest.Text(t, body, "#abort"))
	}
	if _, notes := bob.get("/notifications"); !strings.Contains(notes, fmt.Sprintf("ana asks to end game %d without a result", id)) {
		t.Fatal("bob is not told that ana asks")
	}
	if code, _ := bob.post(page+"/abort", nil); code != http.StatusOK {
		t.Fatalf("bob agreeing: %d", code)
	}
	if l, _ := s.store.LoadGame(id); l.Game.Status != models.StatusEnded {
		t.Fatalf("the game agreed ended is %s", l.Game.Status)
	}
	if _, body := bob.get(page); viewtest.Text(t, body, "#ended p") != "The players agreed to end this game without a result: it is not rated." || viewtest.Has(t, body, form) {
		t.Fatalf("the ended game's page: %q", viewtest.Text(t, body, "#ended p"))
	}
	if _, body := ana.get("/?finished=all"); !viewtest.HasText(t, body, fmt.Sprintf(`tr:has(a[href="%s"]) td`, page), "Ended without a result") {
		t.Fatal("ana's finished games do not say the game ended without a result")
	}
}
