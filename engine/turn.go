package engine

// Move is a whole turn as the active player submits it: the placement, the
// fill assignment (nil: the default), and the order and use of their own
// activated edges (edges not listed resolve afterwards in the default order
// with all workers).
//
// Reactions, when non-nil, resolves the batches this turn gives other players
// at once, as a game record does: keyed by seat, each list in the same shape
// as Acts; seats not listed use the default. When nil, those batches join
// their owners' queues (the rules' "Choices on other players' turns",
// views/rules/en.html) and resolve through Resolve.
type Move struct {
	Placement
	Fills     []Fill
	Acts      []Act
	Reactions map[int][]Act
}

// Batch is the edges of one player fired on another player's turn, waiting in
// its owner's queue. Edges are in the default order.
type Batch struct {
	Turn  int
	Owner int
	Edges []Edge
}

// Resolution records how a batch (or the active player's own edges) was
// resolved: every fired edge with the workers used, in resolution order.
type Resolution struct {
	Seat int
	Turn int
	Acts []Act
}

// Outcome is what a committed turn did, with every choice explicit: the fills
// (pile tiles revealed), the active player's acts, and the resolutions of
// other players' batches that happened during the turn (immediately, or
// automatically at the head of their queues).
//
// Its slices live in the State's scratch space: they stay valid only until
// the next call that changes the State. Copy what you keep (Game does). This
// keeps a turn nearly allocation-free, which bots and simulations rely on.
type Outcome struct {
	Turn        int
	Seat        int
	Placement   Placement
	Fills       []Fill
	Acts        []Act
	Resolutions []Resolution
}

// Play commits seat's turn. On error nothing changes; the error is an
// *IllegalError whose text a player understands.
func (s *State) Play(seat int, m Move) (Outcome, error) {
	s.scratch.acts = s.scratch.acts[:0]
	if err := s.checkPlacement(seat, m.Placement); err != nil {
		return Outcome{}, err
	}
	pl := m.Placement
	var fills []Fill
	if !pl.Overbuild {
		var err error
		if fills, err = s.checkFills(pl.At, m.Fills, s.scratch.fills[:0]); err != nil {
			return Outcome{}, err
		}
	} else if len(m.Fills) > 0 {
		return Outcome{}, illegal("an overbuild fills no cells")
	}
	fired := s.fired(seat, pl, fills, s.scratch.fired[:0])
	s.scratch.fired = fired
	// Own edges, in default order, so acts can be checked against them.
	sortEdges(fired)
	own := s.scratch.own[:0]
	for _, e := range fired {
		if e.Owner == seat {
			own = append(own, e)
		}
	}
	s.scratch.own = own
	s.scratch.fills = fills[:0]
	acts, err := s.order(own, m.Acts)
	if err != nil {
		return Outcome{}, err
	}
	var reactions [4][]Act
	if m.Reactions != nil {
		for k := range s.players {
			if k != seat && len(s.players[k].queue) > 0 {
				return Outcome{}, illegal("seat %d still has earlier choices pending", k)
			}
		}
		for k, as := range m.Reactions {
			if k < 0 || k >= s.n || k == seat {
				return Outcome{}, illegal("reactions may only name other seats of this game")
			}
			var theirs []Edge
			for _, e := range fired {
				if e.Owner == k {
					theirs = append(theirs, e)
				}
			}
			if reactions[k], err = s.order(theirs, as); err != nil {
				return Outcome{}, err
			}
		}
	}

	// Everything is checked: apply.
	p := &s.players[seat]
	p.Hand[pl.Tile]--
	np := piece{at: pl.At, worker: pl.Tile, owner: int8(seat), rot: uint8(pl.Rot), edges: pl.Tile.Edges(pl.Rot)}
	if pl.Overbuild {
		p.Sun--
		np.under = s.board.get(pl.At)
	}
	s.put(np)
	for _, f := range fills {
		s.put(piece{at: f.At, jungle: f.Tile, owner: -1})
		if f.FromPile {
			s.jpos++
		} else {
			s.takeDisplay(f.Tile)
		}
	}
	for _, e := range fired {
		s.at(e.Tile).fired |= 1 << e.Side
	}
	out := Outcome{Turn: s.turns, Seat: seat, Placement: pl, Fills: fills, Acts: acts}
	s.resolve(p, own, acts)

	others := 0
	for _, e := range fired {
		if e.Owner != seat {
			others++
		}
	}
	for k := 0; k < s.n && others > 0; k++ {
		if k == seat {
			continue
		}
		theirs := s.scratch.own[:0]
		for _, e := range fired {
			if e.Owner == k {
				theirs = append(theirs, e)
			}
		}
		s.scratch.own = theirs
		if len(theirs) == 0 {
			continue
		}
		q := &s.players[k]
		b := Batch{Turn: s.turns, Owner: k, Edges: theirs}
		switch {
		case m.Reactions != nil:
			if reactions[k] == nil {
				reactions[k], _ = s.order(theirs, nil)
			}
		case len(q.queue) == 0 && !q.NeedsDecision(b):
			// At the head already and nothing to decide: resolve now.
			reactions[k], _ = s.order(theirs, nil)
		default:
			b.Edges = append([]Edge(nil), theirs...)
			q.queue = append(q.queue, b)
			continue
		}
		s.resolve(q, theirs, reactions[k])
		if out.Resolutions == nil {
			out.Resolutions = s.scratch.res[:0]
		}
		out.Resolutions = append(out.Resolutions, Resolution{Seat: k, Turn: s.turns, Acts: reactions[k]})
	}

	// End of turn: draw, refill the display, pass.
	if p.ppos < len(p.pile) {
		p.Hand[p.pile[p.ppos]]++
		p.ppos++
	}
	s.refill()
	s.turns++
	s.current = (s.current + 1) % s.n
	if m.Reactions == nil {
		for k := 0; k < s.n; k++ {
			if len(s.players[k].queue) > 0 {
				out.Resolutions = s.settle(k, out.Resolutions)
			}
		}
	}
	if out.Resolutions != nil {
		s.scratch.res = out.Resolutions[:0]
	}
	return out, nil
}

