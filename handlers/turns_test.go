package handlers_test

import (
	"bytes"
	"errors"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"cacao/engine"
	"cacao/models"
	"cacao/views/viewtest"
)

var replayTileRE = regexp.MustCompile(`^\d{4}$`)

// tilesShown are the hand tiles a replay page shows, sorted.
func tilesShown(t testing.TB, page string) string {
	t.Helper()
	var out []string
	for _, tile := range viewtest.Find(t, page, ".hand-tile[data-tile]").Map(func(_ int, s *goquery.Selection) string { return s.AttrOr("data-tile", "") }) {
		if replayTileRE.MatchString(tile) {
			out = append(out, tile)
		}
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// handAt is the hand of seat after the first n entries of game l, sorted.
func handAt(t *testing.T, l *models.Loaded, n, seat int) string {
	t.Helper()
	at, err := l.At(n)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, w := range at.Play.State().Player(seat).HandTiles() {
		out = append(out, w.String())
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// TestReplaysShowWhatEachKnew: at every step of a running game's replay,
// each player sees their own hand as it was then and nobody else's; a
// watcher, signed in or not, sees no hand; no page shows the setup. Once
// the game is over every hand is shown. Each log line links to its step.
func TestReplaysShowWhatEachKnew(t *testing.T) {
	s := newSite(t)
	id, ana, bob := s.anaAndBob()
	eve, anon := s.signup("eve"), s.client("anon")
	r := engine.NewRand(5)
	for i := 0; i < 6; i++ {
		if !ana.act(id, r) && !bob.act(id, r) {
			t.Fatal("nobody could move")
		}
	}
	l, _ := s.store.LoadGame(id)
	for n := 0; n <= len(l.Log); n++ {
		path := fmt.Sprintf("/games/%d/turns/%d", id, n)
		for _, c := range []*client{ana, bob, eve, anon} {
			code, page := c.get(path)
			if code != http.StatusOK || strings.Contains(page, l.Game.Setup) {
				t.Fatalf("%s as %s: %d", path, c.name, code)
			}
			want := ""
			if seat, _ := s.seatOf(id, c.name); seat >= 0 {
				want = handAt(t, l, n, seat)
			}
			if got := tilesShown(t, page); got != want {
				t.Fatalf("%s as %s shows the hand tiles %q; want %q", path, c.name, got, want)
			}
		}
	}
	_, page := eve.get(fmt.Sprintf("/games/%d/turns/2", id))
	if !viewtest.Has(t, page, fmt.Sprintf(`a[href="/games/%d/turns/2"][aria-current="step"]`, id)) || !viewtest.Has(t, page, fmt.Sprintf(`a#replay-next[href="/games/%d/turns/3"]`, id)) {
		t.Fatal("the replay's log and steps are not linked")
	}
	if _, page := ana.get(fmt.Sprintf("/games/%d", id)); !viewtest.Has(t, page, fmt.Sprintf(`a[href="/games/%d/turns/1"]`, id)) {
		t.Fatal("the game's log does not link to its steps")
	}
	if code, _ := ana.get(fmt.Sprintf("/games/%d/turns/%d", id, len(l.Log)+1)); code != http.StatusNotFound {
		t.Fatalf("a step past the end: %d", code)
	}
	s.playToEnd(id, r, ana, bob)
	l, _ = s.store.LoadGame(id)
	_, page = anon.get(fmt.Sprintf("/games/%d/turns/3", id))
	all := strings.Fields(handAt(t, l, 3, 0) + " " + handAt(t, l, 3, 1))
	sort.Strings(all)
	if got, want := tilesShown(t, page), strings.Join(all, " "); got != want {
		t.Fatalf("after the end, step 3 shows %q; want every hand (%q)", got, want)
	}
}

// TestViewARecord: a record, sent as text or as a file, steps through
// without being kept; a document that is not one, or a turn that cannot
// be played, says why as cacao replay does.
func TestViewARecord(t *testing.T) {
	s := newSite(t)
	anon := s.client("anon")
	data, err := os.ReadFile("../engine/testdata/records/03-full.json")
	if err != nil {
		t.Fatal(err)
	}
	anon.get("/replay")
	code, page := anon.post("/replay", url.Values{"record": {string(data)}, "step": {"5"}})
	if code != http.StatusOK || !strings.Contains(page, "After entry 5 of ") || !viewtest.Has(t, page, "#replay-next") || tilesShown(t, page) == "" {
		t.Fatalf("a record at step 5: %d", code)
	}
	rec, _ := engine.DecodeRecord(data)
	rec.Turns[3] = rec.Turns[2]
	bad, _ := rec.Encode()
	for _, tc := range []struct{ record, says string }{
		{`{"format":"nope"}`, "This is not a game record: "},
		{string(bad), "Turn 4 of the record cannot be played: "},
		{"", "Choose a record file, or paste a record"},
		{strings.Repeat(" x", 13000), "A record has at most 24 KB."},
	} {
		code, page := anon.post("/replay", url.Values{"record": {tc.record}})
		if code != http.StatusUnprocessableEntity || !strings.Contains(page, tc.says) {
			t.Errorf("%.20q: %d, want 422 saying %q", tc.record, code, tc.says)
		}
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("_csrf", anon.csrf)
	fw, _ := mw.CreateFormFile("file", "game.json")
	fw.Write(data)
	mw.Close()
	req, _ := http.NewRequest("POST", s.srv.URL+"/replay", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if code, page := anon.do(req); code != http.StatusOK || !strings.Contains(page, "The start: nothing played yet.") {
		t.Fatalf("a record file: %d", code)
	}
	if _, err := s.store.LoadGame(1); !errors.Is(err, models.ErrNotFound) {
		t.Fatal("a record was kept as a game")
	}
}
