package bot

import (
	"math"
	"slices"
	"time"

	"cacao/engine"
)

// Search is the hard bot: information-set Monte Carlo tree search, single
// observer (Cowling, Powley and Whitehouse, 2012). Each iteration deals a
// position as the seat may imagine it (engine.Sampler: the others' hands,
// every pile), walks the one tree of moves along those legal in that deal,
// choosing by UCB1 over availability counts, adds one move, plays the rest
// of the game out, and credits every move on the path with the result for
// the player who made it: mostly the share of the win, and a little, bounded,
// for the margin over the best other total (see tree.score). The move played
// is the root's most visited. It sees only what its seat sees, by
// construction: every position it searches is a sample.
//
// The current version (2) adds what the greedy bot knows (guide.go): the
// root's moves are tried in the order of the greedy bot's values and only
// the best few at first, more as the visits grow (progressive widening; the
// same deeper, ordered by a cheap placement value), and playouts play the
// best of a few random moves by that value rather than any move. Once nothing
// is hidden (two players, every pile empty: each hand is what its owner has
// not laid yet) it solves the rest of the game exactly (exact.go) when that
// fits in the budget. Version 1 is the search as it was before (hard-v1).
type Search struct {
	// Budget is the thinking time per move (0: DefaultBudget): in a
	// two-player game, per move on average over the seat's game (share).
	Budget time.Duration
	// Iterations, when positive, replaces the budget with a fixed number
	// of iterations: with a seeded Rand the move is then the same on
	// every machine (tests, replays of a bot's game).
	Iterations int
	// Stop, once closed, ends the search early (nil: never): the move is
	// the best found so far, after at least a few iterations. Nobody may
	// want it any more (the game's persons left).
	Stop <-chan struct{}
	// Version chooses the search: 0 or 2, the current one; 1, the search
	// as it was before issue 40 ("hard-v1"), kept unchanged so that the
	// current one can be measured against it.
	Version int
}

// DefaultBudget is the hard bot's thinking time per move, on one core.
const DefaultBudget = time.Second

// exploration is UCB1's constant; rewards lie in [0, 1].
const exploration = 0.7

// Name implements Bot: "hard", or "hard-v1" for Version 1.
func (sr Search) Name() string {
	if sr.Version == 1 {
		return "hard-v1"
	}
	return "hard"
}

// Resolve implements Bot: the best-value choice, as the greedy bot makes
// it (a batch's order is worth little search).
func (Search) Resolve(s *engine.State, seat int, r *engine.Rand) []engine.Act {
	return Greedy{}.Resolve(s, seat, r)
}

// Move implements Bot.
func (sr Search) Move(s *engine.State, r *engine.Rand) (engine.Move, error) {
	c, err := sr.Think(s, r)
	return c.Move, err
}

// Choice is a searched move with what the search learned of it.
type Choice struct {
	Move engine.Move
	// Value is the move's mean result over the games played out after it
	// (the search's reward: 1 won them all, 0 lost them all), Won the
	// share of them it won (a shared first place counting its share),
	// Visits how many those were, of Iterations in all. A move found by
	// solving the endgame exactly is Solved and counts as one game, of
	// one: its Value and Won are those of best play by both sides (Won 1
	// a win, ½ a shared first place, 0 a loss).
	Value      float64
	Won        float64
	Visits     int
	Iterations int
	Solved     bool
}

// Think searches the current player's move.
func (sr Search) Think(s *engine.State, r *engine.Rand) (Choice, error) {
	seat := s.Current()
	t := newTree(s.Players())
	t.guided = sr.Version != 1
	sp := s.Sampler(seat)
	defer sp.Close()
	var deadline time.Time
	if sr.Iterations <= 0 {
		budget := sr.Budget
		if budget <= 0 {
			budget = DefaultBudget
		}
		if t.guided {
			budget = sr.share(s, budget)
		}
		// A fiftieth is kept for what follows the last iteration (the
		// acts of the move chosen, the tree let go), so that the whole
		// move stays within the budget.
		deadline = time.Now().Add(budget - budget/50)
	}
	if t.guided && known(s) {
		// Nothing is hidden: the sample is the position itself. Half the
		// time is the exact search's; when that is not enough, the rest
		// is the tree's.
		end := deadline
		if !end.IsZero() {
			end = time.Now().Add(time.Until(deadline) / 2)
		}
		if c, ok := sr.solve(sp.Sample(r), end); ok {
			return c, nil
		}
	}
	n := 0
	for ; sr.Iterations <= 0 || n < sr.Iterations; n++ {
		if n%16 == 0 && n > 0 && (sr.Iterations <= 0 && time.Now().After(deadline) || closed(sr.Stop)) {
			break
		}
		st := sp.Sample(r)
		st.ResolveAll() // others' pending choices, as they would likely make them
		t.iters = n
		t.iterate(st, r)
	}
	best := -1 // in the root's children
	root := t.nodes[0].child
	for j, ci := range root {
		if best < 0 || t.nodes[ci].visits > t.nodes[root[best]].visits {
			best = j
		}
	}
	if best < 0 {
		return Choice{}, ErrNoMove
	}
	b := &t.nodes[root[best]]
	m := t.moves[best]
	m.Acts = ownActs(s, seat, m)
	return Choice{Move: m, Value: b.reward / float64(b.visits), Won: b.won / float64(b.visits), Visits: int(b.visits), Iterations: n}, nil
}

