package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"cacao/engine"
)

// replayOut is the JSON `cacao replay` prints (the engine package doc's
// Records).
type replayOut struct {
	OK         bool           `json:"ok"`
	Over       bool           `json:"over"`
	Turns      int            `json:"turns"`
	Next       *int           `json:"next"`
	Players    []replayPlayer `json:"players"`
	Display    []string       `json:"display"`
	JunglePile int            `json:"jungle_pile"`
	Scores     []replayScore  `json:"scores"`
	Winners    []int          `json:"winners"`
}

type replayPlayer struct {
	Seat  int `json:"seat"`
	Gold  int `json:"gold"`
	Fruit int `json:"fruit"`
	Sun   int `json:"sun"`
	Water int `json:"water"`
	Hand  int `json:"hand"`
	Pile  int `json:"pile"`
}

type replayScore struct {
	Seat    int `json:"seat"`
	Coins   int `json:"coins"`
	Temples int `json:"temples"`
	Sun     int `json:"sun"`
	Water   int `json:"water"`
	Total   int `json:"total"`
	Fruit   int `json:"fruit"`
}

type replayErr struct {
	OK    bool   `json:"ok"`
	Turn  *int   `json:"turn"`
	Error string `json:"error"`
}

func replayCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: cacao replay FILE|-")
		return 2
	}
	var data []byte
	var err error
	if args[0] == "-" {
		data, err = io.ReadAll(stdin)
	} else {
		data, err = os.ReadFile(args[0])
	}
	if err != nil {
		writeJSON(stdout, replayErr{Error: "cannot read the record: " + err.Error()})
		return 2
	}
	out, code := replay(data)
	writeJSON(stdout, out)
	return code
}

// replay plays a record and returns what to print and the exit code.
func replay(data []byte) (any, int) {
	rec, err := engine.DecodeRecord(data)
	var re *engine.RecordError
	if errors.As(err, &re) {
		return replayErr{Error: re.Reason}, 2
	}
	decodeErr := err
	s, err := engine.Replay(rec)
	var te *engine.TurnError
	if errors.As(err, &te) {
		return replayErr{Turn: &te.Turn, Error: te.Reason}, 1
	}
	if errors.As(err, &re) {
		return replayErr{Error: re.Reason}, 2
	}
	if errors.As(decodeErr, &te) {
		return replayErr{Turn: &te.Turn, Error: te.Reason}, 1
	}
	return position(s), 0
}

func position(s *engine.State) replayOut {
	out := replayOut{OK: true, Over: s.Over(), Turns: s.Turns(), JunglePile: s.JunglePile(), Display: []string{}}
	if !out.Over {
		next := s.Current()
		out.Next = &next
	}
	for i := 0; i < s.Players(); i++ {
		p := s.Player(i)
		out.Players = append(out.Players, replayPlayer{Seat: i, Gold: p.Gold, Fruit: p.Fruit, Sun: p.Sun,
			Water: p.WaterValue(), Hand: p.HandSize(), Pile: p.PileSize()})
	}
	for _, j := range s.Display() {
		out.Display = append(out.Display, j.String())
	}
	if out.Over {
		r := s.Score()
		for _, sc := range r.Scores {
			out.Scores = append(out.Scores, replayScore(sc))
		}
		out.Winners = r.Winners
	}
	return out
}

func writeJSON(w io.Writer, v any) {
	b, _ := json.MarshalIndent(v, "", "  ")
	w.Write(append(b, '\n'))
}
