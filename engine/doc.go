// Package engine is the complete base game of Cacao for 2–4 players, as
// the site's rules page states it (views/rules/en.html): setup, turns,
// fills, activations, the asynchronous queue of other players' choices,
// overbuilding, scoring, legal move generation, previews, viewer-scoped
// views and game records (NOTATION.md). It uses the standard library only, does no I/O and is
// deterministic: chance enters only through a Setup (explicit piles, or
// NewSetup's shuffle of a seed with the engine's own Rand).
//
// # The model
//
// Tile kinds are data: two tables in tiles.go list every kind with its
// effect, value and counts, so the expansions can add rows rather than code
// paths. The tables are not exported: Jungle.Kind and Worker.Kind return
// copies of their rows, so no other package can change the rules at run
// time. A Cell is an (x, y) square, x east and y south; the board is a
// chessboard, jungle tiles on x+y even, worker tiles on x+y odd. A worker
// tile's name gives its workers on N, E, S, W unrotated; Worker.Edges(rot)
// turns it clockwise.
//
// A State is one position. Play(seat, Move) commits a whole turn — the
// placement (or overbuild), the fills and the active player's acts (which
// edges resolve in which order, using how many workers) — or returns an
// *IllegalError whose text a player understands, having changed nothing.
// Edges of other players that fire on a turn form a Batch. Replays pass
// Move.Reactions and resolve batches at once; the live site leaves it nil, so
// batches wait in their owner's FIFO queue (the rules' "Choices on other players' turns"): a batch at
// the head resolves by itself when it holds no choice, otherwise it waits for
// Resolve (or ResolveBest at a deadline) and blocks only its owner.
//
// Everything legal comes from the engine: LegalPlacements, LegalCells,
// OverbuildCells, FillOptions and Fired (the edges a placement would fire,
// with their workers, for the act choices). Preview tells what a move would
// give every seat before it is committed, keeping a pile tile unknown. View
// is the one place that decides what a viewer may see: their own hand, the
// others' counts, never a pile's order or the seed. Sampler deals, for a
// bot that searches, positions as a seat may imagine them: what it sees
// kept, everything hidden dealt again. Score gives totals with
// their parts and each temple's award. Game wraps a State with its Record so
// that every choice, including late resolutions, is exported explicitly.
//
// # A worked example
//
// Two players, Ana (seat 0) and Bo (seat 1). The start tiles are P1 on (0,0)
// and M2 on (1,1); the display holds M3 and T. Ana lays 1111 on (1,0):
//
//	y\x   0    1    2
//	 0    P1  [A]   .
//	 1    .    M2   .
//
// Its W edge faces the plantation and its S edge the market; N and E face
// empty cells. No empty cell next to (1,0) touches a second worker tile, so
// nothing is filled. Ana resolves her two edges in the default order
// (plantations first): +1 fruit, then the market sells it for 2 gold. With
// Acts she could sell first instead (selling nothing, then harvesting).
//
// Bo then lays 2101 with rot 3 (N=1, E=0, S=1, W=2) on (2,1). The empty
// jungle cell (2,0) now touches two worker tiles, Ana's and Bo's, so it must
// be filled: Bo chooses a display tile, say M3. Bo's N edge faces it and his
// W edge faces M2, so both fire for Bo; Ana's older tile has its E edge on
// (2,0), which fires too, into Ana's queue as a batch: a market with no fruit
// to sell, so it resolves at once. At the end of the turn Bo draws a tile
// and the display is refilled from the jungle pile.
//
// In code:
//
//	su, _ := engine.NewSetup(2, seed)
//	s, _ := engine.New(su, 0)
//	legal := s.LegalPlacements(nil)
//	out, err := s.Play(0, engine.Move{Placement: legal[0]})
//
// and a record replays with DecodeRecord and Replay, as `cacao replay` does.
package engine
