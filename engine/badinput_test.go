package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// Illegal turns through Play and bad game records: every one is a clear
// error, never a panic, and never changes the state.

// mustRefuse asserts that s refuses seat's move with the exact reason, as an
// *IllegalError, without panicking and without any visible change.
func mustRefuse(t *testing.T, s *State, seat int, m Move, reason string) {
	t.Helper()
	before := s.Clone()
	views := make([]View, 0, s.Players()+1)
	for v := Spectator; v < s.Players(); v++ {
		views = append(views, s.View(v))
	}
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("Play(%d, %+v) panicked: %v", seat, m, r)
			}
		}()
		_, err = s.Play(seat, m)
	}()
	if err == nil {
		t.Fatalf("Play(%d, %+v) accepted; want %q", seat, m, reason)
	}
	var ie *IllegalError
	if !errors.As(err, &ie) || !errors.Is(err, ErrIllegal) {
		t.Errorf("error %T %v is not an *IllegalError", err, err)
	}
	if err.Error() != reason {
		t.Errorf("Play(%d, %+v) refused with %q; want %q", seat, m.Placement, err, reason)
	}
	if !sameState(before, s) {
		t.Fatalf("refused move changed the state")
	}
	for i, v := 0, Spectator; v < s.Players(); i, v = i+1, v+1 {
		if got := s.View(v); !reflect.DeepEqual(got, views[i]) {
			t.Fatalf("refused move changed what viewer %d sees", v)
		}
	}
}

// badPos is a 2-player position: seat 1's 2101 at [1,0] (N2 E1 S0 W1);
// seat 0 holds 1111, 2101 and 3100. Seat 0 laying a tile at [0,-1] makes
// [1,-1] need a tile; at [0,1] nothing needs filling.
func badPos(t *testing.T) *State {
	return newPos(t, 2, W1111, W2101, W3100).hand(1, W1111).worker(xy(1, 0), 1, W2101, 0).
		display(G1, P2).pile(TempleTile, Sun, M3).s
}

