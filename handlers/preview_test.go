package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"cacao/engine"
	"cacao/views/viewtest"
)

// previewMove finds, for ana in game id, a move whose preview changes when
// one of her activated edges is used with 0 workers, and returns its form
// (all workers used) and the edge's index among her edges.
func previewMove(t *testing.T, s *site, id uint) (url.Values, int) {
	t.Helper()
	seat, l := s.seatOf(id, "ana")
	st := l.Play.State()
	for _, pl := range st.LegalPlacements(nil) {
		var fills []engine.Fill
		if opts := st.FillOptions(pl.At); !pl.Overbuild && len(opts) > 0 {
			fills = opts[0]
		}
		edges, err := st.Fired(pl, fills)
		if err != nil {
			t.Fatal(err)
		}
		var mine []engine.Edge
		for _, e := range edges {
			if e.Owner == seat {
				mine = append(mine, e)
			}
		}
		all, _ := st.Preview(seat, engine.Move{Placement: pl, Fills: fills})
		for k := range mine {
			acts := make([]engine.Act, len(mine))
			for i, e := range mine {
				acts[i] = engine.Act{Tile: e.Tile, Side: e.Side, Use: e.Workers}
			}
			acts[k].Use = 0
			less, err := st.Preview(seat, engine.Move{Placement: pl, Fills: fills, Acts: acts})
			if err != nil || fmt.Sprint(less.Gains) == fmt.Sprint(all.Gains) {
				continue
			}
			form := url.Values{"version": {fmt.Sprint(l.Game.Version)}, "tile": {pl.Tile.String()}, "rot": {fmt.Sprint(pl.Rot)}, "at": {fmt.Sprintf("%d,%d", pl.At.X, pl.At.Y)}, "fill": {"0"}}
			if pl.Overbuild {
				form.Set("overbuild", "1")
			}
			for i, e := range mine {
				form.Add("edge", fmt.Sprintf("%d,%d,%s", e.Tile.X, e.Tile.Y, e.Side))
				form.Add("use", fmt.Sprint(e.Workers))
				form.Add("order", fmt.Sprint(i+1))
			}
			return form, k
		}
	}
	return nil, 0
}

// TestPreviewFollowsWorkerChoices: the move's preview follows the worker
// choices (a use set to 0 changes "If you confirm"), with htmx and as a
// plain form post; two choices with one order are refused with a sentence
// and nothing is committed.
func TestPreviewFollowsWorkerChoices(t *testing.T) {
	s := newSite(t)
	var form url.Values
	var k int
	var id uint
	var ana *client
	for try := 0; try < 20 && form == nil; try++ {
		id, ana, _ = s.midGame()
		form, k = previewMove(t, s, id)
		if form == nil {
			s = newSite(t)
		}
	}
	if form == nil {
		t.Fatal("no game offered a move whose preview a worker choice changes: the test needs one")
	}
	preview := func(body string) string {
		m := regexp.MustCompile(`(?s)<div class="preview" id="preview">(.*?)</div>`).FindStringSubmatch(body)
		if m == nil {
			return ""
		}
		return m[1]
	}
	path := fmt.Sprintf("/games/%d/preview", id)
	// Only a seated player asks for a preview.
	if code, _ := s.signup("eve").post(path, copyForm(form)); code != http.StatusForbidden {
		t.Fatalf("a preview asked by someone without a seat: %d", code)
	}
	code, all := ana.post(path, copyForm(form))
	if code != http.StatusOK || preview(all) == "" {
		t.Fatalf("preview with every worker: %d, preview %q", code, preview(all))
	}
	less := copyForm(form)
	less["use"][k] = "0"
	for _, ask := range []func() (int, string){
		func() (int, string) { return ana.post(path, less) },
		func() (int, string) { return ana.htmx("POST", path, less) },
	} {
		code, body := ask()
		if code != http.StatusOK || preview(body) == "" || preview(body) == preview(all) {
			t.Fatalf("with a use set to 0 the preview is %q (%d), as with every worker: %q", preview(body), code, preview(all))
		}
		if !viewtest.Has(t, body, `option[value="0"][selected]`) || !viewtest.Has(t, body, "details#worker-use[open]") {
			t.Fatal("the worker choices shown are not the ones asked, or closed")
		}
	}
	// Two choices numbered alike (a second one added with the first's
	// number, if the move has one edge of ana's).
	{
		dup := copyForm(form)
		if len(dup["order"]) > 1 {
			dup["order"][1] = dup["order"][0]
		} else {
			dup.Add("edge", dup["edge"][0])
			dup.Add("use", "0")
			dup.Add("order", dup["order"][0])
		}
		_, before := s.seatOf(id, "ana")
		for _, p := range []string{path, fmt.Sprintf("/games/%d/turn", id), fmt.Sprintf("/games/%d/resolve", id)} {
			if code, body := ana.post(p, dup); code != http.StatusUnprocessableEntity || !strings.Contains(body, "Give each worker choice its own order") {
				t.Fatalf("%s with two orders alike: %d", p, code)
			}
		}
		if _, after := s.seatOf(id, "ana"); after.Game.Version != before.Game.Version {
			t.Fatal("a refused move was committed")
		}
	}
}

// copyForm is a copy of form: posting a form sets its CSRF token.
func copyForm(form url.Values) url.Values {
	out := url.Values{}
	for k, v := range form {
		if k != "_csrf" {
			out[k] = append([]string(nil), v...)
		}
	}
	return out
}
