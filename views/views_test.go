package views

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"cacao/engine"
	"cacao/static"
	"cacao/views/i18n"
	"cacao/views/viewtest"
)

var update = flag.Bool("update", false, "rewrite the golden files and static/tiles.svg")

// fixedGame is a 3-player game after six turns of a fixed setup, seen by seat 0.
func fixedGame(t *testing.T) GameVM {
	t.Helper()
	su, err := engine.NewSetup(3, 2024)
	if err != nil {
		t.Fatal(err)
	}
	s, err := engine.New(su, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		legal := s.LegalPlacements(nil)
		if _, err := s.Play(s.Current(), engine.Move{Placement: legal[(i*7)%len(legal)], Reactions: map[int][]engine.Act{}}); err != nil {
			t.Fatal(err)
		}
	}
	v := s.View(0)
	vm := GameVM{ID: 7, Version: 6, Status: "active", Me: 0, View: v}
	for i, name := range []string{"ana", "<b>bo</b>", "cy"} {
		vm.Seats = append(vm.Seats, Seat{Index: i, Name: name, Letter: Letters[i], Village: v.Seats[i], IsMe: i == 0, ToPlay: v.Current == i})
	}
	return vm
}

func golden(t *testing.T, name string, c templ.Component) string {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	got := buf.String()
	path := filepath.Join("testdata", name+".golden.html")
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./views -update to create it)", err)
	}
	if got != string(want) {
		t.Fatalf("%s differs from %s (go test ./views -update rewrites it after a deliberate change)\ngot:\n%s", name, path, got)
	}
	return got
}

func TestBoardGolden(t *testing.T) {
	vm := fixedGame(t)
	html := golden(t, "board", BoardSVG(vm, vm.boardFor()))
	// What a player would notice: every tile on the board is drawn, each
	// from a face that is defined (a seat's, on the page) or the sprite's.
	// A tile is a <use> of a seat's face (#s0) or a jungle tile's (#j3).
	face := regexp.MustCompile(`^(.*)#([sj]\d+)$`)
	var uses [][]string
	for _, href := range viewtest.Find(t, html, "use[href]").Map(func(_ int, u *goquery.Selection) string { return u.AttrOr("href", "") }) {
		if u := face.FindStringSubmatch(href); u != nil {
			uses = append(uses, u)
		}
	}
	if len(uses) != len(vm.View.Tiles) {
		t.Fatalf("%d tiles placed for %d tiles", len(uses), len(vm.View.Tiles))
	}
	sprite := string(spriteSVG())
	for _, u := range uses {
		switch u[1] {
		case "":
			if !viewtest.Has(t, html, `g[id="`+u[2]+`"]`) {
				t.Fatalf("tile face %s is placed but not defined", u[2])
			}
		case static.Path(tileSprite):
			if !viewtest.Has(t, sprite, `symbol[id="`+u[2]+`"]`) {
				t.Fatalf("tile face %s is not in the sprite", u[2])
			}
		default:
			t.Fatalf("tile face %s#%s is neither the page's nor the sprite's", u[1], u[2])
		}
	}
}

// TestBoardNumbers: the board's columns and rows are numbered in its
// margins, each number in line with its cells, so that a place the log or
// the bar names "(x, y)" can be found: every tile stands under its x and
// beside its y.
func TestBoardNumbers(t *testing.T) {
	vm := fixedGame(t)
	b := vm.boardFor()
	var buf bytes.Buffer
	if err := BoardSVG(vm, b).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	numbers := func(anchor string) map[int]string { // a number's x (columns) or y (rows) → its text
		out := map[int]string{}
		viewtest.Find(t, buf.String(), `g.numbers text[text-anchor="`+anchor+`"]`).Each(func(_ int, n *goquery.Selection) {
			at := n.AttrOr("x", "")
			if anchor == "end" {
				at = n.AttrOr("y", "")
			}
			v, _ := strconv.Atoi(at)
			out[v] = n.Text()
		})
		return out
	}
	cols, rows := numbers("middle"), numbers("end")
	if len(cols) != b.Cols || len(rows) != b.Rows {
		t.Fatalf("%d columns and %d rows numbered; the board has %d and %d", len(cols), len(rows), b.Cols, b.Rows)
	}
	for _, tv := range vm.View.Tiles {
		x, _ := strconv.Atoi(b.X(tv.At))
		y, _ := strconv.Atoi(b.Y(tv.At))
		if cols[x+CellSize/2] != strconv.Itoa(tv.At.X) || rows[y+CellSize/2+4] != strconv.Itoa(tv.At.Y) {
			t.Errorf("the tile at %v stands under the column numbered %q and beside the row numbered %q", tv.At, cols[x+CellSize/2], rows[y+CellSize/2+4])
		}
	}
	// In the reader's digits, as the log names the cells.
	fa, _ := i18n.Get("fa")
	buf.Reset()
	if err := BoardSVG(vm, b).Render(i18n.With(context.Background(), fa), &buf); err != nil {
		t.Fatal(err)
	}
	c := b.MinX + 1
	if want := strings.Trim(CellLabel(fa, engine.Cell{X: c, Y: c}), "()"); !strings.HasPrefix(want, fa.Num(c)) || !viewtest.HasText(t, buf.String(), "g.numbers text", fa.Num(c)) {
		t.Errorf("the board in Persian does not number a column %q, as a cell is named %q", fa.Num(c), want)
	}
}