// solvedMoves is how many of a two-player game's last moves the exact
// search solves in a small part of their budget (measured at 200 ms and
// more: the last two; the one before them, with six plies left, takes the
// whole budget). A seat's last three moves are the ones with nothing
// hidden: its hand of three once every pile is empty.
const solvedMoves = 2

// share is the thinking time of a move of s for a Budget of budget a
// move: budget itself, except in a two-player game before nothing is
// hidden, whose moves share what the solved ones leave unused. A seat of n
// moves then thinks (n − ½)·budget in all before its last two moves; in
// the games cmd/botmatch measures those take under half a budget together,
// so that the seat's game stays within n·budget.
func (Search) share(s *engine.State, budget time.Duration) time.Duration {
	n := s.TotalTurns() / s.Players()
	early := n - 3 // the seat's moves before nothing is hidden
	if s.Players() != 2 || known(s) || early <= 0 {
		return budget
	}
	return budget * time.Duration(2*(early+solvedMoves)-1) / time.Duration(2*early)
}

// closed reports whether c (nil: never) is closed.
func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// ownActs is the best-value order of seat's own edges that m fires.
func ownActs(s *engine.State, seat int, m engine.Move) []engine.Act {
	edges, err := s.Fired(m.Placement, m.Fills)
	if err != nil {
		return nil
	}
	var mine []engine.Edge
	for _, e := range edges {
		if e.Owner == seat && e.Jungle != engine.NoJungle {
			mine = append(mine, e)
		}
	}
	return engine.BestActs(*s.Player(seat), mine)
}

// tree is the search's one tree over all the deals. Node 0 is the root;
// a node stands for a move, made by mover, after the moves above it.
type tree struct {
	nodes []node
	moves []engine.Move // the root's children's moves, in their order
	// root lists the root's moves: the same in every deal (they depend on
	// the seat's own hand, the board and the display only).
	root []cand
	// per-iteration buffers
	legal  []engine.Placement
	fills  []engine.Fill
	cand   []cand
	set    keySet
	path   []int32
	reward []float64
	won    []float64
	scores []engine.Score
	none   map[int][]engine.Act
	random Random
	// guided is the current version's search (guide.go); false: hard-v1.
	guided bool
	iters  int       // iterations before this one: the root's visits
	logs   []float64 // logs[n] is math.Log(n), for n up to the largest avail
	prior  []int32   // the root's moves (indices of root), best first by the greedy bot's values
	guide  guide
}

type node struct {
	key    uint64
	mover  int8
	visits int32
	avail  int32
	reward float64 // the sum of the mover's results
	won    float64 // the sum of the mover's shares of a win
	child  []int32
}

// cand is a move legal in the deal being searched.
type cand struct {
	key   uint64
	pl    engine.Placement
	fills []engine.Fill // within tree.fills
}

func newTree(players int) *tree {
	return &tree{nodes: []node{{mover: -1}}, reward: make([]float64, players), won: make([]float64, players), none: map[int][]engine.Act{}, logs: []float64{math.Log(0), math.Log(1)}}
}

