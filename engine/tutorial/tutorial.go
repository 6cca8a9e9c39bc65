// Package tutorial is the first game /learn coaches: a fixed deal, every
// turn of it (the learner in seat 0, the greedy bot in seat 1), and the
// lessons pinned to the learner's turns, each teaching one thing of the
// rules with the move that shows it.
//
// The script is data: script.json is a game record (engine/doc.go's
// Records: `cacao replay engine/tutorial/script.json` plays it) with one
// field more, "lessons", which the record format ignores. A position of
// the tutorial is the record replayed to a turn; the record resolves
// every choice of the other player's turn at once, as the tutorial does.
// tutorial_test.go checks that each lesson's move teaches what its topic
// says, and writes the script again with -update (from a seed, the
// greedy bot playing both seats but for the lessons' moves).
package tutorial

import (
	_ "embed"
	"encoding/json"
	"fmt"

	"cacao/engine"
)

// Topic is what a lesson teaches; the set is closed (Topics lists it).
type Topic string

// The lessons' topics, in the order the tutorial teaches them.
const (
	Place     Topic = "place"     // choose a tile, turn it, lay it beside the jungle
	Fill      Topic = "fill"      // an empty jungle cell between two worker tiles is filled; workers wake on both sides
	Market    Topic = "market"    // workers at a market sell fruit for gold
	Water     Topic = "water"     // workers at water move the carrier up the water track
	Sun       Topic = "sun"       // workers at a sun-worshipping site take sun tokens
	Temple    Topic = "temple"    // workers beside a temple count for its majority at the end
	Overbuild Topic = "overbuild" // at the end, a sun token lays a tile over one of your own
)

// Topics lists every topic in teaching order.
var Topics = []Topic{Place, Fill, Market, Water, Sun, Temple, Overbuild}

// Learner and Bot are the seats of the tutorial's game.
const (
	Learner = 0
	Bot     = 1
)

// Lesson is one coached move: its topic and the index, in the record's
// turns, of the learner's move that teaches it.
type Lesson struct {
	Topic Topic `json:"topic"`
	Turn  int   `json:"turn"`
}

// Script is the tutorial's game and its lessons, by turn.
type Script struct {
	Record  *engine.Record
	Lessons []Lesson
}

//go:embed script.json
var scriptJSON []byte

// Load reads the tutorial's script (embedded in the binary) and checks
// that it replays: a lesson's turn is a turn of the learner's.
func Load() (*Script, error) { return Parse(scriptJSON) }

// Parse reads a script: a game record with its lessons.
func Parse(data []byte) (*Script, error) {
	r, err := engine.DecodeRecord(data)
	if err != nil {
		return nil, fmt.Errorf("tutorial: %w", err)
	}
	var extra struct {
		Lessons []Lesson `json:"lessons"`
	}
	if err := json.Unmarshal(data, &extra); err != nil {
		return nil, fmt.Errorf("tutorial: %w", err)
	}
	sc := &Script{Record: r, Lessons: extra.Lessons}
	if _, err := engine.Replay(r); err != nil {
		return nil, fmt.Errorf("tutorial: the script does not replay: %w", err)
	}
	last := -1
	for _, ls := range sc.Lessons {
		if ls.Turn <= last || ls.Turn >= len(r.Turns) || r.Turns[ls.Turn].Seat != Learner {
			return nil, fmt.Errorf("tutorial: lesson %q is not at a later turn of the learner's", ls.Topic)
		}
		if !known(ls.Topic) {
			return nil, fmt.Errorf("tutorial: unknown topic %q", ls.Topic)
		}
		last = ls.Turn
	}
	return sc, nil
}

func known(t Topic) bool {
	for _, k := range Topics {
		if k == t {
			return true
		}
	}
	return false
}

// At is the game after its first n turns (0 <= n <= len(Turns)).
func (sc *Script) At(n int) (*engine.State, error) {
	if n < 0 || n > len(sc.Record.Turns) {
		return nil, fmt.Errorf("tutorial: no turn %d", n)
	}
	r := *sc.Record
	r.Turns = r.Turns[:n]
	return engine.Replay(&r)
}

// Move is the move lesson i expects of the learner.
func (sc *Script) Move(i int) engine.Move { return sc.Record.Turns[sc.Lessons[i].Turn].Move }

// Encode writes the script as script.json holds it.
func (sc *Script) Encode() ([]byte, error) {
	data, err := sc.Record.Encode()
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	ls, err := json.Marshal(sc.Lessons)
	if err != nil {
		return nil, err
	}
	m["lessons"] = ls
	return json.MarshalIndent(m, "", " ")
}