func TestBadPlacements(t *testing.T) {
	const known = "a turn needs a known tile, a rotation 0-3 and a cell"
	for _, tc := range []struct {
		name   string
		seat   int
		m      Move
		reason string
	}{
		{"out of turn", 1, place(W1111, 0, 0, 1), "not this seat's turn"},
		{"seat outside the game", 2, place(W1111, 0, 0, 1), "not this seat's turn"},
		{"negative seat", -1, place(W1111, 0, 0, 1), "not this seat's turn"},
		{"tile not in hand", 0, place(W3001, 0, 0, 1), "tile 3001 is not in your hand"},
		{"unknown tile", 0, place(Worker(9), 0, 0, 1), known},
		{"rotation 4", 0, place(W1111, 4, 0, 1), known},
		{"rotation -1", 0, place(W2101, -1, 0, 1), known},
		{"occupied by a worker tile", 0, place(W1111, 0, 1, 0), "cell [1,0] is already occupied"},
		{"jungle cell with a tile", 0, place(W1111, 0, 0, 0), "worker tiles go on cells where x+y is odd; [0,0] is a jungle cell"},
		{"empty jungle cell", 0, place(W1111, 0, 2, 2), "worker tiles go on cells where x+y is odd; [2,2] is a jungle cell"},
		{"empty jungle cell next to a worker tile", 0, place(W1111, 0, 1, -1), "worker tiles go on cells where x+y is odd; [1,-1] is a jungle cell"},
		{"not touching jungle", 0, place(W1111, 0, 3, 0), "must touch a jungle tile"},
		{"far away", 0, place(W1111, 0, 1000001, 0), "must touch a jungle tile"},
		{"far away, negative", 0, place(W1111, 0, -7, -1000000), "must touch a jungle tile"},
		// Acts.
		{"act on an edge facing an empty cell", 0, Move{Placement: place(W1111, 0, 0, 1).Placement, Acts: []Act{{xy(0, 1), S, 1}}},
			"the edge [0,1] S is not one of this player's activated edges"},
		{"act on an edge with no workers", 0, Move{Placement: place(W3100, 2, 0, 1).Placement, Acts: []Act{{xy(0, 1), N, 0}}},
			"the edge [0,1] N is not one of this player's activated edges"},
		{"act on another tile", 0, Move{Placement: place(W1111, 0, 0, 1).Placement, Acts: []Act{{xy(1, 0), W, 1}}},
			"the edge [1,0] W is not one of this player's activated edges"},
		{"act on an opponent's edge that fired", 0, Move{Placement: place(W1111, 0, 0, -1).Placement, Acts: []Act{{xy(1, 0), N, 2}}},
			"the edge [1,0] N is not one of this player's activated edges"},
		{"edge listed twice", 0, Move{Placement: place(W1111, 0, 0, 1).Placement, Acts: []Act{{xy(0, 1), N, 1}, {xy(0, 1), E, 1}, {xy(0, 1), N, 0}}},
			"the edge [0,1] N is listed twice"},
		{"more workers than the edge has", 0, Move{Placement: place(W1111, 0, 0, 1).Placement, Acts: []Act{{xy(0, 1), N, 2}}},
			"the edge [0,1] N has 1 worker(s); cannot use 2"},
		{"negative use", 0, Move{Placement: place(W1111, 0, 0, 1).Placement, Acts: []Act{{xy(0, 1), E, -5}}},
			"the edge [0,1] E has 1 worker(s); cannot use -5"},
		{"bad act after a good one", 0, Move{Placement: place(W1111, 0, 0, 1).Placement, Acts: []Act{{xy(0, 1), N, 1}, {xy(0, 1), E, 7}}},
			"the edge [0,1] E has 1 worker(s); cannot use 7"},
		// Fills.
		{"fill with a tile not in the display", 0, Move{Placement: place(W1111, 0, 0, -1).Placement, Fills: []Fill{{At: xy(1, -1), Tile: G2}}},
			"G2 is not in the display"},
		{"fill with the next pile tile", 0, Move{Placement: place(W1111, 0, 0, -1).Placement, Fills: []Fill{{At: xy(1, -1), Tile: TempleTile}}},
			"T is not in the display"},
		{"too many fills", 0, Move{Placement: place(W1111, 0, 0, -1).Placement, Fills: []Fill{{At: xy(1, -1), Tile: G1}, {At: xy(-1, -1), Tile: P2}}},
			"this placement fills 1 cell(s); the turn names 2"},
		{"no fills given", 0, Move{Placement: place(W1111, 0, 0, -1).Placement, Fills: []Fill{}},
			"this placement fills 1 cell(s); the turn names 0"},
		{"fill where none is needed", 0, Move{Placement: place(W1111, 0, 0, 1).Placement, Fills: []Fill{{At: xy(0, 2), Tile: G1}}},
			"no cell needs a jungle tile after this placement"},
		{"fill a cell that needs none", 0, Move{Placement: place(W1111, 0, 0, -1).Placement, Fills: []Fill{{At: xy(-1, -1), Tile: G1}}},
			"cell [-1,-1] does not need a jungle tile"},
		{"fill an occupied cell", 0, Move{Placement: place(W1111, 0, 0, -1).Placement, Fills: []Fill{{At: xy(0, 0), Tile: G1}}},
			"cell [0,0] does not need a jungle tile"},
		{"pile fill before the display tiles", 0, Move{Placement: place(W1111, 0, 0, -1).Placement, Fills: []Fill{{At: xy(1, -1), FromPile: true}}},
			"the pile tile may fill a cell only after both display tiles are placed"},
		// Reactions.
		{"reaction for the active seat", 0, Move{Placement: place(W1111, 0, 0, -1).Placement, Reactions: map[int][]Act{0: nil}},
			"reactions may only name other seats of this game"},
		{"reaction for a seat outside the game", 0, Move{Placement: place(W1111, 0, 0, -1).Placement, Reactions: map[int][]Act{2: {}}},
			"reactions may only name other seats of this game"},
		{"reaction for a negative seat", 0, Move{Placement: place(W1111, 0, 0, -1).Placement, Reactions: map[int][]Act{-1: {}}},
			"reactions may only name other seats of this game"},
		{"reaction naming an edge that did not fire", 0, Move{Placement: place(W1111, 0, 0, -1).Placement, Reactions: map[int][]Act{1: {{xy(1, 0), E, 1}}}},
			"the edge [1,0] E is not one of this player's activated edges"},
		{"reaction for a seat whose tiles did not fire", 0, Move{Placement: place(W1111, 0, 0, 1).Placement, Reactions: map[int][]Act{1: {{xy(1, 0), N, 1}}}},
			"the edge [1,0] N is not one of this player's activated edges"},
		{"reaction for an edge that did not fire, nothing fired for the active seat", 0, Move{Placement: place(W3100, 2, 0, 1).Placement, Reactions: map[int][]Act{1: {{xy(1, 0), W, 1}}}},
			"the edge [1,0] W is not one of this player's activated edges"},
		{"reaction using too many workers", 0, Move{Placement: place(W1111, 0, 0, -1).Placement, Reactions: map[int][]Act{1: {{xy(1, 0), N, 3}}}},
			"the edge [1,0] N has 2 worker(s); cannot use 3"},
		// Overbuilding while tiles are left.
		{"overbuild with tiles left", 0, Move{Placement: Placement{Tile: W1111, At: xy(1, 0), Overbuild: true}},
			"overbuilding needs an empty display and pile"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if bug := knownBugs[t.Name()]; bug != "" {
				t.Skip("engine bug: " + bug)
			}
			mustRefuse(t, badPos(t), tc.seat, tc.m, tc.reason)
		})
	}
}