func TestVillagesGolden(t *testing.T) {
	vm := fixedGame(t)
	html := golden(t, "villages", templ.Join(Villages(vm), VillageNumbers(vm)))
	if viewtest.HasText(t, html, "b", "bo") || !strings.Contains(viewtest.Parse(t, html).Text(), "<b>bo</b>") {
		t.Fatal("a player name with HTML is not escaped")
	}
	// Each village drawn as it is: its fruit and sun tokens in their
	// slots, the others faint, its carrier on its water field, all said in
	// words; and the same in the table's row.
	boards, rows := viewtest.Find(t, html, "li.village"), viewtest.Find(t, html, "tbody > tr")
	if boards.Length() != len(vm.Seats) || rows.Length() != len(vm.Seats) {
		t.Fatalf("%d villages drawn and %d rows for %d seats", boards.Length(), rows.Length(), len(vm.Seats))
	}
	for i, s := range vm.Seats {
		v := s.Village
		board, _ := goquery.OuterHtml(boards.Eq(i))
		row, _ := goquery.OuterHtml(rows.Eq(i))
		if viewtest.Count(t, board, `use[href$="#i-fruit"]`) != engine.MaxFruit || viewtest.Count(t, board, `use[href$="#i-fruit"].slot`) != engine.MaxFruit-v.Fruit ||
			viewtest.Count(t, board, `use[href$="#i-sun"]`) != engine.MaxSun || viewtest.Count(t, board, `use[href$="#i-sun"].slot`) != engine.MaxSun-v.Sun {
			t.Errorf("the tokens of %s (%d fruit, %d sun) not drawn in their slots: %s", s.Name, v.Fruit, v.Sun, board)
		}
		fields := viewtest.Find(t, board, "g.field")
		if fields.Length() != len(engine.WaterTrack()) || !fields.Eq(v.WaterField).HasClass("here") {
			t.Errorf("the carrier of %s is not on field %d: %q", s.Name, v.WaterField, fields.Map(func(_ int, f *goquery.Selection) string { return f.AttrOr("class", "") }))
		}
		if label, _ := viewtest.Attr(t, board, "svg.village-board", "aria-label"); !strings.Contains(label, fmt.Sprintf("field %d of 9", v.WaterField+1)) || !strings.Contains(label, fmt.Sprintf("fruit %d of 5", v.Fruit)) {
			t.Errorf("the village of %s is not said in words: %q", s.Name, label)
		}
		if !viewtest.HasText(t, row, "td", fmt.Sprintf("%d/5", v.Fruit)) {
			t.Errorf("the row of %s does not tell its fruit: %s", s.Name, row)
		}
	}
}