func (s *State) takeDisplay(j Jungle) {
	for i := 0; i < s.ndisp; i++ {
		if s.display[i] == j {
			copy(s.display[i:], s.display[i+1:s.ndisp])
			s.ndisp--
			s.display[s.ndisp] = NoJungle
			return
		}
	}
}

// sortEdges puts edges in the default order: by category (plantations, mines,
// water, sun, markets M4 M3 M2, temples), then tile cell (y, x), then side.
func sortEdges(es []Edge) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && edgeLess(es[j], es[j-1]); j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

func edgeLess(a, b Edge) bool {
	ra, rb := jungleRank(a.Jungle), jungleRank(b.Jungle)
	if ra != rb {
		return ra < rb
	}
	if a.Tile != b.Tile {
		return a.Tile.Less(b.Tile)
	}
	return a.Side < b.Side
}

func jungleRank(j Jungle) int {
	if j == NoJungle || j >= numJungle {
		return len(jungleKinds) // unknown tiles (previews) last
	}
	return jungleKinds[j].Rank
}

// order checks acts against the fired edges (already in default order) and
// returns the full explicit order, in the state's scratch arena (see
// Outcome): the listed edges as given, then the unlisted ones in default
// order with all workers.
func (s *State) order(edges []Edge, acts []Act) ([]Act, error) {
	a := s.scratch.acts
	start := len(a)
	b, err := appendActs(a, edges, acts)
	if err != nil {
		return nil, err
	}
	s.scratch.acts = b
	return b[start:len(b):len(b)], nil
}

func appendActs(out []Act, edges []Edge, acts []Act) ([]Act, error) {
	var listed uint64
	for _, a := range acts {
		k := -1
		for j, e := range edges {
			if e.Tile == a.Tile && e.Side == a.Side {
				k = j
				break
			}
		}
		if k < 0 {
			return nil, illegal("the edge %s %s is not one of this player's activated edges", a.Tile, a.Side)
		}
		if listed&(1<<k) != 0 {
			return nil, illegal("the edge %s %s is listed twice", a.Tile, a.Side)
		}
		listed |= 1 << k
		use := a.Use
		if use == AllWorkers {
			use = edges[k].Workers
		}
		if use < 0 || use > edges[k].Workers {
			return nil, illegal("the edge %s %s has %d worker(s); cannot use %d", a.Tile, a.Side, edges[k].Workers, a.Use)
		}
		out = append(out, Act{Tile: a.Tile, Side: a.Side, Use: use})
	}
	for j, e := range edges {
		if listed&(1<<j) == 0 {
			out = append(out, Act{Tile: e.Tile, Side: e.Side, Use: e.Workers})
		}
	}
	return out, nil
}

