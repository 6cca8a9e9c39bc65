package handlers_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"cacao/engine"
	"cacao/views/viewtest"
)

// TestPrivateNotes: a player keeps a note on a game, with JavaScript (the
// panel alone answers) and without (back to the game); only its author
// ever sees it — not the other player, a watcher or a stranger, who cannot
// write one either; a note too long is refused with a sentence and changes
// nothing; the note stays once the game is over and is in the author's
// data.
func TestPrivateNotes(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	eve := s.signup("eve")
	page := fmt.Sprintf("/games/%d", id)
	secret := "bob hoards water; block the market at (2,1)"
	if code, _ := ana.post(page+"/notes", url.Values{"note": {secret}}); code != http.StatusOK {
		t.Fatalf("saving a note without JavaScript: %d", code)
	}
	if _, body := ana.get(page); viewtest.Text(t, body, "#notes textarea") != secret || !viewtest.Has(t, body, "#notes details[open]") {
		t.Fatalf("ana's note on her page: %q", viewtest.Text(t, body, "#notes textarea"))
	}
	code, frag := ana.htmx("POST", page+"/notes", url.Values{"note": {secret + " (2)"}})
	if code != http.StatusOK || !viewtest.Has(t, frag, `#notes [role="status"]`) || strings.Contains(frag, "<html") {
		t.Fatalf("saving with htmx: %d\n%s", code, viewtest.Excerpt(frag))
	}
	long := strings.Repeat("é", 2001)
	if code, body := ana.post(page+"/notes", url.Values{"note": {long}}); code != http.StatusUnprocessableEntity || viewtest.Text(t, body, "#note-error") != "A note is at most 2000 characters" {
		t.Fatalf("a note too long: %d %q", code, viewtest.Text(t, body, "#note-error"))
	}
	for _, who := range []*client{bob, eve, s.client("nobody")} {
		if _, body := who.get(page); strings.Contains(body, "hoards water") {
			t.Fatalf("%s reads ana's note", who.name)
		}
	}
	if _, body := bob.get(page); !viewtest.Has(t, body, "#notes") || viewtest.Text(t, body, "#notes textarea") != "" {
		t.Fatal("bob has no notes of his own, or they are not empty")
	}
	if _, body := eve.get(page); viewtest.Has(t, body, "#notes") {
		t.Fatal("a watcher is offered notes")
	}
	if code, _ := eve.post(page+"/notes", url.Values{"note": {"mine"}}); code != http.StatusUnprocessableEntity {
		t.Fatalf("a watcher writing a note: %d", code)
	}
	s.playToEnd(id, engine.NewRand(3), ana, bob)
	if _, body := ana.get(page); viewtest.Text(t, body, "#notes textarea") != secret+" (2)" {
		t.Fatalf("after the game, ana's note: %q", viewtest.Text(t, body, "#notes textarea"))
	}
	_, data := ana.get("/settings/data")
	var d struct {
		Games []struct {
			ID   uint   `json:"id"`
			Note string `json:"note"`
		} `json:"games"`
	}
	if err := json.Unmarshal([]byte(data), &d); err != nil || len(d.Games) != 1 || d.Games[0].Note != secret+" (2)" {
		t.Fatalf("ana's data: %+v, %v", d.Games, err)
	}
	if _, data := bob.get("/settings/data"); strings.Contains(data, "hoards water") {
		t.Fatal("bob's data holds ana's note")
	}
}