// TestVillagesFromMine: the viewer's village comes first, then the others
// in turn order, drawn and in numbers; a watcher sees them in seat order. A phone's strip of
// villages opens on the first, and a screen reader reads it first.
func TestVillagesFromMine(t *testing.T) {
	vm := fixedGame(t)
	for i := range vm.Seats {
		vm.Seats[i].IsMe = i == 1
	}
	order := func(vm GameVM) []string {
		var buf bytes.Buffer
		if err := VillageBoards(vm).Render(context.Background(), &buf); err != nil {
			t.Fatal(err)
		}
		return viewtest.Find(t, buf.String(), "li.village").Map(func(_ int, s *goquery.Selection) string { return s.AttrOr("id", "") })
	}
	if got, want := order(vm), []string{"village-1", "village-2", "village-0"}; !slices.Equal(got, want) {
		t.Fatalf("the second seat's player sees the villages in the order %q; want %q", got, want)
	}
	var buf bytes.Buffer
	if err := VillageNumbers(vm).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	if got := viewtest.Find(t, buf.String(), "tbody > tr > th").Map(func(_ int, s *goquery.Selection) string { return strings.TrimSpace(s.Text()) }); len(got) != 3 || !strings.HasPrefix(got[0], "B") || !strings.Contains(got[0], vm.Seats[1].Name) {
		t.Fatalf("the villages in numbers start with %q; want the second seat's", got)
	}
	vm.Seats[1].IsMe = false
	if got, want := order(vm), []string{"village-0", "village-1", "village-2"}; !slices.Equal(got, want) {
		t.Fatalf("a watcher sees the villages in the order %q; want %q", got, want)
	}
}

// TestHandMarksOneOfTwoAlike: with two alike tiles in the hand, the one
// clicked is the one marked chosen and drawn turned, not both: the second
// alike's link names its place in the hand (slot), the first's does not.
func TestHandMarksOneOfTwoAlike(t *testing.T) {
	vm := fixedGame(t)
	w, ok := engine.ParseWorker("3001") // told differently when turned
	if !ok {
		t.Fatal("no worker 3001")
	}
	vm.View.Hand = []engine.Worker{vm.View.Hand[1], w, w}
	vm.Play.MyTurn, vm.Play.CanAct = true, true
	for _, c := range []struct {
		sel  Selection
		want string
	}{
		{Selection{Tile: w.String(), Rot: 1}, "1"},
		{Selection{Tile: w.String(), Rot: 1, Slot: 2}, "2"},
		{Selection{Tile: w.String(), Rot: 1, Slot: 0}, "1"},
		{Selection{Tile: w.String(), Rot: 1, Slot: 7}, "1"}, // no such place: the first alike
	} {
		vm.Sel = c.sel
		var buf bytes.Buffer
		if err := HandPanel(vm).Render(context.Background(), &buf); err != nil {
			t.Fatal(err)
		}
		html := buf.String()
		ids := func(s *goquery.Selection) []string {
			return s.Map(func(_ int, e *goquery.Selection) string { return e.AttrOr("id", "") })
		}
		current := viewtest.Find(t, html, `[aria-current="true"][id^="tile-"]`)
		if current.Length() != 1 || current.AttrOr("id", "") != "tile-"+c.want {
			t.Fatalf("%+v: tiles marked chosen: %q, want tile-%s alone\n%s", c.sel, ids(current), c.want, html)
		}
		labels := viewtest.Find(t, html, `[data-tile="`+w.String()+`"][aria-label]:not([aria-label=""])`).Map(func(_ int, e *goquery.Selection) string { return e.AttrOr("aria-label", "") })
		if len(labels) != 2 || labels[0] == labels[1] {
			t.Fatalf("the two alike tiles are told alike (%q): the chosen one should be turned", labels)
		}
		rotate, hasRotate := viewtest.Attr(t, html, `#rotate[href]:not([href=""])`, "href")
		viewtest.Find(t, html, `[id^="tile-"][href]:not([href=""])`).Each(func(_ int, l *goquery.Selection) {
			id, href := strings.TrimPrefix(l.AttrOr("id", ""), "tile-"), l.AttrOr("href", "")
			if id == c.want { // the chosen tile turns, as Rotate does
				if !hasRotate || href != rotate {
					t.Fatalf("the chosen tile-%s links to %s, Rotate to %q: a click on it should turn it", id, href, rotate)
				}
				return
			}
			if has := strings.Contains(href, "slot="); has != (id == "2") {
				t.Fatalf("tile-%s links to %s: only the second alike names its slot", id, href)
			}
		})
		if c.want == "2" && !strings.Contains(rotate, "slot=2&tile=3001") {
			t.Fatalf("the rotate link should keep the slot:\n%s", html)
		}
	}
}