// resolve applies explicit acts (from order) to p.
func (s *State) resolve(p *Player, edges []Edge, acts []Act) {
	for _, a := range acts {
		for _, e := range edges {
			if e.Tile == a.Tile && e.Side == a.Side {
				p.gain(e.Jungle, a.Use)
				break
			}
		}
	}
}

// gain applies u workers facing jungle tile j to the village.
func (p *Player) gain(j Jungle, u int) {
	if j == NoJungle || j >= numJungle || u <= 0 {
		return
	}
	k := &jungleKinds[j]
	switch k.Effect {
	case Plantation:
		p.Fruit = min(MaxFruit, p.Fruit+u*k.Value)
	case Market:
		sold := min(u, p.Fruit)
		p.Fruit -= sold
		p.Gold += sold * k.Value
	case Mine:
		p.Gold += u * k.Value
	case Water:
		p.Water = min(len(waterTrack)-1, p.Water+u*k.Value)
	case SunSite:
		p.Sun = min(MaxSun, p.Sun+u*k.Value)
	}
}

// NeedsDecision reports whether batch b, at the head of its owner's queue,
// needs the owner's choice (the rules' "Choices on other players' turns"): it holds a market edge and
// either the owner holds fruit or the batch also holds a plantation edge.
func (p *Player) NeedsDecision(b Batch) bool {
	market, plant := false, false
	for _, e := range b.Edges {
		if e.Jungle == NoJungle || e.Jungle >= numJungle {
			continue
		}
		switch jungleKinds[e.Jungle].Effect {
		case Market:
			market = true
		case Plantation:
			plant = true
		}
	}
	return market && (p.Fruit > 0 || plant)
}

// settle resolves seat's queue from the head while no decision is needed (or
// the player's standing policy decides), appending what it did to rs.
func (s *State) settle(seat int, rs []Resolution) []Resolution {
	p := &s.players[seat]
	for len(p.queue) > 0 {
		b := p.queue[0]
		var acts []Act
		switch {
		case !p.NeedsDecision(b):
			acts, _ = s.order(b.Edges, nil)
		case p.AutoDecide:
			acts = BestActs(*p, b.Edges)
		default:
			return rs
		}
		s.resolve(p, b.Edges, acts)
		p.queue = p.queue[1:]
		if len(p.queue) == 0 {
			p.queue = nil
		}
		rs = append(rs, Resolution{Seat: seat, Turn: b.Turn, Acts: acts})
	}
	return rs
}

// Resolve resolves the batch at the head of seat's queue with acts (edges not
// listed: default order, all workers), then settles the queue again. It
// returns every resolution made, the chosen one first; like an Outcome's, the
// returned slices are valid until the next change of the State.
func (s *State) Resolve(seat int, acts []Act) ([]Resolution, error) {
	if seat < 0 || seat >= s.n {
		return nil, illegal("no such seat")
	}
	p := &s.players[seat]
	if len(p.queue) == 0 {
		return nil, illegal("you have no pending choice")
	}
	b := p.queue[0]
	s.scratch.acts = s.scratch.acts[:0]
	full, err := s.order(b.Edges, acts)
	if err != nil {
		return nil, err
	}
	s.resolve(p, b.Edges, full)
	p.queue = p.queue[1:]
	if len(p.queue) == 0 {
		p.queue = nil
	}
	rs := []Resolution{{Seat: seat, Turn: b.Turn, Acts: full}}
	return s.settle(seat, rs), nil
}

// ResolveBest resolves the head of seat's queue with the best-value choice
// (the deadline and end-of-game default: the rules' "Time limits and
// vacations").
func (s *State) ResolveBest(seat int) ([]Resolution, error) {
	if seat < 0 || seat >= s.n || len(s.players[seat].queue) == 0 {
		return nil, illegal("you have no pending choice")
	}
	p := &s.players[seat]
	return s.Resolve(seat, BestActs(*p, p.queue[0].Edges))
}

