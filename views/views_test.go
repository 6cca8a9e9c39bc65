package views

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"html"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a-h/templ"

	"cacao/engine"
	"cacao/static"
	"cacao/views/i18n"
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
	uses := regexp.MustCompile(`<use href="([^"]*)#([sj]\d+)"`).FindAllStringSubmatch(html, -1)
	if len(uses) != len(vm.View.Tiles) {
		t.Fatalf("%d tiles placed for %d tiles", len(uses), len(vm.View.Tiles))
	}
	sprite := string(spriteSVG())
	for _, u := range uses {
		switch u[1] {
		case "":
			if !strings.Contains(html, `<g id="`+u[2]+`">`) {
				t.Fatalf("tile face %s is placed but not defined", u[2])
			}
		case static.Path(tileSprite):
			if !strings.Contains(sprite, `<symbol id="`+u[2]+`"`) {
				t.Fatalf("tile face %s is not in the sprite", u[2])
			}
		default:
			t.Fatalf("tile face %s#%s is neither the page's nor the sprite's", u[1], u[2])
		}
	}
}

func TestVillagesGolden(t *testing.T) {
	vm := fixedGame(t)
	html := golden(t, "villages", templ.Join(Villages(vm), VillageNumbers(vm)))
	if strings.Contains(html, "<b>bo</b>") || !strings.Contains(html, "&lt;b&gt;bo&lt;/b&gt;") {
		t.Fatal("a player name with HTML is not escaped")
	}
	// Each village drawn as it is: its fruit and sun tokens in their
	// slots, the others faint, its carrier on its water field, all said in
	// words; and the same in the table's row.
	boards := strings.Split(html[:strings.Index(html, "<details")], `<li class="village`)[1:]
	rows := strings.Split(html[strings.Index(html, "<tbody>"):], "<tr>")[1:]
	if len(boards) != len(vm.Seats) || len(rows) != len(vm.Seats) {
		t.Fatalf("%d villages drawn and %d rows for %d seats", len(boards), len(rows), len(vm.Seats))
	}
	for i, s := range vm.Seats {
		v, board := s.Village, boards[i]
		empty := func(icon string) int {
			return len(regexp.MustCompile(icon+`"[^>]*class="slot"`).FindAllString(board, -1))
		}
		if strings.Count(board, "#i-fruit\"") != engine.MaxFruit || empty("#i-fruit") != engine.MaxFruit-v.Fruit ||
			strings.Count(board, "#i-sun\"") != engine.MaxSun || empty("#i-sun") != engine.MaxSun-v.Sun {
			t.Errorf("the tokens of %s (%d fruit, %d sun) not drawn in their slots: %s", s.Name, v.Fruit, v.Sun, board)
		}
		fields := regexp.MustCompile(`<g class="field (\w+)">`).FindAllStringSubmatch(board, -1)
		if len(fields) != len(engine.WaterTrack()) || fields[v.WaterField][1] != "here" {
			t.Errorf("the carrier of %s is not on field %d: %v", s.Name, v.WaterField, fields)
		}
		if !strings.Contains(board, fmt.Sprintf("field %d of 9", v.WaterField+1)) || !strings.Contains(board, fmt.Sprintf("fruit %d of 5", v.Fruit)) {
			t.Errorf("the village of %s is not said in words: %s", s.Name, board)
		}
		if !strings.Contains(rows[i], fmt.Sprintf("<td>%d/5</td>", v.Fruit)) {
			t.Errorf("the row of %s does not tell its fruit: %s", s.Name, rows[i])
		}
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
		current := regexp.MustCompile(`aria-current="true"[^>]*id="tile-(\d)"`).FindAllStringSubmatch(html, -1)
		if len(current) != 1 || current[0][1] != c.want {
			t.Fatalf("%+v: tiles marked chosen: %v, want tile-%s alone\n%s", c.sel, current, c.want, html)
		}
		labels := regexp.MustCompile(`aria-label="([^"]+)"[^>]*data-tile="`+w.String()+`"`).FindAllStringSubmatch(html, -1)
		if len(labels) != 2 || labels[0][1] == labels[1][1] {
			t.Fatalf("the two alike tiles are told alike (%v): the chosen one should be turned", labels)
		}
		links := regexp.MustCompile(`href="([^"]+)"[^>]*id="tile-(\d)"`).FindAllStringSubmatch(html, -1)
		rotate := regexp.MustCompile(`href="([^"]+)"[^>]*id="rotate"`).FindStringSubmatch(html)
		for _, l := range links {
			if l[2] == c.want { // the chosen tile turns, as Rotate does
				if rotate == nil || l[1] != rotate[1] {
					t.Fatalf("the chosen tile-%s links to %s, Rotate to %v: a click on it should turn it", l[2], l[1], rotate)
				}
				continue
			}
			if has := strings.Contains(l[1], "slot="); has != (l[2] == "2") {
				t.Fatalf("tile-%s links to %s: only the second alike names its slot", l[2], l[1])
			}
		}
		if c.want == "2" && !regexp.MustCompile(`href="[^"]*slot=2&amp;tile=3001[^"]*"[^>]*id="rotate"`).MatchString(html) {
			t.Fatalf("the rotate link should keep the slot:\n%s", html)
		}
	}
}