// TestSeatName: a bot's seat is named in the page's language; a person's
// name, even one that reads like a bot's, is left as written; a guest's
// and a bot account's are marked.
func TestSeatName(t *testing.T) {
	en, _ := i18n.Get("en")
	fa, _ := i18n.Get("fa")
	zh, _ := i18n.Get("zh-Hans")
	for _, tc := range []struct {
		l         *i18n.Lang
		name, bot string
		mark      Mark
		want      string
	}{
		{en, "greedy bot 2", "greedy", PersonMark, "medium bot 2"}, // seated before the levels: the same bot
		{en, "hard bot 3", "hard", PersonMark, "hard bot 3"},
		{fa, "medium bot 2", "medium", PersonMark, "\u2068ربات متوسط\u2069 ۲"}, // isolated, as every name in a right-to-left text
		{zh, "random bot 4", "random", PersonMark, "随机机器人 4"},
		{fa, "greedy bot 2", "", PersonMark, "greedy bot 2"},
		{fa, "my bot", "greedy", PersonMark, "my bot"},
		{fa, "greedy bot x", "greedy", PersonMark, "greedy bot x"},
		{fa, "clever bot 2", "clever", PersonMark, "clever bot 2"}, // a kind with no name of its own
		{en, "ana", "", GuestMark, "ana (guest)"},
		{fa, "ana", "", GuestMark, "\u2068ana\u2069 (مهمان)"},
		{en, "rob", "", BotMark, "rob (bot)"},
		{en, "greedy bot 2", "", BotMark, "greedy bot 2 (bot)"},
	} {
		if got := SeatName(tc.l, tc.name, tc.bot, tc.mark); got != tc.want {
			t.Errorf("SeatName(%s, %q, %q, %v) = %q, want %q", tc.l.Code, tc.name, tc.bot, tc.mark, got, tc.want)
		}
	}
}

// TestTileSprite: the hand's icons name symbols of the tiles' sprite, a
// static file with every worker tile in each of its four turns, its
// workers placed as the board places them, and every jungle tile, served
// under the name the icons use (also when a second server adds it again).
// No drawing carries a notation code.
func TestTileSprite(t *testing.T) {
	sprite := string(spriteSVG())
	rec := httptest.NewRecorder()
	static.Handler().ServeHTTP(rec, httptest.NewRequest("GET", static.Path(tileSprite), nil))
	if rec.Code != 200 || rec.Body.String() != sprite {
		t.Fatalf("%s: %d, %d bytes; want the sprite's %d", static.Path(tileSprite), rec.Code, rec.Body.Len(), len(sprite))
	}
	if n, want := viewtest.Count(t, sprite, `symbol[id]:not([id=""])`), 4*engine.NumWorkerKinds+engine.NumJungleKinds+1+7; n != want {
		t.Fatalf("%d symbols in the sprite, want %d", n, want)
	}
	symbol := func(id string) string { // wrapped in <svg>, so that it parses again as SVG
		s, err := goquery.OuterHtml(viewtest.Find(t, sprite, `symbol[id="`+id+`"]`).First())
		if s == "" || err != nil {
			t.Fatalf("no symbol %s in the sprite (%v)", id, err)
		}
		return "<svg>" + s + "</svg>"
	}
	spriteRef := regexp.MustCompile(`^(/static/tiles\.[0-9a-f]{10}\.svg)#(.+)$`)
	for w := engine.Worker(0); int(w) < engine.NumWorkerKinds; w++ {
		for rot := 0; rot < 4; rot++ {
			var buf bytes.Buffer
			if err := TileIcon(w, rot).Render(context.Background(), &buf); err != nil {
				t.Fatal(err)
			}
			var ref []string
			for _, href := range viewtest.Find(t, buf.String(), "use[href]").Map(func(_ int, u *goquery.Selection) string { return u.AttrOr("href", "") }) {
				if ref = spriteRef.FindStringSubmatch(href); ref != nil {
					break
				}
			}
			if ref == nil || ref[1] != static.Path("tiles.svg") {
				t.Fatalf("%s turned %d: the icon %s does not name the served sprite", w, rot, buf.String())
			}
			s := symbol(ref[2])
			var want []string
			for _, f := range (Board{}).Figures(engine.TileView{Edges: edgesOf(w, rot)}) {
				want = append(want, f.Transform())
			}
			got := viewtest.Find(t, s, "g.wk[transform]").Map(func(_ int, g *goquery.Selection) string { return g.AttrOr("transform", "") })
			if len(got) != len(want) {
				t.Fatalf("symbol %s has %d workers, want %d:\n%s", ref[2], len(got), len(want), s)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("symbol %s: worker %d at %s, want %s", ref[2], i, got[i], want[i])
				}
			}
		}
	}
	for j := engine.P1; int(j) <= engine.NumJungleKinds; j++ {
		s := symbol(jungleID(j))
		if slices.Contains(textNodes(t, s), j.String()) {
			t.Errorf("jungle tile %s is labelled with its code:\n%s", j, s)
		}
	}
	if viewtest.Has(t, sprite, "text") && slices.ContainsFunc(textNodes(t, sprite), func(s string) bool { return slices.Contains([]string{"1111", "2101", "3001", "3100"}, s) }) {
		t.Error("a worker tile is labelled with its code")
	}
}