func TestBadThreeCellFills(t *testing.T) {
	pl := Placement{Tile: W1111, At: xy(2, 1)}
	for _, tc := range []struct {
		name   string
		fills  []Fill
		reason string
	}{
		{"pile before both display tiles", []Fill{{At: xy(2, 0), Tile: G2}, {At: xy(3, 1), FromPile: true}, {At: xy(2, 2), FromPile: true}},
			"the pile tile may fill a cell only after both display tiles are placed"},
		{"same display tile twice", []Fill{{At: xy(2, 0), Tile: G2}, {At: xy(3, 1), Tile: G2}, {At: xy(2, 2), FromPile: true}},
			"G2 is not in the display"},
		{"cell filled twice", []Fill{{At: xy(2, 0), Tile: G2}, {At: xy(2, 0), Tile: P2}, {At: xy(2, 2), FromPile: true}},
			"cell [2,0] is filled twice"},
		{"two cells only", []Fill{{At: xy(2, 0), Tile: G2}, {At: xy(2, 2), Tile: P2}},
			"this placement fills 3 cell(s); the turn names 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := threeCellPos(t, W1111).display(G2, P2).pile(Sun, M3)
			mustRefuse(t, p.s, 0, Move{Placement: pl, Fills: tc.fills}, tc.reason)
		})
	}
	// Two display tiles of one kind may both be used.
	p := threeCellPos(t, W1111).display(G2, G2).pile(Sun, M3)
	p.play(0, Move{Placement: pl, Fills: []Fill{{At: xy(2, 0), Tile: G2}, {At: xy(3, 1), Tile: G2}, {At: xy(2, 2), FromPile: true}}})
	if jungleOn(p.s, xy(2, 0)) != G2 || jungleOn(p.s, xy(3, 1)) != G2 || jungleOn(p.s, xy(2, 2)) != Sun {
		t.Errorf("fills not applied")
	}
	// The pile runs short: with 3 cells, 2 display tiles and an empty pile,
	// only two cells can be filled.
	q := threeCellPos(t, W1111).display(G2, P2).pile()
	mustRefuse(t, q.s, 0, Move{Placement: pl, Fills: []Fill{{At: xy(2, 0), Tile: G2}, {At: xy(3, 1), Tile: P2}, {At: xy(2, 2), FromPile: true}}},
		"this placement fills 2 cell(s); the turn names 3")
}

