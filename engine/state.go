package engine

import (
	"errors"
	"fmt"
	"math/bits"
	"sync/atomic"
)

// Setup fixes everything chance decides in a game: the jungle pile (top first,
// start tiles excluded; its first two tiles become the display) and each
// seat's worker pile (top first; the first three are the starting hand).
type Setup struct {
	Jungle  []Jungle
	Workers [][]Worker
}

// Player is one seat's village and tiles. Hand holds the count of each worker
// kind in hand; the pile is private and only its size is exported.
type Player struct {
	Gold  int
	Fruit int
	Sun   int
	// Water is the carrier's field on the water track (0..8); WaterValue gives its value.
	Water int
	Hand  [NumWorkerKinds]int
	// AutoDecide is the standing policy "always decide for me": batches that
	// reach the head of the queue are resolved at once with the best-value choice.
	AutoDecide bool

	pile  []Worker // shared between clones, never written
	ppos  int
	queue []Batch
}

// WaterValue is the value of the carrier's field.
func (p *Player) WaterValue() int { return waterTrack[p.Water] }

// HandSize is the number of tiles in hand.
func (p *Player) HandSize() int {
	n := 0
	for _, c := range p.Hand {
		n += c
	}
	return n
}

// PileSize is the number of tiles left in the private pile.
func (p *Player) PileSize() int { return len(p.pile) - p.ppos }

// HandTiles lists the hand in kind order.
func (p *Player) HandTiles() []Worker {
	var out []Worker
	for w, c := range p.Hand {
		for i := 0; i < c; i++ {
			out = append(out, Worker(w))
		}
	}
	return out
}

// Queue returns the batches waiting for this player, head first. The slice
// must not be modified.
func (p *Player) Queue() []Batch { return p.queue }

// State is a position of a game: board, piles, display and villages, whose
// turn it is, and each player's queue of pending batches. A State is not safe
// for concurrent use; Clone it to hand a copy to another goroutine.
//
// Methods that change the state (Play, Resolve) validate everything first and
// return an error without changing anything when the action is illegal.
type State struct {
	n       int
	total   int // turns in the whole game
	first   int
	current int
	turns   int

	board  *board
	pieces []piece
	// front lists the empty worker cells touching a jungle tile, in no
	// particular order, kept up to date by put.
	front []Cell

	jungle  []Jungle // the pile, shared between clones, never written
	jpos    int
	display [DisplaySize]Jungle
	ndisp   int

	players []Player

	scratch scratch
}

// scratchInit backs a new state's scratch buffers in one allocation, sized
// for ordinary turns (they grow when a turn needs more).
type scratchInit struct {
	fired [16]Edge
	own   [16]Edge
	acts  [32]Act
	fills [4]Fill
	res   [4]Resolution
}

func newScratch() scratch {
	b := new(scratchInit)
	return scratch{fired: b.fired[:0], own: b.own[:0], acts: b.acts[:0], fills: b.fills[:0], res: b.res[:0]}
}

// scratch holds buffers reused between turns; never shared by clones.
type scratch struct {
	fired []Edge
	own   []Edge
	acts  []Act // arena for the explicit acts of one call (see Outcome)
	fills []Fill
	res   []Resolution
}

// Errors returned by the engine. Illegal actions are reported with sentences a
// player understands; these sentinels let callers tell the kinds apart.
var (
	ErrSetup   = errors.New("engine: invalid setup")
	ErrIllegal = errors.New("engine: illegal move")
)

// IllegalError is an illegal action with the reason in player's words.
// Format and Args are the reason's message and its arguments, for a site
// that tells it in another language.
type IllegalError struct {
	Reason string
	Format string
	Args   []any
}

func (e *IllegalError) Error() string { return e.Reason }

// Is makes errors.Is(err, ErrIllegal) true for every IllegalError.
func (e *IllegalError) Is(target error) bool { return target == ErrIllegal }

func illegal(format string, args ...any) error {
	return &IllegalError{Reason: fmt.Sprintf(format, args...), Format: format, Args: args}
}

// NewSetup shuffles the tiles for n players from seed, deterministically:
// the same seed gives the same setup on every machine.
func NewSetup(n int, seed uint64) (Setup, error) {
	if n < 2 || n > 4 {
		return Setup{}, fmt.Errorf("%w: 2-4 players", ErrSetup)
	}
	r := NewRand(seed)
	s := Setup{Jungle: JungleSet(n)}
	r.shuffleJungle(s.Jungle)
	for i := 0; i < n; i++ {
		w := WorkerSet(n)
		r.shuffleWorkers(w)
		s.Workers = append(s.Workers, w)
	}
	return s, nil
}