// textNodes is each run of text in page, between its tags, as
// viewtest.Collapse gives it: a label written on its own, even in an
// element that has other text too.
func textNodes(t *testing.T, page string) []string {
	t.Helper()
	var texts []string
	viewtest.Find(t, page, "*").Contents().Each(func(_ int, c *goquery.Selection) {
		if goquery.NodeName(c) == "#text" {
			texts = append(texts, viewtest.Collapse(c.Text()))
		}
	})
	return texts
}

func TestTieNotesAndResult(t *testing.T) {
	en, _ := i18n.Get("en")
	line := func(name string, total, fruit, place int, shared bool) ScoreLine {
		return ScoreLine{Name: name, Score: engine.Score{Total: total, Fruit: fruit}, Place: place, Shared: shared}
	}
	lines := []ScoreLine{line("ana", 40, 3, 1, false), line("bob", 40, 1, 2, false), line("cy", 30, 2, 3, true), line("dee", 30, 2, 3, true)}
	got := TieNotes(en, lines)
	want := []string{
		"ana, bob tied on 40 points; the fruit left decides (ana 3, bob 1).",
		"cy, dee tied on 30 points and 2 fruit left: they share the place.",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("TieNotes = %q; want %q", got, want)
	}
	if got := TieNotes(en, lines[1:3]); len(got) != 0 {
		t.Errorf("no tie, yet TieNotes = %q", got)
	}
	if got, want := ResultLine(en, lines), "Game over: 1st ana with 40 points; 2nd bob with 40 points; 3rd (shared) cy with 30 points; 3rd (shared) dee with 30 points."; got != want {
		t.Errorf("ResultLine = %q; want %q", got, want)
	}
}

// TestRetiredEndNotice: an end notice stored with the words it had before
// is told with today's, translated.
func TestRetiredEndNotice(t *testing.T) {
	en, _ := i18n.Get("en")
	fa, _ := i18n.Get("fa")
	args := []any{7, 2, 3}
	if got := NoticeText(en, "Game 7 is over: you placed 2 of 3.", "Game %d is over: you placed %d of %d.", args); got != "Game 7 is over: you finished in place 2 of 3." {
		t.Errorf("en: %q", got)
	}
	if got := NoticeText(fa, "", "Game %d is over: you placed %d of %d.", args); got != fa.T("Game %d is over: you finished in place %d of %d.", args...) || strings.Contains(got, "placed") {
		t.Errorf("fa: %q", got)
	}
}

// TestBoardShowsTheMove: with a tile and a cell chosen, the board draws the
// tile on its cell in the player's colour (not a blank square) and the
// jungle tiles the move would lay, from the sprite.
func TestBoardShowsTheMove(t *testing.T) {
	vm := fixedGame(t)
	vm.Me = 2 // a seat with no tile on the board yet
	at := engine.Cell{X: 40, Y: 40}
	vm.Sel = Selection{Tile: vm.View.Hand[0].String(), At: &at}
	fill := engine.Fill{At: engine.Cell{X: 41, Y: 40}, Tile: engine.Jungle(1)}
	vm.Play.Fills = []engine.Fill{fill}
	b := vm.boardFor()
	var buf bytes.Buffer
	if err := BoardSVG(vm, b).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	if !viewtest.Has(t, html, `g.ghost use[href="#s2"]`) || !viewtest.Has(t, html, "g#s2") {
		t.Fatalf("the move's tile is not drawn from a defined face:\n%s", viewtest.Show(t, html, "g.ghost"))
	}
	if !viewtest.Has(t, html, fmt.Sprintf(`g.ghost use[href="%s"][x="%s"][y="%s"]`, tileIcon(jungleID(fill.Tile)), b.X(fill.At), b.Y(fill.At))) {
		t.Fatalf("the jungle tile is not drawn from the sprite on its cell:\n%s", viewtest.Show(t, html, "g.ghost"))
	}
}