// ResolveAll applies the best-value choice to every pending batch of every
// seat, in queue order: the default resolution when a game is closed while
// choices are still waiting (the best-value default). It returns what it did; the
// slices are fresh (not scratch).
func (s *State) ResolveAll() []Resolution {
	var all []Resolution
	for k := range s.players {
		for len(s.players[k].queue) > 0 {
			rs, _ := s.ResolveBest(k)
			for _, r := range rs {
				r.Acts = append([]Act(nil), r.Acts...)
				all = append(all, r)
			}
		}
	}
	return all
}

// SetAutoDecide sets seat's standing policy and, when turned on, resolves what
// waits in the queue.
func (s *State) SetAutoDecide(seat int, on bool) []Resolution {
	if seat < 0 || seat >= s.n {
		return nil
	}
	s.scratch.acts = s.scratch.acts[:0]
	s.players[seat].AutoDecide = on
	return s.settle(seat, nil)
}

// BestActs returns the best-value resolution of edges for a player in village
// p: the most gold, then the most fruit; among equal outcomes the one closest
// to the default order. Edges other than plantations and markets use all
// workers, since they only ever gain.
func BestActs(p Player, edges []Edge) []Act {
	var pm []Edge
	var rest []Edge
	for _, e := range edges {
		eff := Temple
		if e.Jungle != NoJungle && e.Jungle < numJungle {
			eff = jungleKinds[e.Jungle].Effect
		}
		if eff == Plantation || eff == Market {
			pm = append(pm, e)
		} else {
			rest = append(rest, e)
		}
	}
	sortEdges(pm)
	sortEdges(rest)
	out := make([]Act, 0, len(edges))
	out = append(out, bestOrder(p.Fruit, pm)...)
	for _, e := range rest {
		out = append(out, Act{Tile: e.Tile, Side: e.Side, Use: e.Workers})
	}
	return out
}

// bestOrder searches every order and use of plantation and market edges.
func bestOrder(fruit int, edges []Edge) []Act {
	n := len(edges)
	if n == 0 {
		return nil
	}
	if n > 12 {
		edges = edges[:12] // never happens in play; keeps the search bounded
		n = 12
	}
	type val struct {
		gold, fruit int
		next, use   int8
		done        bool
	}
	memo := make([]val, (1<<n)*(MaxFruit+1))
	var best func(mask, fruit int) val
	best = func(mask, fruit int) val {
		if mask == 1<<n-1 {
			return val{fruit: fruit, next: -1, done: true}
		}
		m := &memo[mask*(MaxFruit+1)+fruit]
		if m.done {
			return *m
		}
		r := val{gold: -1}
		for i, e := range edges {
			if mask&(1<<i) != 0 {
				continue
			}
			k := &jungleKinds[e.Jungle]
			if k.Effect == Plantation {
				sub := best(mask|1<<i, min(MaxFruit, fruit+e.Workers*k.Value))
				if sub.gold > r.gold || sub.gold == r.gold && sub.fruit > r.fruit {
					r = val{gold: sub.gold, fruit: sub.fruit, next: int8(i), use: int8(e.Workers)}
				}
				continue
			}
			for u := min(e.Workers, fruit); u >= 0; u-- {
				sub := best(mask|1<<i, fruit-u)
				g := sub.gold + u*k.Value
				if g > r.gold || g == r.gold && sub.fruit > r.fruit {
					r = val{gold: g, fruit: sub.fruit, next: int8(i), use: int8(u)}
				}
			}
		}
		r.done = true
		*m = r
		return r
	}
	var out []Act
	mask := 0
	for mask != 1<<n-1 {
		v := best(mask, fruit)
		e := edges[v.next]
		out = append(out, Act{Tile: e.Tile, Side: e.Side, Use: int(v.use)})
		k := &jungleKinds[e.Jungle]
		if k.Effect == Plantation {
			fruit = min(MaxFruit, fruit+e.Workers*k.Value)
		} else {
			fruit -= int(v.use)
		}
		mask |= 1 << v.next
	}
	return out
}