// Validate checks that the piles hold exactly the tiles of the player count.
func (su Setup) Validate() error {
	n := len(su.Workers)
	if n < 2 || n > 4 {
		return fmt.Errorf("%w: 2-4 players", ErrSetup)
	}
	var want, got [numJungle]int
	total := 0
	for j := P1; j < numJungle; j++ {
		want[j] = jungleKinds[j].Count
		if n == 2 {
			want[j] = jungleKinds[j].Count2
		}
		if j == P1 || j == M2 {
			want[j]-- // start tiles
		}
		total += want[j]
	}
	for _, j := range su.Jungle {
		if j == NoJungle || j >= numJungle {
			return fmt.Errorf("%w: unknown jungle tile", ErrSetup)
		}
		got[j]++
	}
	if want != got {
		return fmt.Errorf("%w: the jungle pile must hold exactly the %d jungle tiles of a %d-player game (start tiles excluded)", ErrSetup, total, n)
	}
	var wantW [numWorker]int
	totalW := 0
	for w := Worker(0); w < numWorker; w++ {
		wantW[w] = workerKinds[w].PerPlayer[n-2]
		totalW += wantW[w]
	}
	for i, ws := range su.Workers {
		var gotW [numWorker]int
		for _, w := range ws {
			if w >= numWorker {
				return fmt.Errorf("%w: unknown worker tile", ErrSetup)
			}
			gotW[w]++
		}
		if gotW != wantW {
			return fmt.Errorf("%w: seat %d's worker pile must hold exactly the %d worker tiles of a %d-player game", ErrSetup, i, totalW, n)
		}
	}
	return nil
}

// New starts a game from a setup with first to play. The setup's slices are
// kept and never modified.
func New(su Setup, first int) (*State, error) {
	s := &State{board: new(board), scratch: newScratch()}
	if err := s.Reset(su, first); err != nil {
		return nil, err
	}
	return s, nil
}

// Reset starts a new game on s, as New does, reusing s's memory: a
// simulation that plays many games (a bot's search, a benchmark) need not
// allocate a board per game. On error s is unchanged.
func (s *State) Reset(su Setup, first int) error {
	if err := su.Validate(); err != nil {
		return err
	}
	n := len(su.Workers)
	if first < 0 || first >= n {
		return fmt.Errorf("%w: first player must be a seat of the game", ErrSetup)
	}
	if s.board == nil {
		s.board = new(board)
	}
	s.ownBoard()
	for _, p := range s.pieces {
		s.board.cells[index(p.at)] = 0
	}
	pieces, front, players, sc, b := s.pieces[:0], s.front[:0], s.players, s.scratch, s.board
	*s = State{n: n, total: n * len(su.Workers[0]), first: first, current: first, jungle: su.Jungle, board: b, scratch: sc}
	if need := 2 + len(su.Jungle) + n*len(su.Workers[0]) + 8; cap(pieces) < need {
		// Start tiles, the jungle pile, every worker tile and room for overbuilds.
		pieces = make([]piece, 0, need)
	}
	if front == nil {
		front = make([]Cell, 0, 32)
	}
	if s.scratch.acts == nil {
		s.scratch = newScratch()
	}
	s.pieces, s.front = pieces, front
	s.put(piece{at: startP1, jungle: P1, owner: -1})
	s.put(piece{at: startM2, jungle: M2, owner: -1})
	s.refill()
	if cap(players) < n {
		players = make([]Player, n)
	}
	s.players = players[:n]
	for i := range s.players {
		s.players[i] = Player{pile: su.Workers[i]}
		p := &s.players[i]
		for k := 0; k < HandSize && p.ppos < len(p.pile); k++ {
			p.Hand[p.pile[p.ppos]]++
			p.ppos++
		}
	}
	return nil
}

// put lays a piece on top of its cell and returns its index.
func (s *State) put(p piece) int {
	s.pieces = append(s.pieces, p)
	i := len(s.pieces) - 1
	s.ownBoard()
	s.board.set(p.at, uint8(i+1))
	if p.isWorker() {
		for k, c := range s.front {
			if c == p.at {
				last := len(s.front) - 1
				s.front[k] = s.front[last]
				s.front = s.front[:last]
				break
			}
		}
		return i
	}
	// Each empty neighbour joins the frontier unless another jungle tile
	// already put it there (its neighbours are jungle cells: the chessboard).
	cells := &s.board.cells
	pi := index(p.at)
	for d := N; d <= W; d++ {
		ci := pi + stepIdx[d]
		if cells[ci] != 0 {
			continue
		}
		known := false
		for e := N; e <= W; e++ {
			if e != d.Opposite() && cells[ci+stepIdx[e]] != 0 {
				known = true
				break
			}
		}
		if !known {
			s.front = append(s.front, p.at.Step(d))
		}
	}
	return i
}

// at returns the top piece on c, or nil.
func (s *State) at(c Cell) *piece {
	v := s.board.get(c)
	if v == 0 {
		return nil
	}
	return &s.pieces[v-1]
}

