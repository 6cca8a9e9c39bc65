package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
)

// Format is the game record format this engine reads and writes (the
// package doc's Records).
const Format = "cacao-record/1"

// EngineVersion names this engine in seeded records: a seed replays only on
// the engine that shuffled it.
const EngineVersion = "cacao-go/1"

// Record is a game record: the players, who starts, the setup (or a seed) and
// every turn with its choices.
type Record struct {
	Players []string
	First   int
	// Seed, when set, replaces Setup: the engine shuffles from it.
	Seed *uint64
	// Engine names the engine a seeded record was made with (optional).
	Engine string
	Setup  Setup
	Turns  []RecordTurn
}

// RecordTurn is one turn of a record: the seat that plays and its move.
// Move.Reactions holds the other seats' resolutions of this turn's batches.
type RecordTurn struct {
	Seat int
	Move Move
}

// RecordError is a document that is not a valid record (exit 2 of `cacao replay`).
type RecordError struct{ Reason string }

func (e *RecordError) Error() string { return e.Reason }

// TurnError is a turn of a record that cannot be read or played (exit 1):
// Turn is its 0-based index.
type TurnError struct {
	Turn   int
	Reason string
}

func (e *TurnError) Error() string { return fmt.Sprintf("turn %d: %s", e.Turn, e.Reason) }

const badTurn = "a turn needs a known tile, a rotation 0-3 and a cell"

type recordJSON struct {
	Format  string     `json:"format"`
	Players []string   `json:"players"`
	First   int        `json:"first"`
	Engine  string     `json:"engine,omitempty"`
	Seed    *uint64    `json:"seed,omitempty"`
	Setup   *setupJSON `json:"setup,omitempty"`
	Turns   []turnJSON `json:"turns"`
}

type setupJSON struct {
	Jungle  []string   `json:"jungle"`
	Workers [][]string `json:"workers"`
}

type turnJSON struct {
	P         *int                 `json:"p"`
	Overbuild bool                 `json:"overbuild,omitempty"`
	Tile      *string              `json:"tile"`
	Rot       *int                 `json:"rot,omitempty"`
	At        []int                `json:"at"`
	Fills     []fillJSON           `json:"fills,omitempty"`
	Acts      []actJSON            `json:"acts,omitempty"`
	Reactions map[string][]actJSON `json:"reactions,omitempty"`
}

type fillJSON struct {
	At   []int  `json:"at"`
	Tile string `json:"tile"`
}

type actJSON struct {
	Tile []int  `json:"tile"`
	Side string `json:"side"`
	Use  *int   `json:"use,omitempty"`
}

// DecodeRecord reads a record. A document that is not a record gives a
// *RecordError. A turn that cannot be read gives a *TurnError together with
// the record holding the turns before it, so that an earlier illegal turn can
// still be reported first.
func DecodeRecord(data []byte) (*Record, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		return nil, &RecordError{"not a JSON object"}
	}
	var format string
	if err := json.Unmarshal(top["format"], &format); err != nil || format != Format {
		return nil, &RecordError{"unknown format (want " + Format + ")"}
	}
	r := &Record{}
	if err := json.Unmarshal(top["players"], &r.Players); err != nil || len(r.Players) < 2 || len(r.Players) > 4 {
		return nil, &RecordError{"2-4 players"}
	}
	n := len(r.Players)
	if raw, ok := top["first"]; ok && !isNull(raw) {
		if err := json.Unmarshal(raw, &r.First); err != nil || r.First < 0 || r.First >= n {
			return nil, &RecordError{"first must be a seat of the game"}
		}
	}
	if raw, ok := top["engine"]; ok && !isNull(raw) {
		if err := json.Unmarshal(raw, &r.Engine); err != nil {
			return nil, &RecordError{"engine must be a string"}
		}
	}
	rawSeed, hasSeed := top["seed"]
	rawSetup, hasSetup := top["setup"]
	hasSeed = hasSeed && !isNull(rawSeed)
	hasSetup = hasSetup && !isNull(rawSetup)
	switch {
	case hasSeed == hasSetup:
		return nil, &RecordError{"a record needs exactly one of setup and seed"}
	case hasSeed:
		var seed uint64
		if err := json.Unmarshal(rawSeed, &seed); err != nil {
			return nil, &RecordError{"seed must be an unsigned 64-bit integer"}
		}
		if r.Engine != "" && r.Engine != EngineVersion {
			return nil, &RecordError{"this seeded record was made by engine " + strconv.Quote(r.Engine) + "; only " + EngineVersion + " seeds replay here"}
		}
		r.Seed = &seed
		r.Setup, _ = NewSetup(n, seed)
	default:
		var sj setupJSON
		if err := json.Unmarshal(rawSetup, &sj); err != nil {
			return nil, &RecordError{"setup must hold a jungle list and one worker list per player"}
		}
		su, err := sj.decode()
		if err != nil {
			return nil, err
		}
		if len(su.Workers) != n {
			return nil, &RecordError{fmt.Sprintf("setup must hold one worker pile per player (%d)", n)}
		}
		if err := su.Validate(); err != nil {
			return nil, &RecordError{err.Error()}
		}
		r.Setup = su
	}
	var turns []json.RawMessage
	if err := json.Unmarshal(top["turns"], &turns); err != nil || turns == nil {
		return nil, &RecordError{"turns must be a list"}
	}
	for k, raw := range turns {
		t, err := decodeTurn(raw, n)
		if err != nil {
			return r, &TurnError{Turn: k, Reason: err.Error()}
		}
		r.Turns = append(r.Turns, t)
	}
	return r, nil
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

