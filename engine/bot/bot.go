// Package bot plays Cacao through the engine's legal-move API only: it never
// decides legality itself and never looks at hidden information. The
// greedy bot judges moves with engine previews, which keep the pile
// unknown; the search (the hard bot) only ever plays on positions an
// engine.Sampler dealt from what its seat can see.
//
// The levels a player seats are easy (Greedy with EasyNoise), medium
// (Greedy) and hard (Search, DefaultBudget a move on one core). Their
// strength is measured by cmd/botmatch; the figures are in the README and
// in cmd/botmatch's package doc. "hard-v1" is the hard bot as it was
// before issue 40 (Search with Version 1), kept so that a new search can be
// measured against it; nobody is offered it as a level.
package bot

import (
	"errors"

	"cacao/engine"
)

// Bot chooses moves for a seat.
type Bot interface {
	// Name is the bot's kind as ByName knows it ("easy", "hard").
	Name() string
	// Move chooses the current player's whole turn.
	Move(s *engine.State, r *engine.Rand) (engine.Move, error)
	// Resolve chooses how seat resolves the batch at the head of its queue.
	Resolve(s *engine.State, seat int, r *engine.Rand) []engine.Act
}

// ByName returns the bot called name: a level ("easy", "medium", "hard";
// see Levels), "greedy" (the medium bot, by the name games seated before
// the levels keep), "random", or "hard-v1" (the hard bot of before, for
// measurement). Each call returns a bot of its own.
func ByName(name string) (Bot, bool) {
	switch name {
	case "random":
		return &Random{}, true
	case "easy":
		return Greedy{Noise: EasyNoise, Kind: "easy"}, true
	case "medium":
		return Greedy{Kind: "medium"}, true
	case "greedy":
		return Greedy{}, true
	case "hard":
		return Search{}, true
	case "hard-v1":
		return Search{Version: 1}, true
	}
	return nil, false
}

// EasyNoise is how much chance, in gold, the easy bot adds to each move's
// value: enough that it often misses the best move, not so much that it
// plays at random.
const EasyNoise = 4

// Levels lists the bots a player may seat, weakest first.
func Levels() []string { return []string{"easy", "medium", "hard"} }

// Names lists every bot ByName knows.
func Names() []string { return append(Levels(), "greedy", "random", "hard-v1") }

// Slow reports whether the bot called name thinks for longer than a page
// may wait (the searches: DefaultBudget a move).
func Slow(name string) bool { return name == "hard" || name == "hard-v1" }

// ErrNoMove means the engine offered no legal placement. That cannot
// happen: a tile always fits beside the jungle on the board's edge, turned
// any way. It is reported, never a panic.
var ErrNoMove = errors.New("bot: no legal placement")

// Random plays a uniformly random legal placement with a random legal fill
// assignment, and resolves its edges with the defaults. Its buffers make it
// unsafe for concurrent use: give each game its own.
type Random struct {
	cells []engine.Cell
	fills []engine.Fill
}

// Name implements Bot.
func (*Random) Name() string { return "random" }

// Move implements Bot. Every placement pairs a cell (a legal cell, or an
// overbuild target) with a hand tile and one of its distinct rotations, so a
// uniform pair gives a uniform placement without listing them all.
func (rb *Random) Move(s *engine.State, r *engine.Rand) (engine.Move, error) {
	var m engine.Move
	cells := s.LegalCells(rb.cells[:0])
	normal := len(cells)
	cells = s.OverbuildCells(cells)
	rb.cells = cells
	p := s.Player(s.Current())
	var tiles [4 * engine.NumWorkerKinds]engine.Worker
	var rots [4 * engine.NumWorkerKinds]uint8
	k := 0
	for w, c := range p.Hand {
		if c == 0 {
			continue
		}
		for _, rot := range engine.Worker(w).Rotations() {
			tiles[k], rots[k] = engine.Worker(w), uint8(rot)
			k++
		}
	}
	if len(cells) == 0 || k == 0 {
		return m, ErrNoMove
	}
	i := r.Intn(len(cells) * k)
	m.Tile, m.Rot = tiles[i%k], int(rots[i%k])
	m.At = cells[i/k]
	m.Overbuild = i/k >= normal
	if !m.Overbuild {
		fills, width := s.AppendFillOptions(m.At, rb.fills[:0])
		rb.fills = fills
		if width > 0 {
			o := r.Intn(len(fills)/width) * width
			m.Fills = fills[o : o+width : o+width]
		}
	}
	return m, nil
}

// Resolve implements Bot: every worker, in the default order.
func (*Random) Resolve(s *engine.State, seat int, r *engine.Rand) []engine.Act { return nil }

// Play plays s to the end with one bot per seat: each player empties their
// queue before their turn, and every queue is emptied at the end so the
// result is final. after, when non-nil, is called after every committed turn.
func Play(s *engine.State, bots []Bot, r *engine.Rand, after func(engine.Outcome)) error {
	for !s.Over() {
		seat := s.Current()
		if err := drain(s, seat, bots[seat], r); err != nil {
			return err
		}
		m, err := bots[seat].Move(s, r)
		if err != nil {
			return err
		}
		out, err := s.Play(seat, m)
		if err != nil {
			return err
		}
		if after != nil {
			after(out)
		}
	}
	for seat := range bots {
		if err := drain(s, seat, bots[seat], r); err != nil {
			return err
		}
	}
	return nil
}

func drain(s *engine.State, seat int, b Bot, r *engine.Rand) error {
	for len(s.Player(seat).Queue()) > 0 {
		if _, err := s.Resolve(seat, b.Resolve(s, seat, r)); err != nil {
			return err
		}
	}
	return nil
}
