package engine

import (
	"errors"
	"fmt"
	"reflect"
)

// ErrView is what FromView's errors wrap: the view is of no position.
var ErrView = errors.New("engine: not a view of a game")

func badView(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrView, fmt.Sprintf(format, args...))
}

// FromView rebuilds a position that shows v to v's viewer, for a program
// that sees a game only as a seat does (a client of the site's API) and
// plays on with the engine or a bot.
//
// Everything v shows is kept: the board in the order its tiles were laid,
// the display, the jungle pile's size, every village, the viewer's hand
// and queue, the turn and the first player. What v hides is dealt as a
// Sampler of the viewer deals it, with r: the jungle pile from the game's
// jungle tiles on neither the board nor the display, each other seat's
// hand and pile from its worker tiles not laid, the viewer's pile from
// theirs neither laid nor in hand. The other seats' queues are hidden too:
// each of their batches is made of that seat's fired edges facing a
// market (and a plantation when it has no fruit), so that it waits for
// their decision as v says.
//
// FromView reads only what the API's JSON keeps (package
// cacao/handlers/api) and computes the rest as any position does: Legal,
// CanOverbuild, Result, and the tiles' Fired sides (in every position,
// exactly the sides with workers facing a jungle tile). So for a view
// the engine made, FromView(v, r).View(v.Viewer) equals v. A view of no position (tile
// counts that do not add up, a tile off the board, a value out of range)
// gives an error wrapping ErrView, never a panic.
func FromView(v View, r *Rand) (*State, error) {
	n := v.Players
	if n < 2 || n > 4 || len(v.Seats) != n {
		return nil, badView("a game has 2 to 4 seats, each with its village")
	}
	if v.Viewer < Spectator || v.Viewer >= n || v.First < 0 || v.First >= n {
		return nil, badView("the viewer and the first player must be seats of the game")
	}
	s := &State{n: n, total: n * len(WorkerSet(n)), first: v.First, current: v.Current, turns: v.Turns,
		board: new(board), scratch: newScratch(), players: make([]Player, n)}
	if v.Turns < 0 || v.Turns > s.total || v.Current != (v.First+v.Turns)%n {
		return nil, badView("turn %d is not seat %d's", v.Turns, v.Current)
	}
	// jungle and workers count the tiles not seen yet: at first the box's
	// jungle tiles (the start tiles too) and each seat's worker tiles.
	var jungle [numJungle]int
	for j := P1; j < numJungle; j++ {
		jungle[j] = jungleKinds[j].Count
		if n == 2 {
			jungle[j] = jungleKinds[j].Count2
		}
	}
	workers := make([][numWorker]int, n)
	for k := range workers {
		for w := range workers[k] {
			workers[k][w] = workerKinds[w].PerPlayer[n-2]
		}
	}
	for _, t := range v.Tiles {
		if err := s.lay(t, &jungle, workers); err != nil {
			return nil, err
		}
	}
	if laid := s.laidWorkers(); laid != v.Turns {
		return nil, badView("%d worker tiles lie on the board after %d turns", laid, v.Turns)
	}
	if len(v.Display) > DisplaySize {
		return nil, badView("the display holds at most %d tiles", DisplaySize)
	}
	for _, j := range v.Display {
		if j == NoJungle || j >= numJungle {
			return nil, badView("the display holds an unknown jungle tile")
		}
		if jungle[j] == 0 {
			return nil, badView("one jungle tile %s too many", j)
		}
		jungle[j]--
		s.display[s.ndisp] = j
		s.ndisp++
	}
	if s.jungle = tilesOf[Jungle](jungle[:]); len(s.jungle) != v.JunglePile {
		return nil, badView("%d jungle tiles are left, not %d", len(s.jungle), v.JunglePile)
	}
	for k, sv := range v.Seats {
		if err := s.village(k, sv, v, workers[k]); err != nil {
			return nil, err
		}
	}
	for k := range s.players {
		var err error
		if k == v.Viewer {
			err = s.ownQueue(k, v.Queue)
		} else {
			err = s.imagineQueue(k, v.Seats[k])
		}
		if err != nil {
			return nil, err
		}
	}
	sp := s.Sampler(v.Viewer)
	c := sp.Sample(r).Clone()
	sp.Close()
	if got, want := shown(c.View(v.Viewer)), shown(v); !reflect.DeepEqual(got, want) {
		return nil, badView("the position does not add up to the view (%s)", firstDifference(got, want))
	}
	return c, nil
}