// TestFillOptionsDrawTheirTiles: each way to fill the jungle cells shows
// the tiles it lays, drawn in its order (a tile from the pile face down),
// beside the words.
func TestFillOptionsDrawTheirTiles(t *testing.T) {
	vm := fixedGame(t)
	at := engine.Cell{X: 40, Y: 40}
	vm.Sel = Selection{Tile: vm.View.Hand[0].String(), At: &at, Fill: 1}
	vm.Play.MyTurn, vm.Play.CanAct = true, true
	a, b := engine.Cell{X: 41, Y: 40}, engine.Cell{X: 40, Y: 41}
	opts := [][]engine.Fill{
		{{At: a, Tile: engine.M3}, {At: b, Tile: engine.P1}},
		{{At: a, Tile: engine.P1}, {At: b, Tile: engine.M3}},
		{{At: a, Tile: engine.P1}, {At: b, FromPile: true}},
	}
	en, _ := i18n.Get("en")
	for _, o := range opts {
		vm.Play.FillOptions = append(vm.Play.FillOptions, FillOption{Fills: o, Text: FillText(en, o)})
	}
	var buf bytes.Buffer
	if err := PlayPanel(vm).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	items := viewtest.Find(t, buf.String(), "li")
	if items.Length() != len(opts) {
		t.Fatalf("%d options listed, want %d:\n%s", items.Length(), len(opts), buf.String())
	}
	for i, o := range opts {
		var want []string
		for _, f := range o {
			want = append(want, tileIcon(jungleID(f.Tile)))
		}
		item, _ := goquery.OuterHtml(items.Eq(i))
		got := viewtest.Find(t, item, `svg.fill-tile > use:first-child[href]:not([href=""])`).Map(func(_ int, u *goquery.Selection) string { return u.AttrOr("href", "") })
		if !slices.Equal(got, want) || !strings.Contains(viewtest.Text(t, item, "li"), viewtest.Collapse(FillText(en, o))) {
			t.Errorf("option %d draws %v, want %v, beside %q:\n%s", i, got, want, FillText(en, o), item)
		}
	}
}

// TestBoardFrameKeepsItsSize: the board is framed on its tiles with one
// free cell around them, where every legal place lies: choosing a tile
// (which shows the places) neither grows nor moves it.
func TestBoardFrameKeepsItsSize(t *testing.T) {
	su, _ := engine.NewSetup(4, 7)
	s, _ := engine.New(su, 0)
	r := engine.NewRand(7)
	for turn := 0; turn < 30 && !s.Over(); turn++ {
		v := s.View(s.Current())
		var legal []engine.Cell
		for _, p := range v.Legal {
			legal = append(legal, p.At)
		}
		plain, offered := NewBoard(v, nil), NewBoard(v, legal)
		if plain.MinX != offered.MinX || plain.MinY != offered.MinY || plain.Cols != offered.Cols || plain.Rows != offered.Rows {
			t.Fatalf("turn %d: the board is %+v without places and %+v with them", turn, [4]int{plain.MinX, plain.MinY, plain.Cols, plain.Rows}, [4]int{offered.MinX, offered.MinY, offered.Cols, offered.Rows})
		}
		pl := v.Legal[r.Intn(len(v.Legal))]
		if _, err := s.Play(s.Current(), engine.Move{Placement: pl}); err != nil {
			t.Fatal(err)
		}
		s.ResolveAll()
	}
}

// TestGainTextPlurals: a gain counts its steps and its points each in its
// own number ("+1 point", not "+1 points").
func TestGainTextPlurals(t *testing.T) {
	en, _ := i18n.Get("en")
	for _, tc := range []struct {
		g    engine.Gain
		want string
	}{
		{engine.Gain{Gold: 2, WaterSteps: 1, Water: 1}, "+2 gold, water +1 step (+1 point)"},
		{engine.Gain{WaterSteps: 1, Water: 3}, "water +1 step (+3 points)"},
		{engine.Gain{WaterSteps: 2, Water: 1}, "water +2 steps (+1 point)"},
		{engine.Gain{WaterSteps: 2, Water: 9}, "water +2 steps (+9 points)"},
	} {
		if got := GainText(en, tc.g); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.g, got, tc.want)
		}
	}
}

