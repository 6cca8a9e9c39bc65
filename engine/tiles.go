package engine

import "fmt"

// Side is one of the four edges of a cell: N, E, S, W, in clockwise order.
type Side uint8

// The four sides, clockwise from north.
const (
	N Side = iota
	E
	S
	W
)

var sideNames = [4]string{"N", "E", "S", "W"}

// String returns "N", "E", "S" or "W".
func (d Side) String() string {
	if d > W {
		return fmt.Sprintf("Side(%d)", uint8(d))
	}
	return sideNames[d]
}

// Opposite returns the side facing d across an edge (N↔S, E↔W).
func (d Side) Opposite() Side { return (d + 2) & 3 }

// ParseSide reads "N", "E", "S" or "W".
func ParseSide(s string) (Side, bool) {
	for i, n := range sideNames {
		if n == s {
			return Side(i), true
		}
	}
	return 0, false
}

// Cell is a board position: x grows east, y grows south. Jungle tiles lie on
// cells with x+y even, worker tiles on cells with x+y odd.
type Cell struct{ X, Y int }

// Step returns the neighbour of c on side d.
func (c Cell) Step(d Side) Cell { return Cell{c.X + stepX[d&3], c.Y + stepY[d&3]} }

var (
	stepX = [4]int{0, 1, 0, -1}
	stepY = [4]int{-1, 0, 1, 0}
)

// IsJungleCell reports whether c is a cell on which only jungle tiles lie.
func (c Cell) IsJungleCell() bool { return (c.X+c.Y)&1 == 0 }

// Less orders cells by row (y) then column (x): the order used for defaults.
func (c Cell) Less(o Cell) bool {
	if c.Y != o.Y {
		return c.Y < o.Y
	}
	return c.X < o.X
}

// String returns "[x,y]".
func (c Cell) String() string { return fmt.Sprintf("[%d,%d]", c.X, c.Y) }

// Effect is what a jungle tile does for the workers that face it.
type Effect uint8

// The effects of the base game's jungle tiles.
const (
	Plantation Effect = iota // +Value fruit per worker, storage capped
	Market                   // sell 1 fruit per worker at Value gold
	Mine                     // +Value gold per worker
	Water                    // carrier 1 field forward per worker
	SunSite                  // +1 sun token per worker, capped
	Temple                   // nothing during play; majority at the end
)

// Jungle identifies a kind of jungle tile. The zero value means "no tile".
type Jungle uint8

// The base game's jungle tile kinds. Jungle.Kind gives each one's data.
const (
	NoJungle Jungle = iota
	P1
	P2
	M2
	M3
	M4
	G1
	G2
	WaterTile
	Sun
	TempleTile
	numJungle
)

// NumJungleKinds is the number of jungle tile kinds (P1 to TempleTile are
// 1 to NumJungleKinds).
const NumJungleKinds = int(numJungle) - 1

// JungleKind describes a jungle tile kind as data: its notation code, its
// effect and value, how many a game uses, and its rank in the default order
// in which activated edges are resolved (the package doc's Records).
type JungleKind struct {
	Code   string
	Name   string
	Effect Effect
	Value  int
	// Count is the number of tiles in the box (3–4 players); Count2 for 2 players.
	Count, Count2 int
	// Rank orders edges by category when choices are left to the default.
	Rank int
}

// jungleKinds is the data table of jungle tiles, indexed by Jungle. It is
// unexported so that no other package can change the rules: Kind hands out
// copies of its rows.
var jungleKinds = [numJungle]JungleKind{
	NoJungle:   {Code: "", Name: "empty"},
	P1:         {"P1", "plantation", Plantation, 1, 6, 4, 0},
	P2:         {"P2", "double plantation", Plantation, 2, 2, 2, 0},
	M2:         {"M2", "market (2)", Market, 2, 2, 2, 6},
	M3:         {"M3", "market (3)", Market, 3, 4, 3, 5},
	M4:         {"M4", "market (4)", Market, 4, 1, 1, 4},
	G1:         {"G1", "gold mine", Mine, 1, 2, 1, 1},
	G2:         {"G2", "gold mine (2)", Mine, 2, 1, 1, 1},
	WaterTile:  {"W", "water", Water, 1, 3, 2, 2},
	Sun:        {"S", "sun-worshipping site", SunSite, 1, 2, 1, 3},
	TempleTile: {"T", "temple", Temple, 0, 5, 4, 7},
}

// String returns the notation code, e.g. "M3".
func (j Jungle) String() string {
	if j >= numJungle {
		return fmt.Sprintf("Jungle(%d)", uint8(j))
	}
	return jungleKinds[j].Code
}

// Kind returns the data of j, a copy: changing it changes no rule.
func (j Jungle) Kind() JungleKind { return jungleKinds[j] }

// ParseJungle reads a jungle tile code ("P1", "M3", "W", ...).
func ParseJungle(s string) (Jungle, bool) {
	for j := P1; j < numJungle; j++ {
		if jungleKinds[j].Code == s {
			return j, true
		}
	}
	return NoJungle, false
}