// lay puts t on the board as play laid it (the view lists the tiles in
// that order), taking it from the tiles not seen.
func (s *State) lay(t TileView, jungle *[numJungle]int, workers [][numWorker]int) error {
	if !inGrid(t.At) {
		return badView("the cell %s is off the board", t.At)
	}
	top := s.at(t.At)
	if t.Jungle != NoJungle {
		if t.Jungle >= numJungle {
			return badView("an unknown jungle tile lies on %s", t.At)
		}
		if jungle[t.Jungle] == 0 {
			return badView("one jungle tile %s too many", t.Jungle)
		}
		if !t.At.IsJungleCell() || top != nil {
			return badView("a jungle tile cannot lie on %s", t.At)
		}
		jungle[t.Jungle]--
		s.put(piece{at: t.At, jungle: t.Jungle, owner: -1})
		return nil
	}
	if t.Owner < 0 || t.Owner >= s.n || t.Worker >= numWorker || t.Rot < 0 || t.Rot > 3 {
		return badView("the worker tile on %s has no seat, kind or rotation of the game", t.At)
	}
	if workers[t.Owner][t.Worker] == 0 {
		return badView("one worker tile %s of seat %d too many", t.Worker, t.Owner)
	}
	// A worker tile goes on an empty worker cell, or over its owner's
	// tile not yet overbuilt.
	if t.At.IsJungleCell() || top != nil && (!top.isWorker() || int(top.owner) != t.Owner || top.under != 0) {
		return badView("a worker tile cannot lie on %s", t.At)
	}
	workers[t.Owner][t.Worker]--
	s.put(piece{at: t.At, worker: t.Worker, owner: int8(t.Owner), rot: uint8(t.Rot), edges: t.Worker.Edges(t.Rot), under: s.board.get(t.At)})
	return nil
}

// laidWorkers marks the fired sides of every worker tile (see FromView)
// and counts them: one a turn.
func (s *State) laidWorkers() int {
	laid := 0
	for i := range s.pieces {
		q := &s.pieces[i]
		if !q.isWorker() {
			continue
		}
		laid++
		for d := N; d <= W; d++ {
			if q.edges[d] > 0 && s.JungleAt(q.at.Step(d)) != NoJungle {
				q.fired |= 1 << d
			}
		}
	}
	return laid
}

// village sets seat k's village and deals its tiles not laid: the
// viewer's hand as v shows it and the rest to the pile in kind order
// (the Sampler deals them afresh).
func (s *State) village(k int, sv SeatView, v View, left [numWorker]int) error {
	if sv.Gold < 0 || sv.Fruit < 0 || sv.Fruit > MaxFruit || sv.Sun < 0 || sv.Sun > MaxSun ||
		sv.WaterField < 0 || sv.WaterField >= len(waterTrack) || sv.Hand < 0 || sv.Pile < 0 || sv.Pending < 0 || sv.Pending > v.Turns {
		return badView("seat %d's village is out of range", k)
	}
	p := &s.players[k]
	p.Gold, p.Fruit, p.Sun, p.Water = sv.Gold, sv.Fruit, sv.Sun, sv.WaterField
	unseen := sv.Hand + sv.Pile
	if k == v.Viewer {
		for _, w := range v.Hand {
			if w >= numWorker {
				return badView("the hand holds an unknown worker tile")
			}
			if left[w] == 0 {
				return badView("one worker tile %s too many in hand", w)
			}
			left[w]--
			p.Hand[w]++
		}
		unseen = sv.Pile
	}
	rest := tilesOf[Worker](left[:])
	if len(rest) != unseen {
		return badView("seat %d has %d worker tiles not laid, not %d", k, len(rest), unseen)
	}
	if k != v.Viewer {
		for _, w := range rest[:sv.Hand] {
			p.Hand[w]++
		}
		rest = rest[sv.Hand:]
	}
	p.pile = rest
	return nil
}