func TestBadOverbuilds(t *testing.T) {
	ob := func(w Worker, x, y int) Move { return overbuild(w, 0, x, y) }
	t.Run("display not empty", func(t *testing.T) {
		mustRefuse(t, ownTilePos(t, 1).display(Sun).s, 0, ob(W1111, 1, 0), "overbuilding needs an empty display and pile")
	})
	t.Run("pile not empty", func(t *testing.T) {
		mustRefuse(t, ownTilePos(t, 1).pile(Sun).s, 0, ob(W1111, 1, 0), "overbuilding needs an empty display and pile")
	})
	t.Run("no sun", func(t *testing.T) {
		mustRefuse(t, ownTilePos(t, 0).s, 0, ob(W1111, 1, 0), "overbuilding needs a sun token")
	})
	t.Run("opponent's tile", func(t *testing.T) {
		mustRefuse(t, ownTilePos(t, 1).worker(xy(0, 1), 1, W1111, 0).s, 0, ob(W1111, 0, 1), "you can only overbuild your own tile")
	})
	t.Run("no tile", func(t *testing.T) {
		mustRefuse(t, ownTilePos(t, 1).s, 0, ob(W1111, 2, 1), "there is no worker tile at [2,1] to overbuild")
		mustRefuse(t, ownTilePos(t, 1).s, 0, ob(W1111, 1, 1), "there is no worker tile at [1,1] to overbuild")
	})
	t.Run("tile not in hand", func(t *testing.T) {
		mustRefuse(t, ownTilePos(t, 1).s, 0, ob(W3001, 1, 0), "tile 3001 is not in your hand")
	})
	t.Run("with fills", func(t *testing.T) {
		m := ob(W1111, 1, 0)
		m.Fills = []Fill{{At: xy(1, -1), Tile: G1}}
		mustRefuse(t, ownTilePos(t, 1).s, 0, m, "an overbuild fills no cells")
	})
	t.Run("act on the covered tile's edge", func(t *testing.T) {
		// The covered 2101 had N2 towards [1,-1]; the new 3100 turned twice
		// (N0 E0 S3 W1) has no worker there.
		p := ownTilePos(t, 1).jungle(xy(1, -1), G1)
		m := overbuild(W3100, 2, 1, 0)
		m.Acts = []Act{{xy(1, 0), N, 2}}
		mustRefuse(t, p.s, 0, m, "the edge [1,0] N is not one of this player's activated edges")
	})
	t.Run("already overbuilt", func(t *testing.T) {
		p := ownTilePos(t, 2)
		p.play(0, ob(W1111, 1, 0))
		p.play(1, place(W1111, 0, 0, 1))
		mustRefuse(t, p.s, 0, ob(W3100, 1, 0), "that tile is already overbuilt")
	})
}

func TestBadTurnAfterGameOver(t *testing.T) {
	s := replaySample(t, "testdata/sample-2p.json")
	if !s.Over() {
		t.Fatal("sample game not over")
	}
	for seat := 0; seat < 2; seat++ {
		mustRefuse(t, s, seat, place(W1111, 0, 0, -1), "the game is over")
	}
	if pls := s.LegalPlacements(nil); len(pls) != 0 {
		t.Errorf("legal placements after the game: %v", pls)
	}
}

