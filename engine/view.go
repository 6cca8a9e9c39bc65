package engine

// Spectator is the viewer seat of someone who plays no seat in the game.
const Spectator = -1

// TileView is a tile on the board as anyone may see it. Covered is true for a
// worker tile lying under an overbuild (it no longer counts).
type TileView struct {
	At      Cell
	Jungle  Jungle // NoJungle for a worker tile
	Worker  Worker
	Owner   int // -1 for jungle tiles
	Rot     int
	Edges   [4]int
	Fired   [4]bool
	Covered bool
}

// SeatView is one seat's public village: resources, the water field and its
// value, how many tiles are in hand and pile, and how many batches wait.
type SeatView struct {
	Seat          int
	Gold          int
	Fruit         int
	Sun           int
	WaterField    int
	Water         int
	Hand          int
	Pile          int
	Pending       int
	NeedsDecision bool
}

// View is everything one viewer may see of a game: the board, the display,
// the jungle pile's size, every seat's public village, and the viewer's own
// hand, pending batches and legal placements. It never holds another seat's
// hand, any pile's order or the seed.
type View struct {
	Viewer       int
	Players      int
	First        int
	Current      int
	Turns        int
	TotalTurns   int
	Over         bool // no turn left to play
	Final        bool // over and every batch resolved: Result is final
	Tiles        []TileView
	Display      []Jungle
	JunglePile   int
	Seats        []SeatView
	Hand         []Worker
	Queue        []Batch
	Legal        []Placement
	CanOverbuild bool
	Result       Result
}

// View returns what viewer (a seat, or Spectator) may see. Every page and
// fragment of the site is built from it.
func (s *State) View(viewer int) View {
	v := View{
		Viewer: viewer, Players: s.n, First: s.first, Current: s.current, Turns: s.turns,
		TotalTurns: s.TotalTurns(), Over: s.Over(), Display: s.Display(), JunglePile: s.JunglePile(),
		Result: s.Score(),
	}
	v.Final = v.Over && !s.Pending()
	v.Tiles = make([]TileView, 0, len(s.pieces))
	for i := range s.pieces {
		p := &s.pieces[i]
		// The board holds each cell's top piece.
		t := TileView{At: p.at, Jungle: p.jungle, Worker: p.worker, Owner: int(p.owner), Rot: int(p.rot), Covered: int(s.board.get(p.at)) != i+1}
		for d := 0; d < 4; d++ {
			t.Edges[d] = int(p.edges[d])
			t.Fired[d] = p.fired&(1<<d) != 0
		}
		v.Tiles = append(v.Tiles, t)
	}
	v.Seats = make([]SeatView, 0, len(s.players))
	for i := range s.players {
		p := &s.players[i]
		sv := SeatView{Seat: i, Gold: p.Gold, Fruit: p.Fruit, Sun: p.Sun, WaterField: p.Water, Water: p.WaterValue(),
			Hand: p.HandSize(), Pile: p.PileSize(), Pending: len(p.queue)}
		if len(p.queue) > 0 {
			sv.NeedsDecision = p.NeedsDecision(p.queue[0])
		}
		v.Seats = append(v.Seats, sv)
	}
	if viewer >= 0 && viewer < s.n {
		p := &s.players[viewer]
		v.Hand = p.HandTiles()
		v.Queue = append([]Batch(nil), p.queue...)
		if viewer == s.current && !v.Over {
			v.Legal = s.LegalPlacements(make([]Placement, 0, s.legalCap()))
			v.CanOverbuild = s.CanOverbuild()
		}
	}
	return v
}