// TestTempleLine: before the end a temple's line is the standing ("if the
// game ended now"), after it the award; each player's name is set apart
// from their count of workers.
func TestTempleLine(t *testing.T) {
	en, _ := i18n.Get("en")
	tr := engine.TempleResult{At: engine.Cell{X: 2, Y: 0}, Workers: []int{2, 1}, Award: []int{6, 3}}
	names := []string{"ana", "greedy bot 1"}
	if got, want := TempleLine(en, tr, names, false), "Temple at (2,\u00a00), if the game ended now: ana: 2 workers → 6 gold; greedy bot 1: 1 worker → 3 gold"; got != want {
		t.Errorf("during the game: %q, want %q", got, want)
	}
	if got, want := TempleLine(en, tr, names, true), "Temple at (2,\u00a00): ana: 2 workers → 6 gold; greedy bot 1: 1 worker → 3 gold"; got != want {
		t.Errorf("at the end: %q, want %q", got, want)
	}
}

// A notice stored while the stand-in was always the greedy bot reads as
// the notice now does, in the reader's language.
func TestNoticeTextOfTheGreedyBotDays(t *testing.T) {
	fa, _ := i18n.Get("fa")
	old := "%s resigned in game %d: the greedy bot plays their seat to the end."
	got := NoticeText(fa, "ana resigned in game 3: the greedy bot plays their seat to the end.", old, []any{"ana", 3})
	if want := fa.T("%s resigned in game %d: the stand-in bot plays their seat to the end.", "ana", 3); got != want || !strings.Contains(got, "ربات جانشین") {
		t.Fatalf("the old notice reads %q, want %q", got, want)
	}
}

// TestLanguageFormSelectsTheReadersLanguage: the selector shows the page's
// language as chosen, also for a reader with a time zone of their own (a
// signed-in player's language is theirs, in their zone).
func TestLanguageFormSelectsTheReadersLanguage(t *testing.T) {
	fa, _ := i18n.Get("fa")
	zone, err := time.LoadLocation("Asia/Tehran")
	if err != nil {
		zone = time.FixedZone("IRST", 3*3600+1800)
	}
	for name, l := range map[string]*i18n.Lang{"fa": fa, "fa in a zone": fa.In(zone)} {
		var buf bytes.Buffer
		if err := LanguageForm(Page{}, "x").Render(i18n.With(context.Background(), l), &buf); err != nil {
			t.Fatal(err)
		}
		if !viewtest.Has(t, buf.String(), `option[value="fa"][lang="fa"][selected]`) {
			t.Errorf("%s: Persian is not the language selected:\n%s", name, buf.String())
		}
	}
}

// TestNoRotateForTheSameEveryWay: Rotate is offered for a chosen tile that
// looks otherwise when turned, not for 1-1-1-1.
func TestNoRotateForTheSameEveryWay(t *testing.T) {
	vm := fixedGame(t)
	vm.Play.MyTurn, vm.Play.CanAct = true, true
	for _, c := range []struct {
		tile   string
		rotate bool
	}{{"1111", false}, {"2101", true}, {"3001", true}, {"3100", true}} {
		w, ok := engine.ParseWorker(c.tile)
		if !ok {
			t.Fatalf("no worker %s", c.tile)
		}
		vm.View.Hand = []engine.Worker{w}
		vm.Sel = Selection{Tile: w.String()}
		var buf bytes.Buffer
		if err := HandPanel(vm).Render(context.Background(), &buf); err != nil {
			t.Fatal(err)
		}
		if got := viewtest.Has(t, buf.String(), "#rotate"); got != c.rotate {
			t.Errorf("%s chosen: Rotate offered %v; want %v", c.tile, got, c.rotate)
		}
	}
}

// TestPagesHaveADescription: every page says what the site is, for search
// engines and link previews, in the page's language.
func TestPagesHaveADescription(t *testing.T) {
	zh, _ := i18n.Get("zh-Hans")
	for _, l := range []*i18n.Lang{i18n.En, zh} {
		var buf bytes.Buffer
		if err := ErrorPage(Page{Title: "x"}, "y").Render(i18n.With(context.Background(), l), &buf); err != nil {
			t.Fatal(err)
		}
		d, ok := viewtest.Attr(t, buf.String(), `meta[name="description"]`, "content")
		if !ok || d == "" || !strings.Contains(d, "Cacao") || (l != i18n.En) == strings.Contains(d, "board game") {
			t.Errorf("%s: description %q (%v)", l.Code, d, ok)
		}
	}
}

