// Package engine is the complete base game of Cacao for 2–4 players, as
// the site's rules page states it (views/rules/en.html): setup, turns,
// fills, activations, the asynchronous queue of other players' choices,
// overbuilding, scoring, legal move generation, previews, viewer-scoped
// views and game records (see Records below). It uses the standard library
// only, does no I/O and is deterministic: chance enters only through a Setup (explicit piles, or
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
// batches wait in their owner's FIFO queue (the rules' "Choices on other
// players' turns"): a batch at the head resolves by itself when it holds no choice, otherwise it waits for
// Resolve (or ResolveBest at a deadline) and blocks only its owner.
//
// Everything legal comes from the engine: LegalPlacements, LegalCells,
// OverbuildCells, FillOptions and Fired (the edges a placement would fire,
// with their workers, for the act choices; AppendFired is its unchecked,
// allocation-free form for a search, JungleAt the tile on a cell). Preview tells what a move would
// give every seat before it is committed, keeping a pile tile unknown. View
// is the one place that decides what a viewer may see: their own hand, the
// others' counts, never a pile's order or the seed. Sampler deals, for a
// bot that searches, positions as a seat may imagine them: what it sees
// kept, everything hidden dealt again; FromView rebuilds, from a view
// alone, a position to play on (for a client of the site's API), dealing
// what the view hides as a Sampler does. Score gives totals with
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
//
// # Records
//
// A game record (record.go) is a JSON object from which every position of
// a game is played again; the site exports its games in it, the tests are
// written in it, and `cacao replay` checks it. Its fields are a contract
// with other tools: new optional fields may come, changes need a new
// format.
//
//	{"format": "cacao-record/1", "players": ["ana", "bo"], "first": 0,
//	 "setup": {"jungle": ["M3", "T", ...], "workers": [["2101", ...], ["1111", ...]]},
//	 "turns": [{"p": 0, "tile": "2101", "rot": 1, "at": [1, 0]},
//	           {"p": 1, "tile": "1111", "at": [2, 1], "fills": [{"at": [2, 0], "tile": "M3"}],
//	            "acts": [{"tile": [2, 1], "side": "N", "use": 1}],
//	            "reactions": {"0": [{"tile": [1, 0], "side": "E", "use": 0}]}}]}
//
// A cell is [x, y] as above (the neighbour on N is [x, y-1]); sides are
// "N", "E", "S", "W"; worker tiles are named by their workers on N, E, S, W
// unrotated ("2101"), rot turning them clockwise; jungle tiles are P1 P2
// M2 M3 M4 G1 G2 W S T. players names 2–4 seats in order, first the seat
// that plays first (default 0). setup gives the jungle pile top first,
// without the two start tiles (its first two go to the display), and each
// seat's worker pile top first (the first three are the hand); each must
// hold exactly the tiles of the player count. A record may give a "seed"
// instead (shuffled by this engine, named by "engine"): exactly one of
// the two. Unknown fields are ignored.
//
// Each turn names its seat (p), the tile from that seat's hand, rot
// (default 0) and the cell; "overbuild": true covers one of the seat's own
// tiles (its sun token paid first; no fills). fills, when given, assigns
// every cell that needs a jungle tile (fewer when fewer are left) a
// display tile or "pile" (only once the display is used up); omitted, the
// cells in (y, x) order take the display in its order, then the pile.
// acts lists the active seat's fired edges in the order to resolve them,
// each with how many workers to use (omitted: all); reactions, keyed by
// the other seats' numbers, the same for their edges this turn fired,
// resolved at the end of the turn. Edges not listed resolve after the
// listed ones, with all their workers, in the default order: plantations,
// gold mines, water, sun sites, markets (M4, M3, M2), temples; then by the
// worker tile's cell (y, then x) and side N, E, S, W.
//
// `cacao replay` prints one JSON object: for a legal record (exit 0)
// {"ok": true, "over", "turns", "next", "players": [{"seat", "gold",
// "fruit", "sun", "water", "hand", "pile"}], "display", "jungle_pile",
// "scores", "winners"}, the scores per seat ({"seat", "coins", "temples",
// "sun", "water", "total", "fruit"}) and the winning seats once it is
// over; for the first turn that cannot be played (exit 1) {"ok": false,
// "turn": K, "error"} with K its index from 0; for a document that is not
// a record (exit 2) {"ok": false, "turn": null, "error"}.
package engine