// The start tiles' cells: the plantation at (0,0) and the price-2 market at (1,1).
var (
	startP1 = Cell{0, 0}
	startM2 = Cell{1, 1}
)

// Worker identifies a kind of worker tile.
type Worker uint8

// The base game's worker tile kinds. Worker.Kind gives each one's data.
const (
	W1111 Worker = iota
	W2101
	W3001
	W3100
	numWorker
)

// NumWorkerKinds is the number of worker tile kinds.
const NumWorkerKinds = int(numWorker)

// WorkerKind describes a worker tile kind as data: its name (the worker
// counts N, E, S, W unrotated) and how many each player has by player count.
type WorkerKind struct {
	Name  string
	Edges [4]uint8
	// PerPlayer[n-2] is each player's number of this tile with n players.
	PerPlayer [3]int
}

// workerKinds is the data table of worker tiles, indexed by Worker,
// unexported like jungleKinds: Kind hands out copies of its rows.
var workerKinds = [numWorker]WorkerKind{
	W1111: {"1111", [4]uint8{1, 1, 1, 1}, [3]int{4, 3, 3}},
	W2101: {"2101", [4]uint8{2, 1, 0, 1}, [3]int{5, 5, 4}},
	W3001: {"3001", [4]uint8{3, 0, 0, 1}, [3]int{1, 1, 1}},
	W3100: {"3100", [4]uint8{3, 1, 0, 0}, [3]int{1, 1, 1}},
}

// String returns the tile's name, e.g. "2101".
func (w Worker) String() string {
	if w >= numWorker {
		return fmt.Sprintf("Worker(%d)", uint8(w))
	}
	return workerKinds[w].Name
}

// Kind returns the data of w, a copy: changing it changes no rule.
func (w Worker) Kind() WorkerKind { return workerKinds[w] }

// ParseWorker reads a worker tile name ("1111", "2101", "3001", "3100").
func ParseWorker(s string) (Worker, bool) {
	for w := Worker(0); w < numWorker; w++ {
		if workerKinds[w].Name == s {
			return w, true
		}
	}
	return 0, false
}

// Edges returns the worker counts on N, E, S, W of w turned rot quarter turns
// clockwise: what was on N is on E after one turn.
func (w Worker) Edges(rot int) [4]uint8 { return rotatedEdges[w][rot&3] }

// rotatedEdges[w][r] is w's worker counts turned r quarter turns.
var rotatedEdges = func() (t [numWorker][4][4]uint8) {
	for w := range t {
		for r := range t[w] {
			for d := range 4 {
				t[w][r][(d+r)&3] = workerKinds[w].Edges[d]
			}
		}
	}
	return t
}()

// Rotations returns the rotations of w that give distinct tiles, smallest first
// (one for 1111, four for the others), in a slice of the caller's own:
// changing it changes no rule. (At most four ints: inlined, the copy costs
// the caller no allocation.)
func (w Worker) Rotations() []int {
	var r [4]int
	n := copy(r[:], workerRots[w])
	return r[:n:n]
}

var workerRots = func() [numWorker][]int {
	var out [numWorker][]int
	for w := Worker(0); w < numWorker; w++ {
		seen := map[[4]uint8]bool{}
		for r := 0; r < 4; r++ {
			e := w.Edges(r)
			if !seen[e] {
				seen[e] = true
				out[w] = append(out[w], r)
			}
		}
	}
	return out
}()

// WaterTrack is the value of each field of the water track, from the first.
func WaterTrack() []int { return append([]int(nil), waterTrack[:]...) }

// waterTrack is the value of each field of the water track; carriers start
// on field 0. Player.WaterValue reads it.
var waterTrack = [...]int{-10, -4, -1, 0, 2, 4, 7, 11, 16}

// Caps of the village board.
const (
	MaxFruit = 5
	MaxSun   = 3
	HandSize = 3
)

// DisplaySize is the number of face-up jungle tiles after a refill.
const DisplaySize = 2

// Temple awards.
const (
	TempleFirst  = 6
	TempleSecond = 3
)

// JungleSet returns the jungle pile for n players (start tiles excluded), in
// kind order: 19 tiles with 2 players, 26 with 3 or 4.
func JungleSet(n int) []Jungle {
	var out []Jungle
	for j := P1; j < numJungle; j++ {
		c := jungleKinds[j].Count
		if n == 2 {
			c = jungleKinds[j].Count2
		}
		if j == P1 || j == M2 {
			c-- // start tiles
		}
		for i := 0; i < c; i++ {
			out = append(out, j)
		}
	}
	return out
}

// WorkerSet returns one player's worker tiles for n players, in kind order.
func WorkerSet(n int) []Worker {
	var out []Worker
	for w := Worker(0); w < numWorker; w++ {
		for i := 0; i < workerKinds[w].PerPlayer[n-2]; i++ {
			out = append(out, w)
		}
	}
	return out
}