// TestHandNotOfferedWhileWaiting: while the player cannot place a tile
// (another's turn, or a choice of theirs first) the hand's tiles are
// drawn and named, not links, and Rotate is not offered; on their turn
// they are links.
func TestHandNotOfferedWhileWaiting(t *testing.T) {
	vm := fixedGame(t)
	vm.Sel = Selection{Tile: vm.View.Hand[0].String()}
	for _, canAct := range []bool{false, true} {
		vm.Play.MyTurn, vm.Play.CanAct = canAct, canAct
		var buf bytes.Buffer
		if err := HandPanel(vm).Render(context.Background(), &buf); err != nil {
			t.Fatal(err)
		}
		page := buf.String()
		links := viewtest.Count(t, page, "a.tile")
		code := regexp.MustCompile(`^\d{4}$`)
		drawn := viewtest.Find(t, page, `span.tile[role="img"][aria-label^="Worker tile"]`).FilterFunction(func(_ int, s *goquery.Selection) bool {
			return code.MatchString(s.AttrOr("data-tile", ""))
		}).Length()
		want := len(vm.View.Hand)
		if canAct && (links != want || drawn != 0) || !canAct && (links != 0 || drawn != want || viewtest.Has(t, page, "#rotate")) {
			t.Errorf("can act %v: %d tiles as links, %d drawn (a hand of %d)\n%s", canAct, links, drawn, want, page)
		}
	}
}

// TestFillAltsChooseTheOtherOptions: the fill options not chosen are drawn
// small on the cells where they would lay another tile than the chosen
// one (a tile from the pile face down), each choosing its option; two at
// most in a cell's corner.
func TestFillAltsChooseTheOtherOptions(t *testing.T) {
	vm := fixedGame(t)
	at := engine.Cell{X: 40, Y: 40}
	vm.Sel = Selection{Tile: vm.View.Hand[0].String(), At: &at, Fill: 1}
	a, b := engine.Cell{X: 41, Y: 40}, engine.Cell{X: 40, Y: 41}
	opts := [][]engine.Fill{
		{{At: a, Tile: engine.M3}, {At: b, Tile: engine.P1}},
		{{At: a, Tile: engine.P1}, {At: b, Tile: engine.M3}},
		{{At: a, Tile: engine.P1}, {At: b, FromPile: true}},
		{{At: a, Tile: engine.M4}, {At: b, Tile: engine.P1}},
	}
	for _, o := range opts {
		vm.Play.FillOptions = append(vm.Play.FillOptions, FillOption{Fills: o})
	}
	vm.Play.Fills = opts[1]
	link := func(i int) string { return vm.Link(vm.Sel.WithFill(i)) }
	want := []FillAlt{
		{At: a, Tile: engine.M3, N: 0, Link: link(0)},
		{At: b, Tile: engine.P1, N: 0, Link: link(0)},
		{At: b, Tile: engine.NoJungle, N: 1, Link: link(2)}, // the pile's: a's P1 is the chosen one's
		{At: a, Tile: engine.M4, N: 1, Link: link(3)},       // b's P1 would be a third in its corner
	}
	if got := vm.fillAlts(); !reflect.DeepEqual(got, want) {
		t.Fatalf("fillAlts = %+v\nwant %+v", got, want)
	}
	if link(0) == link(1) || link(2) == link(3) {
		t.Fatal("the options' links do not tell them apart")
	}
}

// A hint from a solved endgame says what best play brings, not "won 100 %
// of the 1 game"; one from the tree search counts its games.
func TestHintText(t *testing.T) {
	en, _ := i18n.Get("en")
	for _, tc := range []struct {
		h    Hint
		want string
	}{
		{Hint{Won: 0.62, Games: 240}, "It tried it in 240 practice games played to the end, and won 62% of them."},
		{Hint{Won: 1, Games: 1, Solved: true}, "with the best play on both sides, it wins the game."},
		{Hint{Won: 0.5, Games: 1, Solved: true}, "it shares first place."},
		{Hint{Won: 0, Games: 1, Solved: true}, "it loses the game, by as little as can be."},
	} {
		if got := HintText(en, tc.h); !strings.HasSuffix(got, tc.want) {
			t.Errorf("%+v: %q, want it to end %q", tc.h, got, tc.want)
		}
	}
}