// TestSeatName: a bot's seat is named in the page's language; a person's
// name, even one that reads like a bot's, is left as written.
func TestSeatName(t *testing.T) {
	en, _ := i18n.Get("en")
	fa, _ := i18n.Get("fa")
	zh, _ := i18n.Get("zh-Hans")
	for _, tc := range []struct {
		l         *i18n.Lang
		name, bot string
		want      string
	}{
		{en, "greedy bot 2", "greedy", "medium bot 2"}, // seated before the levels: the same bot
		{en, "hard bot 3", "hard", "hard bot 3"},
		{fa, "medium bot 2", "medium", "\u2068ربات متوسط\u2069 ۲"}, // isolated, as every name in a right-to-left text
		{zh, "random bot 4", "random", "随机机器人 4"},
		{fa, "greedy bot 2", "", "greedy bot 2"},
		{fa, "my bot", "greedy", "my bot"},
		{fa, "greedy bot x", "greedy", "greedy bot x"},
		{fa, "clever bot 2", "clever", "clever bot 2"}, // a kind with no name of its own
	} {
		if got := SeatName(tc.l, tc.name, tc.bot); got != tc.want {
			t.Errorf("SeatName(%s, %q, %q) = %q, want %q", tc.l.Code, tc.name, tc.bot, got, tc.want)
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
	ids := regexp.MustCompile(`<symbol id="([^"]+)"`).FindAllStringSubmatch(sprite, -1)
	if want := 4*engine.NumWorkerKinds + engine.NumJungleKinds + 1 + 7; len(ids) != want {
		t.Fatalf("%d symbols in the sprite, want %d", len(ids), want)
	}
	symbol := func(id string) string {
		i := strings.Index(sprite, `<symbol id="`+id+`"`)
		if i < 0 {
			t.Fatalf("no symbol %s in the sprite", id)
		}
		return sprite[i : i+strings.Index(sprite[i:], "</symbol>")]
	}
	for w := engine.Worker(0); int(w) < engine.NumWorkerKinds; w++ {
		for rot := 0; rot < 4; rot++ {
			var buf bytes.Buffer
			if err := TileIcon(w, rot).Render(context.Background(), &buf); err != nil {
				t.Fatal(err)
			}
			ref := regexp.MustCompile(`<use href="(/static/tiles\.[0-9a-f]{10}\.svg)#([^"]+)"`).FindStringSubmatch(buf.String())
			if ref == nil || ref[1] != static.Path("tiles.svg") {
				t.Fatalf("%s turned %d: the icon %s does not name the served sprite", w, rot, buf.String())
			}
			s := symbol(ref[2])
			var want []string
			for _, f := range (Board{}).Figures(engine.TileView{Edges: edgesOf(w, rot)}) {
				want = append(want, f.Transform())
			}
			got := regexp.MustCompile(`<g class="wk" transform="([^"]+)"`).FindAllStringSubmatch(s, -1)
			if len(got) != len(want) {
				t.Fatalf("symbol %s has %d workers, want %d:\n%s", ref[2], len(got), len(want), s)
			}
			for i := range got {
				if got[i][1] != want[i] {
					t.Errorf("symbol %s: worker %d at %s, want %s", ref[2], i, got[i][1], want[i])
				}
			}
		}
	}
	for j := engine.P1; int(j) <= engine.NumJungleKinds; j++ {
		s := symbol(jungleID(j))
		if strings.Contains(s, ">"+j.String()+"<") {
			t.Errorf("jungle tile %s is labelled with its code:\n%s", j, s)
		}
	}
	if strings.Contains(sprite, "<text") && regexp.MustCompile(`>(1111|2101|3001|3100)<`).MatchString(sprite) {
		t.Error("a worker tile is labelled with its code")
	}
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
	ghost := html[strings.Index(html, `<g class="ghost"`):]
	if !strings.Contains(ghost, `<use href="#s2"`) || !strings.Contains(html, `<g id="s2">`) {
		t.Fatalf("the move's tile is not drawn from a defined face:\n%s", ghost)
	}
	if !strings.Contains(ghost, fmt.Sprintf(`<use href="%s" x="%s" y="%s"`, tileIcon(jungleID(fill.Tile)), b.X(fill.At), b.Y(fill.At))) {
		t.Fatalf("the jungle tile is not drawn from the sprite on its cell:\n%s", ghost)
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
	items := strings.Split(buf.String(), "<li>")[1:]
	if len(items) != len(opts) {
		t.Fatalf("%d options listed, want %d:\n%s", len(items), len(opts), buf.String())
	}
	for i, o := range opts {
		var want []string
		for _, f := range o {
			want = append(want, tileIcon(jungleID(f.Tile)))
		}
		var got []string
		for _, m := range regexp.MustCompile(`<svg class="fill-tile"[^>]*><use href="([^"]+)"`).FindAllStringSubmatch(items[i], -1) {
			got = append(got, m[1])
		}
		if !slices.Equal(got, want) || !strings.Contains(items[i], html.EscapeString(FillText(en, o))) {
			t.Errorf("option %d draws %v, want %v, beside %q:\n%s", i, got, want, FillText(en, o), items[i])
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
		if !regexp.MustCompile(`<option value="fa" lang="fa" selected>`).MatchString(buf.String()) {
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
		if got := strings.Contains(buf.String(), `id="rotate"`); got != c.rotate {
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
		m := regexp.MustCompile(`<meta name="description" content="([^"]+)">`).FindStringSubmatch(buf.String())
		if m == nil || !strings.Contains(m[1], "Cacao") || (l != i18n.En) == strings.Contains(m[1], "board game") {
			t.Errorf("%s: description %v", l.Code, m)
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
		links := regexp.MustCompile(`<a [^>]*class="tile"`).FindAllString(page, -1)
		drawn := regexp.MustCompile(`<span class="tile" data-tile="\d{4}" role="img" aria-label="Worker tile[^"]*"`).FindAllString(page, -1)
		want := len(vm.View.Hand)
		if canAct && (len(links) != want || len(drawn) != 0) || !canAct && (len(links) != 0 || len(drawn) != want || strings.Contains(page, `id="rotate"`)) {
			t.Errorf("can act %v: %d tiles as links, %d drawn (a hand of %d)\n%s", canAct, len(links), len(drawn), want, page)
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