func (sj setupJSON) decode() (Setup, error) {
	var su Setup
	for _, c := range sj.Jungle {
		j, ok := ParseJungle(c)
		if !ok {
			return su, &RecordError{"unknown jungle tile " + strconv.Quote(c) + " in setup"}
		}
		su.Jungle = append(su.Jungle, j)
	}
	for _, ws := range sj.Workers {
		var pile []Worker
		for _, c := range ws {
			w, ok := ParseWorker(c)
			if !ok {
				return su, &RecordError{"unknown worker tile " + strconv.Quote(c) + " in setup"}
			}
			pile = append(pile, w)
		}
		su.Workers = append(su.Workers, pile)
	}
	return su, nil
}

func decodeCell(v []int) (Cell, bool) {
	if len(v) != 2 {
		return Cell{}, false
	}
	return Cell{v[0], v[1]}, true
}

func decodeTurn(raw json.RawMessage, n int) (RecordTurn, error) {
	var tj turnJSON
	if err := json.Unmarshal(raw, &tj); err != nil {
		return RecordTurn{}, errors.New(badTurn)
	}
	if tj.P == nil {
		return RecordTurn{}, errors.New("a turn needs the seat that plays it (p)")
	}
	t := RecordTurn{Seat: *tj.P}
	if tj.Tile == nil {
		return t, errors.New(badTurn)
	}
	w, ok := ParseWorker(*tj.Tile)
	if !ok {
		return t, errors.New(badTurn)
	}
	at, ok := decodeCell(tj.At)
	if !ok {
		return t, errors.New(badTurn)
	}
	rot := 0
	if tj.Rot != nil {
		rot = *tj.Rot
	}
	if rot < 0 || rot > 3 {
		return t, errors.New(badTurn)
	}
	t.Move.Placement = Placement{Tile: w, Rot: rot, At: at, Overbuild: tj.Overbuild}
	if tj.Fills != nil {
		t.Move.Fills = make([]Fill, 0, len(tj.Fills))
		for _, f := range tj.Fills {
			c, ok := decodeCell(f.At)
			if !ok {
				return t, errors.New("a fill needs a cell")
			}
			if f.Tile == "pile" {
				t.Move.Fills = append(t.Move.Fills, Fill{At: c, FromPile: true})
				continue
			}
			j, ok := ParseJungle(f.Tile)
			if !ok {
				return t, fmt.Errorf("unknown jungle tile %q in fills", f.Tile)
			}
			t.Move.Fills = append(t.Move.Fills, Fill{At: c, Tile: j})
		}
	}
	var err error
	if t.Move.Acts, err = decodeActs(tj.Acts); err != nil {
		return t, err
	}
	if tj.Reactions != nil {
		t.Move.Reactions = make(map[int][]Act, len(tj.Reactions))
		for k, as := range tj.Reactions {
			seat, err := strconv.Atoi(k)
			if err != nil || seat < 0 || seat >= n || strconv.Itoa(seat) != k {
				return t, fmt.Errorf("reactions may only name other seats of this game, not %q", k)
			}
			acts, err := decodeActs(as)
			if err != nil {
				return t, err
			}
			if acts == nil {
				acts = []Act{}
			}
			t.Move.Reactions[seat] = acts
		}
	}
	return t, nil
}

func decodeActs(as []actJSON) ([]Act, error) {
	var out []Act
	for _, a := range as {
		c, ok := decodeCell(a.Tile)
		if !ok {
			return nil, errors.New("an act needs the cell of its tile")
		}
		d, ok := ParseSide(a.Side)
		if !ok {
			return nil, fmt.Errorf("an act needs a side N, E, S or W, not %q", a.Side)
		}
		use := AllWorkers
		if a.Use != nil {
			if *a.Use < 0 {
				return nil, errors.New("an act cannot use a negative number of workers")
			}
			use = *a.Use
		}
		out = append(out, Act{Tile: c, Side: d, Use: use})
	}
	return out, nil
}