// ownQueue gives seat k the batches v shows, each edge a fired edge of
// theirs on the board.
func (s *State) ownQueue(k int, q []Batch) error {
	for _, b := range q {
		if b.Owner != k || len(b.Edges) == 0 {
			return badView("a waiting choice of seat %d holds no edge of theirs", k)
		}
		for _, e := range b.Edges {
			if f, ok := s.firedEdge(e.Tile, e.Side); !ok || f != e {
				return badView("the edge %s %s is no fired edge of seat %d", e.Tile, e.Side, k)
			}
		}
		b.Edges = append([]Edge(nil), b.Edges...)
		s.players[k].queue = append(s.players[k].queue, b)
	}
	return nil
}

// imagineQueue gives seat k, whose batches v does not show, as many
// batches as v says wait, each needing their decision.
func (s *State) imagineQueue(k int, sv SeatView) error {
	if sv.Pending == 0 {
		return nil
	}
	if !sv.NeedsDecision {
		return badView("seat %d's first waiting choice needs no decision", k)
	}
	var market, plant []Edge
	for i := range s.pieces {
		q := &s.pieces[i]
		if !q.isWorker() || int(q.owner) != k || s.board.get(q.at) != uint8(i+1) {
			continue
		}
		for d := N; d <= W; d++ {
			e, ok := s.firedEdge(q.at, d)
			switch {
			case !ok:
			case jungleKinds[e.Jungle].Effect == Market && market == nil:
				market = []Edge{e}
			case jungleKinds[e.Jungle].Effect == Plantation && plant == nil:
				plant = []Edge{e}
			}
		}
	}
	edges := market
	if s.players[k].Fruit == 0 {
		edges = append(plant, market...) // the default order: plantations first
	}
	b := Batch{Turn: s.turns - 1, Owner: k, Edges: edges}
	if market == nil || !s.players[k].NeedsDecision(b) {
		return badView("seat %d has no fired edges a choice could wait on", k)
	}
	for range sv.Pending {
		s.players[k].queue = append(s.players[k].queue, b)
	}
	return nil
}

// firedEdge is the edge on side d of the worker tile on top of c, when it
// has workers and faces a jungle tile: an edge that has fired.
func (s *State) firedEdge(c Cell, d Side) (Edge, bool) {
	q := s.at(c)
	if q == nil || !q.isWorker() || d > W || q.edges[d] == 0 {
		return Edge{}, false
	}
	j := s.JungleAt(c.Step(d))
	return Edge{Tile: c, Side: d, Owner: int(q.owner), Workers: int(q.edges[d]), Jungle: j}, j != NoJungle
}

// tilesOf lists the tiles counted in n, in kind order.
func tilesOf[T ~uint8](n []int) []T {
	var out []T
	for k, c := range n {
		for range c {
			out = append(out, T(k))
		}
	}
	return out
}

// shown is what FromView reads of v: no Legal, CanOverbuild, Result or
// Fired sides, and no empty list told from a missing one.
func shown(v View) View {
	v.Legal, v.CanOverbuild, v.Result = nil, false, Result{}
	v.Tiles = append([]TileView(nil), v.Tiles...)
	for i := range v.Tiles {
		v.Tiles[i].Fired = [4]bool{}
	}
	if len(v.Display) == 0 {
		v.Display = nil
	}
	if len(v.Hand) == 0 {
		v.Hand = nil
	}
	if len(v.Queue) == 0 {
		v.Queue = nil
	}
	return v
}

// firstDifference names the first part in which two views differ.
func firstDifference(a, b View) string {
	switch {
	case !reflect.DeepEqual(a.Tiles, b.Tiles):
		return "the board"
	case !reflect.DeepEqual(a.Seats, b.Seats):
		return "the villages"
	case !reflect.DeepEqual(a.Queue, b.Queue):
		return "the choices"
	case !reflect.DeepEqual(a.Hand, b.Hand):
		return "the hand"
	}
	return "the game's course"
}