func replaySample(t *testing.T, file string) *State {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := DecodeRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// knownBugs lists subtests skipped because of an engine bug, by full name
// (empty: the bug that filled it, a panic on a refused reaction, is fixed).
var knownBugs = map[string]string{}

// --- Records ---

// sampleDoc reads a sample record as generic JSON to be mutated.
func sampleDoc(t *testing.T, file string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func docSetup(doc map[string]any) (jungle []any, workers []any) {
	su := doc["setup"].(map[string]any)
	return su["jungle"].([]any), su["workers"].([]any)
}

func docTurn(doc map[string]any, k int) map[string]any {
	return doc["turns"].([]any)[k].(map[string]any)
}

// replayDoc decodes and replays a record as `cacao replay` does: a turn
// that cannot be read is reported only if every earlier turn plays.
func replayDoc(data []byte) (s *State, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	rec, decErr := DecodeRecord(data)
	var re *RecordError
	if errors.As(decErr, &re) {
		if rec != nil {
			return nil, fmt.Errorf("a *RecordError came with a record")
		}
		return nil, decErr
	}
	if rec == nil {
		return nil, fmt.Errorf("no record and no *RecordError: %v", decErr)
	}
	s, err = Replay(rec)
	if err != nil {
		return s, err
	}
	return s, decErr
}

func TestBadRecords(t *testing.T) {
	for _, tc := range []struct {
		name   string
		file   string
		mutate func(doc map[string]any)
		raw    string // used instead of the mutated sample when set
	}{
		{name: "not JSON", raw: `{"format": "cacao-record/1", "players": [`},
		{name: "empty", raw: ``},
		{name: "JSON array", raw: `[{"format": "cacao-record/1"}]`},
		{name: "JSON null", raw: `null`},
		{name: "JSON string", raw: `"cacao-record/1"`},
		{name: "unknown format", mutate: func(d map[string]any) { d["format"] = "cacao-record/2" }},
		{name: "format missing", mutate: func(d map[string]any) { delete(d, "format") }},
		{name: "format not a string", mutate: func(d map[string]any) { d["format"] = 1 }},
		{name: "1 player", mutate: func(d map[string]any) { d["players"] = []any{"solo"} }},
		{name: "0 players", mutate: func(d map[string]any) { d["players"] = []any{} }},
		{name: "5 players", mutate: func(d map[string]any) { d["players"] = []any{"a", "b", "c", "d", "e"} }},
		{name: "players not a list", mutate: func(d map[string]any) { d["players"] = "ana,bo" }},
		{name: "players missing", mutate: func(d map[string]any) { delete(d, "players") }},
		{name: "3 players with 2 worker piles", mutate: func(d map[string]any) { d["players"] = []any{"a", "b", "c"} }},
		{name: "first outside the game", mutate: func(d map[string]any) { d["first"] = 2 }},
		{name: "first negative", mutate: func(d map[string]any) { d["first"] = -1 }},
		{name: "seed and setup", mutate: func(d map[string]any) { d["seed"] = 7 }},
		{name: "neither seed nor setup", mutate: func(d map[string]any) { delete(d, "setup") }},
		{name: "setup null", mutate: func(d map[string]any) { d["setup"] = nil }},
		{name: "seed negative", mutate: func(d map[string]any) { delete(d, "setup"); d["seed"] = -1 }},
		{name: "seed not a number", mutate: func(d map[string]any) { delete(d, "setup"); d["seed"] = "42" }},
		{name: "setup not an object", mutate: func(d map[string]any) { d["setup"] = "shuffled" }},
		{name: "jungle pile one short", mutate: func(d map[string]any) {
			j, _ := docSetup(d)
			d["setup"].(map[string]any)["jungle"] = j[:len(j)-1]
		}},
		{name: "jungle pile one extra", mutate: func(d map[string]any) {
			j, _ := docSetup(d)
			d["setup"].(map[string]any)["jungle"] = append(j, "T")
		}},
		{name: "jungle pile with a start tile", mutate: func(d map[string]any) {
			j, _ := docSetup(d)
			d["setup"].(map[string]any)["jungle"] = append(j, "M2")
		}},
		{name: "jungle pile with a wrong mix", mutate: func(d map[string]any) {
			j, _ := docSetup(d)
			for i, v := range j {
				if v == "P2" {
					j[i] = "S" // a second sun site: 3-4 players only
					break
				}
			}
		}},
		{name: "jungle pile of a 3-player game", file: "testdata/sample-2p.json", mutate: func(d map[string]any) {
			var js []any
			for _, j := range JungleSet(3) {
				js = append(js, j.String())
			}
			d["setup"].(map[string]any)["jungle"] = js
		}},
		{name: "unknown jungle tile", mutate: func(d map[string]any) {
			j, _ := docSetup(d)
			j[3] = "X9"
		}},
		{name: "lowercase jungle tile", mutate: func(d map[string]any) {
			j, _ := docSetup(d)
			j[0] = strings.ToLower(j[0].(string))
		}},
		{name: "jungle tile not a string", mutate: func(d map[string]any) {
			j, _ := docSetup(d)
			j[0] = 3
		}},
		{name: "worker pile with a wrong mix", mutate: func(d map[string]any) {
			_, w := docSetup(d)
			pile := w[0].([]any)
			for i, v := range pile {
				if v == "3001" {
					pile[i] = "3100"
				}
			}
		}},
		{name: "worker pile one short", mutate: func(d map[string]any) {
			_, w := docSetup(d)
			w[1] = w[1].([]any)[1:]
		}},
		{name: "worker pile one extra", mutate: func(d map[string]any) {
			_, w := docSetup(d)
			w[1] = append(w[1].([]any), "1111")
		}},
		{name: "unknown worker tile", mutate: func(d map[string]any) {
			_, w := docSetup(d)
			w[0].([]any)[4] = "4000"
		}},
		{name: "one worker pile for two players", mutate: func(d map[string]any) {
			_, w := docSetup(d)
			d["setup"].(map[string]any)["workers"] = w[:1]
		}},
		{name: "three worker piles for two players", mutate: func(d map[string]any) {
			_, w := docSetup(d)
			d["setup"].(map[string]any)["workers"] = append(w, w[0])
		}},
		{name: "3-player record with a 2-player jungle pile", file: "testdata/sample-3p.json", mutate: func(d map[string]any) {
			var js []any
			for _, j := range JungleSet(2) {
				js = append(js, j.String())
			}
			d["setup"].(map[string]any)["jungle"] = js
		}},
		{name: "turns missing", mutate: func(d map[string]any) { delete(d, "turns") }},
		{name: "turns null", mutate: func(d map[string]any) { d["turns"] = nil }},
		{name: "turns an object", mutate: func(d map[string]any) { d["turns"] = map[string]any{"0": d["turns"].([]any)[0]} }},
		{name: "turns a number", mutate: func(d map[string]any) { d["turns"] = 22 }},
		{name: "turns a string", mutate: func(d map[string]any) { d["turns"] = "[]" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.raw)
			if tc.mutate != nil {
				file := tc.file
				if file == "" {
					file = "testdata/sample-2p.json"
				}
				doc := sampleDoc(t, file)
				tc.mutate(doc)
				var err error
				if data, err = json.Marshal(doc); err != nil {
					t.Fatal(err)
				}
			}
			s, err := replayDoc(data)
			var re *RecordError
			if !errors.As(err, &re) {
				t.Fatalf("got %T %v; want a *RecordError", err, err)
			}
			if s != nil || re.Reason == "" || re.Error() != re.Reason {
				t.Errorf("state %v, reason %q", s, re.Reason)
			}
			var te *TurnError
			if errors.As(err, &te) {
				t.Errorf("a *RecordError that is also a *TurnError: %v", err)
			}
		})
	}
}

// TestRecordsStillValid: the samples themselves, and harmless changes to
// them, replay (so the refusals above are about the change).
func TestRecordsStillValid(t *testing.T) {
	for _, tc := range []struct {
		name   string
		file   string
		mutate func(doc map[string]any)
		turns  int
	}{
		{"2 players as is", "testdata/sample-2p.json", nil, 22},
		{"3 players as is", "testdata/sample-3p.json", nil, 30},
		{"unknown fields ignored", "testdata/sample-2p.json", func(d map[string]any) {
			d["comment"] = "hi"
			docTurn(d, 0)["clock"] = 12
			d["setup"].(map[string]any)["note"] = []any{1, 2}
		}, 22},
		{"seed null with setup", "testdata/sample-2p.json", func(d map[string]any) { d["seed"] = nil }, 22},
		{"turns empty", "testdata/sample-2p.json", func(d map[string]any) { d["turns"] = []any{} }, 0},
		{"rot omitted means 0", "testdata/sample-2p.json", func(d map[string]any) {
			d["turns"] = d["turns"].([]any)[:2]
			delete(docTurn(d, 1), "rot")
		}, 2},
		{"explicit all-worker use", "testdata/sample-2p.json", func(d map[string]any) {
			d["turns"] = d["turns"].([]any)[:1]
			docTurn(d, 0)["acts"] = []any{map[string]any{"tile": []any{1, 0}, "side": "S"}}
		}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := sampleDoc(t, tc.file)
			if tc.mutate != nil {
				tc.mutate(doc)
			}
			data, _ := json.Marshal(doc)
			s, err := replayDoc(data)
			if err != nil {
				t.Fatal(err)
			}
			if s.Turns() != tc.turns {
				t.Errorf("%d turns played; want %d", s.Turns(), tc.turns)
			}
		})
	}
}