// Encode writes r as JSON (the package doc's Records), always with the explicit setup
// (a seed is kept alongside only when the record has no other way to replay,
// which never happens: Encode writes setup and drops the seed).
func (r *Record) Encode() ([]byte, error) {
	out := recordJSON{Format: Format, Players: r.Players, First: r.First, Turns: []turnJSON{}}
	sj := setupToJSON(r.Setup)
	out.Setup = &sj
	for _, t := range r.Turns {
		out.Turns = append(out.Turns, encodeTurn(t))
	}
	return json.MarshalIndent(out, "", " ")
}

func encodeTurn(t RecordTurn) turnJSON {
	m := t.Move
	seat, tile, rot := t.Seat, m.Tile.String(), m.Rot
	tj := turnJSON{P: &seat, Overbuild: m.Overbuild, Tile: &tile, At: []int{m.At.X, m.At.Y}}
	if rot != 0 {
		tj.Rot = &rot
	}
	for _, f := range m.Fills {
		code := f.Tile.String()
		if f.FromPile {
			code = "pile"
		}
		tj.Fills = append(tj.Fills, fillJSON{At: []int{f.At.X, f.At.Y}, Tile: code})
	}
	tj.Acts = encodeActs(m.Acts)
	if len(m.Reactions) > 0 {
		tj.Reactions = map[string][]actJSON{}
		seats := make([]int, 0, len(m.Reactions))
		for k := range m.Reactions {
			seats = append(seats, k)
		}
		sort.Ints(seats)
		for _, k := range seats {
			tj.Reactions[strconv.Itoa(k)] = encodeActs(m.Reactions[k])
			if tj.Reactions[strconv.Itoa(k)] == nil {
				tj.Reactions[strconv.Itoa(k)] = []actJSON{}
			}
		}
	}
	return tj
}

func encodeActs(as []Act) []actJSON {
	var out []actJSON
	for _, a := range as {
		aj := actJSON{Tile: []int{a.Tile.X, a.Tile.Y}, Side: a.Side.String()}
		if a.Use != AllWorkers {
			u := a.Use
			aj.Use = &u
		}
		out = append(out, aj)
	}
	return out
}

// MarshalTurn writes one turn as a record's turn object.
func MarshalTurn(t RecordTurn) ([]byte, error) { return json.Marshal(encodeTurn(t)) }

// UnmarshalTurn reads one record turn object of an n-player game.
func UnmarshalTurn(data []byte, n int) (RecordTurn, error) { return decodeTurn(data, n) }

// MarshalActs writes acts as a record's list of act objects.
func MarshalActs(as []Act) ([]byte, error) {
	out := encodeActs(as)
	if out == nil {
		out = []actJSON{}
	}
	return json.Marshal(out)
}

// UnmarshalActs reads a record's list of act objects.
func UnmarshalActs(data []byte) ([]Act, error) {
	var as []actJSON
	if err := json.Unmarshal(data, &as); err != nil {
		return nil, errors.New("acts must be a list of {tile, side, use}")
	}
	return decodeActs(as)
}

// MarshalSetup and UnmarshalSetup store a setup as the record's setup object.
func MarshalSetup(su Setup) ([]byte, error) { return json.Marshal(setupToJSON(su)) }

func setupToJSON(su Setup) setupJSON {
	sj := setupJSON{Jungle: []string{}, Workers: [][]string{}}
	for _, j := range su.Jungle {
		sj.Jungle = append(sj.Jungle, j.String())
	}
	for _, ws := range su.Workers {
		pile := []string{}
		for _, w := range ws {
			pile = append(pile, w.String())
		}
		sj.Workers = append(sj.Workers, pile)
	}
	return sj
}

// UnmarshalSetup reads a setup object and validates it.
func UnmarshalSetup(data []byte) (Setup, error) {
	var sj setupJSON
	if err := json.Unmarshal(data, &sj); err != nil {
		return Setup{}, &RecordError{"setup must hold a jungle list and one worker list per player"}
	}
	su, err := sj.decode()
	if err != nil {
		return su, err
	}
	return su, su.Validate()
}

// Replay plays a record from its setup and returns the final state. The first
// turn that cannot be played gives a *TurnError (with the state before it).
func Replay(r *Record) (*State, error) {
	s, err := New(r.Setup, r.First)
	if err != nil {
		return nil, &RecordError{err.Error()}
	}
	for k, t := range r.Turns {
		m := t.Move
		if m.Reactions == nil {
			m.Reactions = map[int][]Act{} // replay resolves every reaction at once
		}
		if _, err := s.Play(t.Seat, m); err != nil {
			return s, &TurnError{Turn: k, Reason: err.Error()}
		}
	}
	return s, nil
}