// iterate runs one iteration on st, a deal of the root position.
func (t *tree) iterate(st *engine.State, r *engine.Rand) {
	t.path = append(t.path[:0], 0)
	at := int32(0)
	for !st.Over() {
		var cands []cand
		if at == 0 {
			if t.root == nil {
				t.root = slices.Clone(t.candidates(st))
				for i := range t.root {
					t.root[i].fills = slices.Clone(t.root[i].fills)
				}
				if t.guided {
					t.prior = rankRoot(st, t.root)
				}
			}
			cands = t.root
		} else {
			cands = t.candidates(st)
		}
		if len(cands) == 0 {
			return // cannot happen (ErrNoMove); the deal is skipped
		}
		t.set.reset()
		for i := range cands {
			t.set.put(cands[i].key, int32(i))
		}
		// The children legal in this deal are available; the moves without
		// a child are untried.
		untried := len(cands)
		best, bestScore, bestCand := int32(-1), math.Inf(-1), int32(-1)
		for _, ci := range t.nodes[at].child {
			c := &t.nodes[ci]
			k := t.set.get(c.key)
			if k < 0 {
				continue
			}
			t.set.mark(c.key)
			untried--
			c.avail++
			if int(c.avail) == len(t.logs) { // avail grows by one at a time
				t.logs = append(t.logs, math.Log(float64(c.avail)))
			}
			score := c.reward/float64(c.visits) + exploration*math.Sqrt(t.logs[c.avail]/float64(c.visits))
			if score > bestScore {
				best, bestScore, bestCand = ci, score, k
			}
		}
		mover := st.Current()
		if t.guided && untried > 0 && len(cands)-untried < t.width(at) {
			i := t.expansion(st, at, cands, untried, r)
			at = t.add(at, cands[i], mover)
			t.play(st, cands[i].pl, cands[i].fills)
			t.path = append(t.path, at)
			break
		}
		if !t.guided && untried > 0 {
			k := r.Intn(untried)
			for i := range cands {
				if t.set.marked(cands[i].key) {
					continue
				}
				if k == 0 {
					at = t.add(at, cands[i], mover)
					t.play(st, cands[i].pl, cands[i].fills)
					break
				}
				k--
			}
			t.path = append(t.path, at)
			break
		}
		at = best
		t.play(st, cands[bestCand].pl, cands[bestCand].fills)
		t.path = append(t.path, at)
	}
	if t.guided {
		t.guide.playout(st, r, t.none)
	} else {
		t.playout(st, r)
	}
	t.score(st)
	for _, ni := range t.path[1:] {
		n := &t.nodes[ni]
		n.visits++
		n.reward += t.reward[n.mover]
		n.won += t.won[n.mover]
	}
}

// add makes the child of parent for move c by mover and returns it.
func (t *tree) add(parent int32, c cand, mover int) int32 {
	i := int32(len(t.nodes))
	t.nodes = append(t.nodes, node{key: c.key, mover: int8(mover), avail: 1})
	t.nodes[parent].child = append(t.nodes[parent].child, i)
	if parent == 0 {
		t.moves = append(t.moves, engine.Move{Placement: c.pl, Fills: slices.Clone(c.fills)})
	}
	return i
}

func (t *tree) play(st *engine.State, pl engine.Placement, fills []engine.Fill) {
	// Batches of others resolve at once with the default order (Reactions
	// set): a deal has nobody to wait for.
	if _, err := st.Play(st.Current(), engine.Move{Placement: pl, Fills: fills, Reactions: t.none}); err != nil {
		panic("bot: the engine refused its own legal move: " + err.Error())
	}
}

// playout plays st to the end at random.
func (t *tree) playout(st *engine.State, r *engine.Rand) {
	for !st.Over() {
		m, err := t.random.Move(st, r)
		if err != nil {
			return
		}
		m.Reactions = t.none
		if _, err := st.Play(st.Current(), m); err != nil {
			panic("bot: the engine refused its own legal move: " + err.Error())
		}
	}
}

// score sets t.reward to each seat's result of the finished deal st
// (reward) and t.won to its share of the win.
func (t *tree) score(st *engine.State) {
	t.scores = st.Scores(t.scores) // not st.Score: a search scores many positions
	for i := range t.scores {
		t.reward[i], t.won[i] = result(t.scores, i)
	}
}

// reward is seat's result of a finished game with scores (see result).
func reward(scores []engine.Score, seat int) float64 {
	r, _ := result(scores, seat)
	return r
}

// Rewards of note: a win alone is worth at least winReward, a loss less
// than 1 - winReward; two players sharing the first place get tieReward.
const (
	winReward = 0.9
	tieReward = 0.5
)