func TestBadRecordTurns(t *testing.T) {
	const known = "a turn needs a known tile, a rotation 0-3 and a cell"
	// The 2-player sample: seat 1 starts with 1111 1111 1111; turn 0 lays
	// 1111 at [1,0] (edges at P1 and M2), turn 1 is seat 0's.
	for _, tc := range []struct {
		name   string
		mutate func(doc map[string]any)
		turn   int
		reason string // empty: any sentence
	}{
		{"rot 4", func(d map[string]any) { docTurn(d, 3)["rot"] = 4 }, 3, known},
		{"rot -1", func(d map[string]any) { docTurn(d, 3)["rot"] = -1 }, 3, known},
		{"rot a string", func(d map[string]any) { docTurn(d, 3)["rot"] = "1" }, 3, known},
		{"rot fractional", func(d map[string]any) { docTurn(d, 3)["rot"] = 1.5 }, 3, known},
		{"unknown tile", func(d map[string]any) { docTurn(d, 5)["tile"] = "2222" }, 5, known},
		{"jungle tile as worker tile", func(d map[string]any) { docTurn(d, 5)["tile"] = "P1" }, 5, known},
		{"tile missing", func(d map[string]any) { delete(docTurn(d, 5), "tile") }, 5, known},
		{"tile a number", func(d map[string]any) { docTurn(d, 5)["tile"] = 1111 }, 5, known},
		{"at missing", func(d map[string]any) { delete(docTurn(d, 2), "at") }, 2, known},
		{"at with one number", func(d map[string]any) { docTurn(d, 2)["at"] = []any{1} }, 2, known},
		{"at with three numbers", func(d map[string]any) { docTurn(d, 2)["at"] = []any{3, 0, 0} }, 2, known},
		{"at a string", func(d map[string]any) { docTurn(d, 2)["at"] = "3,0" }, 2, known},
		{"turn not an object", func(d map[string]any) { d["turns"].([]any)[6] = "1111 at 3,0" }, 6, known},
		{"turn null", func(d map[string]any) { d["turns"].([]any)[6] = nil }, 6, ""},
		{"p missing", func(d map[string]any) { delete(docTurn(d, 4), "p") }, 4, "a turn needs the seat that plays it (p)"},
		{"wrong seat", func(d map[string]any) { docTurn(d, 4)["p"] = 0 }, 4, "not this seat's turn"},
		{"seat outside the game", func(d map[string]any) { docTurn(d, 4)["p"] = 7 }, 4, "not this seat's turn"},
		{"first turn by the wrong seat", func(d map[string]any) { d["first"] = 0 }, 0, "not this seat's turn"},
		{"tile not in hand", func(d map[string]any) { docTurn(d, 0)["tile"] = "3001" }, 0, "tile 3001 is not in your hand"},
		{"occupied cell", func(d map[string]any) { docTurn(d, 1)["at"] = []any{1, 0} }, 1, "cell [1,0] is already occupied"},
		{"jungle cell", func(d map[string]any) { docTurn(d, 1)["at"] = []any{2, 0} }, 1, "worker tiles go on cells where x+y is odd; [2,0] is a jungle cell"},
		{"not touching jungle", func(d map[string]any) { docTurn(d, 1)["at"] = []any{5, 0} }, 1, "must touch a jungle tile"},
		{"overbuild with tiles left", func(d map[string]any) {
			docTurn(d, 1)["overbuild"] = true
			docTurn(d, 1)["at"] = []any{1, 0}
		}, 1, "overbuilding needs an empty display and pile"},
		{"act on an edge that did not fire", func(d map[string]any) {
			docTurn(d, 0)["acts"] = []any{map[string]any{"tile": []any{1, 0}, "side": "N"}}
		}, 0, "the edge [1,0] N is not one of this player's activated edges"},
		{"act listed twice", func(d map[string]any) {
			a := map[string]any{"tile": []any{1, 0}, "side": "W", "use": 0}
			docTurn(d, 0)["acts"] = []any{a, a}
		}, 0, "the edge [1,0] W is listed twice"},
		{"act using too many", func(d map[string]any) {
			docTurn(d, 0)["acts"] = []any{map[string]any{"tile": []any{1, 0}, "side": "W", "use": 2}}
		}, 0, "the edge [1,0] W has 1 worker(s); cannot use 2"},
		{"act using a negative number", func(d map[string]any) {
			docTurn(d, 0)["acts"] = []any{map[string]any{"tile": []any{1, 0}, "side": "W", "use": -1}}
		}, 0, ""},
		{"act with an unknown side", func(d map[string]any) {
			docTurn(d, 0)["acts"] = []any{map[string]any{"tile": []any{1, 0}, "side": "Q"}}
		}, 0, ""},
		{"act without a tile", func(d map[string]any) {
			docTurn(d, 0)["acts"] = []any{map[string]any{"side": "W"}}
		}, 0, ""},
		{"fill with an unknown tile", func(d map[string]any) {
			docTurn(d, 1)["fills"] = []any{map[string]any{"at": []any{2, 0}, "tile": "XX"}}
		}, 1, ""},
		{"fill without a cell", func(d map[string]any) {
			docTurn(d, 1)["fills"] = []any{map[string]any{"tile": "P2"}}
		}, 1, ""},
		{"fill where none is needed", func(d map[string]any) {
			docTurn(d, 0)["fills"] = []any{map[string]any{"at": []any{2, 0}, "tile": "P2"}}
		}, 0, "no cell needs a jungle tile after this placement"},
		{"fill with a tile not in the display", func(d map[string]any) {
			docTurn(d, 1)["fills"] = []any{map[string]any{"at": []any{2, 0}, "tile": "G2"}}
		}, 1, "G2 is not in the display"},
		{"fill from the pile with display tiles left", func(d map[string]any) {
			docTurn(d, 1)["fills"] = []any{map[string]any{"at": []any{2, 0}, "tile": "pile"}}
		}, 1, "the pile tile may fill a cell only after both display tiles are placed"},
		{"fills given as empty where one is needed", func(d map[string]any) {
			docTurn(d, 1)["fills"] = []any{}
		}, 1, "this placement fills 1 cell(s); the turn names 0"},
		{"reaction for the active seat", func(d map[string]any) {
			docTurn(d, 1)["reactions"] = map[string]any{"0": []any{}}
		}, 1, "reactions may only name other seats of this game"},
		{"reaction for a seat outside the game", func(d map[string]any) {
			docTurn(d, 1)["reactions"] = map[string]any{"2": []any{}}
		}, 1, ""},
		{"reaction keyed by a name", func(d map[string]any) {
			docTurn(d, 1)["reactions"] = map[string]any{"p1": []any{}}
		}, 1, ""},
		{"reaction keyed with a leading zero", func(d map[string]any) {
			docTurn(d, 1)["reactions"] = map[string]any{"01": []any{}}
		}, 1, ""},
		{"reaction for an edge that did not fire", func(d map[string]any) {
			docTurn(d, 1)["reactions"] = map[string]any{"1": []any{map[string]any{"tile": []any{1, 0}, "side": "W"}}}
		}, 1, "the edge [1,0] W is not one of this player's activated edges"},
		{"turn after the game is over", func(d map[string]any) {
			d["turns"] = append(d["turns"].([]any), map[string]any{"p": 1, "tile": "1111", "at": []any{0, -1}})
		}, 22, "the game is over"},
		{"earlier illegal turn reported before a later unreadable one", func(d map[string]any) {
			docTurn(d, 2)["p"] = 0
			docTurn(d, 5)["rot"] = 4
		}, 2, "not this seat's turn"},
		{"earlier unreadable turn reported before a later illegal one", func(d map[string]any) {
			docTurn(d, 2)["rot"] = 9
			docTurn(d, 5)["p"] = 1
		}, 2, known},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if bug := knownBugs[t.Name()]; bug != "" {
				t.Skip("engine bug: " + bug)
			}
			doc := sampleDoc(t, "testdata/sample-2p.json")
			tc.mutate(doc)
			data, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			s, err := replayDoc(data)
			var te *TurnError
			if !errors.As(err, &te) {
				t.Fatalf("got %T %v; want a *TurnError", err, err)
			}
			var re *RecordError
			if errors.As(err, &re) {
				t.Errorf("a *TurnError that is also a *RecordError")
			}
			if te.Turn != tc.turn {
				t.Errorf("turn %d (%v); want %d", te.Turn, err, tc.turn)
			}
			if te.Reason == "" || (tc.reason != "" && te.Reason != tc.reason) {
				t.Errorf("reason %q; want %q", te.Reason, tc.reason)
			}
			if s == nil || s.Turns() != tc.turn {
				t.Errorf("state after the turns before it: %v turns; want %d", s, tc.turn)
			}
		})
	}
}