// refill tops the display up from the jungle pile.
func (s *State) refill() {
	for s.ndisp < DisplaySize && s.jpos < len(s.jungle) {
		s.display[s.ndisp] = s.jungle[s.jpos]
		s.ndisp++
		s.jpos++
	}
}

// Clone returns an independent copy of s.
func (s *State) Clone() *State {
	c := new(State)
	s.copyTo(c)
	atomic.StoreInt32(&s.board.shared, 1)
	c.board = s.board
	return c
}

// copyTo makes c a copy of s that shares nothing it may write but the
// board: c keeps its own board and scratch buffers, and reuses its lists.
func (s *State) copyTo(c *State) {
	pieces, front, players, b, sc := c.pieces[:0], c.front[:0], c.players[:0], c.board, c.scratch
	if cap(pieces) < cap(s.pieces) {
		pieces = make([]piece, 0, cap(s.pieces)) // room for the tiles to come
	}
	*c = *s
	c.board, c.scratch = b, sc
	c.pieces = append(pieces, s.pieces...)
	c.front = append(front, s.front...)
	c.players = append(players, s.players...)
	for i := range c.players {
		if q := c.players[i].queue; len(q) > 0 {
			c.players[i].queue = append([]Batch(nil), q...)
		}
	}
}

// ownBoard makes s's board its own before s writes it: a board a clone
// shares is copied first.
func (s *State) ownBoard() {
	if atomic.LoadInt32(&s.board.shared) == 0 {
		return
	}
	b := boards.Get().(*board)
	b.cells, b.shared = s.board.cells, 0
	s.board = b
}

// drop gives s's board back for reuse when no other state shares it; s
// must not be used again.
func (s *State) drop() {
	if s.board != nil && atomic.LoadInt32(&s.board.shared) == 0 {
		boards.Put(s.board)
	}
	s.board = nil
}

// Players is the number of seats.
func (s *State) Players() int { return s.n }

// First is the seat that played first.
func (s *State) First() int { return s.first }

// Current is the seat whose turn it is (meaningless once Over).
func (s *State) Current() int { return s.current }

// Turns is the number of turns played.
func (s *State) Turns() int { return s.turns }

// Player returns seat i's village. The pointer must not be used to change the state.
func (s *State) Player(i int) *Player { return &s.players[i] }

// Display returns the face-up jungle tiles in display order.
func (s *State) Display() []Jungle { return append([]Jungle(nil), s.display[:s.ndisp]...) }

// JunglePile is the number of tiles left in the jungle pile.
func (s *State) JunglePile() int { return len(s.jungle) - s.jpos }

// Over reports whether every hand and pile is empty: no turn is left to play
// (every turn lays one tile, so that is after TotalTurns turns). Final scoring
// may still wait for pending batches (see Pending).
func (s *State) Over() bool { return s.turns >= s.total }

// TotalTurns is the number of turns a game with this setup lasts.
func (s *State) TotalTurns() int { return s.total }

// Pending reports whether any player has a batch waiting for a decision.
func (s *State) Pending() bool {
	for i := range s.players {
		if len(s.players[i].queue) > 0 {
			return true
		}
	}
	return false
}

// Rand is the engine's deterministic pseudo-random generator (SplitMix64),
// fixed here so that seeds give the same games on every platform and Go version.
type Rand struct{ s uint64 }

// NewRand returns a generator seeded with seed.
func NewRand(seed uint64) *Rand { return &Rand{s: seed} }

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Intn returns a uniform number in [0, n); n must be positive.
func (r *Rand) Intn(n int) int {
	// Lemire's multiply-shift with rejection keeps it unbiased.
	bound := uint64(n)
	for {
		hi, lo := bits.Mul64(r.Uint64(), bound)
		if lo >= bound || lo >= (-bound)%bound {
			return int(hi)
		}
	}
}

func (r *Rand) shuffleJungle(a []Jungle) {
	for i := len(a) - 1; i > 0; i-- {
		j := r.Intn(i + 1)
		a[i], a[j] = a[j], a[i]
	}
}

func (r *Rand) shuffleWorkers(a []Worker) {
	for i := len(a) - 1; i > 0; i-- {
		j := r.Intn(i + 1)
		a[i], a[j] = a[j], a[i]
	}
}

// Occupied reports whether any tile lies on c.
func (s *State) Occupied(c Cell) bool { return s.board.get(c) != 0 }

// JungleAt returns the jungle tile on c, or NoJungle when c is empty or holds
// a worker tile. Like Occupied it shows only the board, which every seat sees.
func (s *State) JungleAt(c Cell) Jungle {
	if v := s.board.get(c); v != 0 {
		return s.pieces[v-1].jungle
	}
	return NoJungle
}