// result is seat's reward for a finished game with scores, in [0, 1]:
// mostly its share of the win, and a little for its margin over the best
// other total, within ±20 points, so that a game won (or lost) anyway is
// still played well, a lead kept and a loss limited. With two players the
// rewards add up to 1. won is the share of the win.
func result(scores []engine.Score, seat int) (reward, won float64) {
	winners := 0
	for _, sc := range scores {
		if wins(scores, sc) {
			winners++
		}
	}
	sc := scores[seat]
	best := math.MinInt
	for j, o := range scores {
		if j != seat && o.Total > best {
			best = o.Total
		}
	}
	if wins(scores, sc) {
		won = 1 / float64(winners)
	}
	margin := min(max(float64(sc.Total-best)/40, -0.5), 0.5)
	return 0.9*won + 0.1*(0.5+margin), won
}

// wins reports whether sc is among the winners of scores (engine.Winners,
// without a slice): no seat ranks ahead of it.
func wins(scores []engine.Score, sc engine.Score) bool {
	for _, b := range scores {
		if b.Ahead(sc) {
			return false
		}
	}
	return true
}

// candidates lists the moves legal in st.
func (t *tree) candidates(st *engine.State) []cand {
	t.legal = st.LegalPlacements(t.legal[:0])
	t.fills = t.fills[:0]
	t.cand = t.cand[:0]
	// Every tile laid on one cell fills the same cells: its options are
	// listed once per cell.
	var cell engine.Cell
	from, width, have := 0, 0, false
	for _, pl := range t.legal {
		if pl.Overbuild {
			t.cand = append(t.cand, cand{key: keyOf(pl, nil), pl: pl})
			continue
		}
		if !have || pl.At != cell {
			cell, have = pl.At, true
			from = len(t.fills)
			t.fills, width = st.AppendFillOptions(pl.At, t.fills)
		}
		if width == 0 {
			t.cand = append(t.cand, cand{key: keyOf(pl, nil), pl: pl})
			continue
		}
		for o := from; o < len(t.fills); o += width {
			f := t.fills[o : o+width : o+width]
			t.cand = append(t.cand, cand{key: keyOf(pl, f), pl: pl, fills: f})
		}
	}
	// t.fills may have moved while growing: the slices above point into
	// its older arrays, which stay valid until the next call.
	return t.cand
}

// keyOf packs a move into 64 bits: tile 2, rotation 2, overbuild 1, x and y
// 8 each, then up to three fills of 7 bits (the side of the tile the filled
// cell is on, 2; the display tile's kind, 4, or 0 for the pile's; 1 set).
func keyOf(pl engine.Placement, fills []engine.Fill) uint64 {
	k := uint64(pl.Tile) | uint64(pl.Rot)<<2 | uint64(pl.At.X+128)<<5 | uint64(pl.At.Y+128)<<13
	if pl.Overbuild {
		k |= 1 << 21
	}
	for i, f := range fills {
		side := uint64(0) // N
		switch f.At {
		case pl.At.Step(engine.E):
			side = uint64(engine.E)
		case pl.At.Step(engine.S):
			side = uint64(engine.S)
		case pl.At.Step(engine.W):
			side = uint64(engine.W)
		}
		tile := uint64(0)
		if !f.FromPile {
			tile = uint64(f.Tile)
		}
		k |= (1 | side<<1 | tile<<3) << (22 + 7*i)
	}
	return k
}

// keySet finds a move's candidate by its key: open addressing, emptied in
// O(1) by moving to a new generation.
type keySet struct {
	gen   uint32
	slots [keySlots]struct {
		key  uint64
		gen  uint32
		idx  int32
		mark bool
	}
}

// keySlots is well above the most moves a position offers (about 30
// cells, 9 tile turns and 6 fill options at the very worst).
const keySlots = 1 << 13

func (ks *keySet) reset() { ks.gen++ }

func (ks *keySet) slot(key uint64) int {
	h := int((key * 0x9e3779b97f4a7c15) >> (64 - 13))
	for {
		e := &ks.slots[h]
		if e.gen != ks.gen || e.key == key {
			return h
		}
		h = (h + 1) & (keySlots - 1)
	}
}

func (ks *keySet) put(key uint64, idx int32) {
	e := &ks.slots[ks.slot(key)]
	e.key, e.gen, e.idx, e.mark = key, ks.gen, idx, false
}

// get returns the index put with key, or -1.
func (ks *keySet) get(key uint64) int32 {
	e := &ks.slots[ks.slot(key)]
	if e.gen != ks.gen {
		return -1
	}
	return e.idx
}

func (ks *keySet) mark(key uint64) { ks.slots[ks.slot(key)].mark = true }

func (ks *keySet) marked(key uint64) bool {
	e := &ks.slots[ks.slot(key)]
	return e.gen == ks.gen && e.mark
}
