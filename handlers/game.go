package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"cacao/engine"
	"cacao/handlers/live"
	"cacao/models"
	"cacao/views"
	"cacao/views/i18n"
)

// showGame renders the game page (a fragment for htmx) for the signed-in
// viewer, with the choice in progress taken from the query string.
func (s *Server) showGame(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	sel, problem := parseSelection(lang(c), c.QueryParam("tile"), c.QueryParam("slot"), c.QueryParam("rot"), c.QueryParam("at"), c.QueryParam("overbuild"), c.QueryParam("fill"))
	// Opening the game reads its notices (gameVM's count leaves them out);
	// before the game is loaded, so that every notice read tells of the
	// game as shown or earlier. A step of a selection (htmx) leaves the
	// header as it is: the page that opened the game, or its live refresh,
	// read them. A failure leaves them unread.
	if u := currentUser(c); u != nil && u.Unread > 0 && !isStep(c, sel) {
		n, err := s.store.SeeGameNotices(u.ID, id)
		if err != nil {
			s.log.Warn("reading a game's notices", "game", id, "user", u.ID, "err", err)
		} else {
			c.Set(unreadHereKey, n) // the header's count (gameVM)
		}
	}
	l, err := s.store.LoadGame(id)
	if err != nil {
		return err
	}
	vm := s.gameVM(c, l, sel)
	if problem != "" {
		vm.Error = problem
	}
	if c.QueryParam("live") == "1" {
		// A refetch after someone else's move: focus stays where the player
		// is, and the moves since the page's last look are read out.
		vm.Focus = ""
		from, _ := strconv.Atoi(c.QueryParam("from"))
		vm.Announce = s.announce(lang(c), l, from, vm.Me, vm.Seats)
	}
	// The player has now seen the game as it is: no "your turn" mail for it.
	if err := s.store.MarkSeen(l, vm.Me); err != nil {
		return err
	}
	if err := s.store.FlushSeenIfDue(); err != nil {
		return err
	}
	return s.renderGame(c, http.StatusOK, vm)
}

// showLog is a game's whole log, for anyone who may see the game.
func (s *Server) showLog(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	l, err := s.store.LoadGame(id)
	if err != nil {
		return err
	}
	lg := lang(c)
	vm := views.GameVM{Page: s.page(c, lg.T("Game %d: the whole log", int(id))), ID: id, Status: l.Game.Status}
	if l.Play != nil {
		for i, seat := range l.Seats {
			vm.Seats = append(vm.Seats, views.Seat{Index: i, Name: views.SeatName(lg, seat.Name, seat.Bot), Letter: views.Letters[i]})
		}
		vm.Log = s.logLines(lg, id, l.Events, vm.Seats)
	}
	return render(c, http.StatusOK, views.LogPage(vm))
}

// gameEvents streams the game's changes (SSE) to an open game page.
func (s *Server) gameEvents(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	version, err := s.store.GameVersion(id)
	if err != nil {
		return err
	}
	s.live.Stream(c.Response(), c.Request(), version, live.Game(id))
	return nil
}

func (s *Server) renderGame(c echo.Context, code int, vm views.GameVM) error {
	if isHTMX(c) {
		vm.Fragment = true
		if vm.KeepPlaces {
			c.Response().Header().Set(views.KeptHeader, vm.ShownValue())
		} else if vm.Keep {
			c.Response().Header().Set(views.KeptHeader, vm.Shown)
		}
		return render(c, code, views.GameMain(vm))
	}
	return render(c, code, views.GamePage(vm))
}

// parseSelection reads the choice in progress; what cannot be read is
// dropped and reported.
func parseSelection(l *i18n.Lang, tile, slot, rot, at, overbuild, fill string) (views.Selection, string) {
	var sel views.Selection
	if tile == "" {
		return sel, ""
	}
	if _, ok := engine.ParseWorker(tile); !ok {
		return sel, l.T("unknown tile %s", strconv.Quote(tile))
	}
	sel.Tile = tile
	if slot != "" {
		// Which of two alike tiles is marked; a place that does not hold
		// the tile marks the first alike.
		n, err := strconv.Atoi(slot)
		if err != nil || n < 0 || n > 20 {
			return views.Selection{}, l.T("unknown place in the hand")
		}
		sel.Slot = n
	}
	if rot != "" {
		r, err := strconv.Atoi(rot)
		if err != nil || r < 0 || r > 3 {
			return views.Selection{}, l.T("a rotation is 0, 1, 2 or 3")
		}
		sel.Rot = r
	}
	if at == "" {
		return sel, ""
	}
	c, ok := parseCell(at)
	if !ok {
		return sel, l.T("a cell is written x,y")
	}
	sel.At, sel.Overbuild = &c, overbuild == "1"
	if fill != "" {
		f, err := strconv.Atoi(fill)
		if err != nil || f < 0 || f > 20 {
			return sel, l.T("unknown fill choice")
		}
		sel.Fill = f
	}
	return sel, ""
}

func parseCell(s string) (engine.Cell, bool) {
	xs, ys, ok := strings.Cut(s, ",")
	if !ok {
		return engine.Cell{}, false
	}
	x, err1 := strconv.Atoi(strings.TrimSpace(xs))
	y, err2 := strconv.Atoi(strings.TrimSpace(ys))
	if err1 != nil || err2 != nil || x < -1000 || x > 1000 || y < -1000 || y > 1000 {
		return engine.Cell{}, false
	}
	return engine.Cell{X: x, Y: y}, true
}

// isStep reports whether the request is a step of a selection made with
// htmx from an open game page (a tile, a rotation, a cell): its answer
// replaces the game area alone, and the page that opened the game (or its
// live refresh) has read the game's notices and shows the header's count.
func isStep(c echo.Context, sel views.Selection) bool {
	return isHTMX(c) && sel != (views.Selection{}) && c.QueryParam("live") != "1"
}

// unreadHereKey holds, on the context, the header's count as the request
// read the game's notices (SeeGameNotices).
const unreadHereKey = "unreadHere"

// gameVM builds the game page for the viewer from the engine's viewer-scoped
// view only: nothing else of the position reaches the template.
func (s *Server) gameVM(c echo.Context, l *models.Loaded, sel views.Selection) views.GameVM {
	u := currentUser(c)
	lg := lang(c)
	vm := views.GameVM{Page: s.page(c, lg.T("Game %d", int(l.Game.ID))), ID: l.Game.ID, Version: l.Game.Version,
		Status: l.Game.Status, Me: -1, TurnLimit: views.LimitName(lg, l.Game.TurnHours)}
	vm.Step = isStep(c, sel)
	if n, ok := c.Get(unreadHereKey).(int); ok {
		vm.Page.Unread = int64(n) // counted as the page read the game's notices
	} else if u != nil && vm.Page.Unread > 0 && !vm.Step {
		// The game's notices seen and not yet written are not news here.
		n, err := s.store.UnreadAt(u.ID, l.Game.ID, int(vm.Page.Unread))
		if err != nil {
			s.log.Warn("counting unread notices", "game", l.Game.ID, "user", u.ID, "err", err)
		}
		vm.Page.Unread = int64(n)
	}
	if u != nil {
		vm.Me = l.SeatOf(u.ID)
	}
	if l.Game.Status == models.StatusOpen {
		for i, seat := range l.Seats {
			vm.Seats = append(vm.Seats, views.Seat{Index: i, Name: seatName(lg, seat), Letter: views.Letters[i]})
			if u != nil && seat.Open() && seat.InvitedID != nil && *seat.InvitedID == u.ID {
				vm.InvitedMe = true
			}
			if u != nil && seat.FreeFor(u.ID) {
				vm.CanJoin = true
			}
		}
		if vm.Me >= 0 {
			vm.Invite = s.baseURL(c) + "/join/" + l.Game.InviteToken
		}
		return vm
	}
	st := l.Play.State()
	viewer := engine.Spectator
	if vm.Me >= 0 {
		viewer = vm.Me
	}
	// A game's position at a version never changes: the steps of a turn
	// share one view of it (read only, like every memo's value).
	key := strconv.FormatUint(uint64(l.Game.ID), 10) + "/" + strconv.Itoa(l.Game.Version) + "/" + strconv.Itoa(viewer)
	v := s.views.get(key, func() engine.View { return st.View(viewer) })
	if s.cfg.CheckMemos && !reflect.DeepEqual(v, st.View(viewer)) {
		panic("handlers: the view remembered for " + key + " was changed")
	}
	vm.View = v
	vm.Finished = l.Game.Status == models.StatusFinished
	clocks := s.clocks(lg, l)
	for i, seat := range l.Seats {
		vm.Seats = append(vm.Seats, views.Seat{Index: i, Name: views.SeatName(lg, seat.Name, seat.Bot), Letter: views.Letters[i], Bot: seat.Bot,
			Village: v.Seats[i], IsMe: i == vm.Me, ToPlay: !v.Over && v.Current == i, Clock: clocks[i]})
	}
	vm.LogLen = len(l.Events)
	// A page that shows this very version asks only for what a step
	// changes: the board's tiles, the players and the log stay as they are
	// in it (views.GameVM.Keep).
	if l.Game.Status == models.StatusActive {
		vm.Shown = views.ShownKey(l.Game.ID, l.Game.Version, lg.Code, vm.Me, clocks)
	}
	// Only a step (GET): a refused move's answer must not depend on the
	// page being unchanged when it arrives.
	// (What the page shows of the selection, after a slash, is for the
	// places: below.)
	asked := c.Request().Header.Get(views.ShownHeader)
	if shown, _, _ := strings.Cut(asked, "/"); vm.Shown != "" && c.Request().Method == http.MethodGet && isHTMX(c) && shown == vm.Shown {
		vm.Keep = true
	} else {
		// The page shows the log's last entries (the since panel tells a
		// returning player the rest of what is new); /games/ID/log has it all.
		from := max(0, len(l.Events)-views.LogShown)
		vm.Log, vm.LogFrom = s.logLines(lg, l.Game.ID, l.Events[from:], vm.Seats), from
		for _, t := range v.Result.Temples {
			vm.Temples = append(vm.Temples, templeLine(lg, t, vm.Seats))
		}
	}
	if vm.Me >= 0 {
		vm.Since = s.since(lg, l, vm.Me, vm.Seats)
	}
	if vm.Finished {
		win := map[int]bool{}
		for _, w := range v.Result.Winners {
			win[w] = true
		}
		for i, sc := range v.Result.Scores {
			vm.Scores = append(vm.Scores, views.ScoreLine{Name: vm.Seats[i].Name, Letter: vm.Seats[i].Letter, Score: sc, Winner: win[i]})
		}
	}
	if vm.Me < 0 {
		return vm
	}
	if len(v.Queue) > 0 {
		b := v.Queue[0]
		vm.Pending = &views.Pending{Turn: b.Turn, Edges: edgeChoices(lg, b.Edges), More: len(v.Queue) - 1}
	}
	vm.Play.MyTurn = !v.Over && v.Current == vm.Me
	vm.Play.CanAct = vm.Play.MyTurn && len(v.Queue) == 0
	if !vm.Play.CanAct {
		return vm
	}
	vm.Sel = sel
	s.selectMove(lg, st, &vm)
	// The page shows these very places: it keeps them.
	vm.KeepPlaces = vm.Keep && vm.PlacesKey != "" && asked == vm.ShownValue()
	return vm
}

func seatName(l *i18n.Lang, seat models.Seat) string {
	if seat.Open() && seat.InvitedID != nil {
		return l.T("(kept for an invited player)")
	}
	if seat.Open() {
		return l.T("(open seat)")
	}
	return views.SeatName(l, seat.Name, seat.Bot)
}

// selectMove fills the turn panel: the cells legal for the selected tile and
// rotation, then for a chosen cell the fill options, the viewer's edges and
// a preview of what everyone would gain.
func (s *Server) selectMove(l *i18n.Lang, st *engine.State, vm *views.GameVM) {
	sel := vm.Sel
	if sel.Tile == "" {
		return
	}
	w, _ := engine.ParseWorker(sel.Tile)
	inHand := false
	for _, h := range vm.View.Hand {
		inHand = inHand || h == w
	}
	if !inHand {
		vm.Sel = views.Selection{}
		vm.Error = l.T("that tile is not in your hand")
		return
	}
	want := w.Edges(sel.Rot)
	vm.Play.Cells = map[engine.Cell]bool{}
	var legal []engine.Placement
	for _, pl := range vm.View.Legal {
		if pl.Tile == w && pl.Tile.Edges(pl.Rot) == want && !vm.Play.Cells[pl.At] {
			vm.Play.Cells[pl.At] = true
			legal = append(legal, engine.Placement{Tile: w, Rot: sel.Rot, At: pl.At, Overbuild: pl.Overbuild})
		}
	}
	// Choosing the tile and then its cell show the same places: they are
	// worked out (a preview each) once per position, viewer and rotation.
	// (The slot too: the places' links carry it.)
	key := fmt.Sprintf("%d/%d/%d/%s/%d/%d/%s", vm.ID, vm.Version, vm.Me, sel.Tile, sel.Slot, sel.Rot, l.Code)
	vm.Play.Places = s.places.get(key, func() []views.Place {
		places := make([]views.Place, 0, len(legal))
		pvs := st.Previewer()
		defer pvs.Close()
		for _, pl := range legal {
			places = append(places, s.place(l, st, pvs, vm, pl))
		}
		sort.Slice(places, func(a, b int) bool { return places[a].At.Less(places[b].At) })
		return places
	})
	if len(vm.Play.Places) > 0 {
		vm.PlacesKey = views.PlacesKey(w, sel.Slot, sel.Rot)
	}
	if sel.At == nil {
		vm.Focus = "rotate"
		return
	}
	pl := engine.Placement{Tile: w, Rot: sel.Rot, At: *sel.At, Overbuild: sel.Overbuild}
	// The cell as asked: a lay on an empty cell, or an overbuild of the
	// viewer's own tile.
	if !slices.ContainsFunc(legal, func(l engine.Placement) bool { return l.At == pl.At && l.Overbuild == pl.Overbuild }) {
		// Shown at the top: with the cell cleared, the panel asks for one.
		vm.Error = l.T("that cell is not a legal place for this tile")
		vm.Sel.At = nil
		vm.Focus = "rotate"
		return
	}
	var fills []engine.Fill
	if !pl.Overbuild {
		opts := st.FillOptions(pl.At)
		for _, o := range opts {
			vm.Play.FillOptions = append(vm.Play.FillOptions, fillText(l, o))
		}
		if len(opts) > 0 {
			if sel.Fill >= len(opts) {
				vm.Sel.Fill = 0
			}
			fills = opts[vm.Sel.Fill]
		}
	}
	edges, err := st.Fired(pl, fills)
	if err != nil {
		_, vm.Play.Reason = status(l, err)
		return
	}
	var mine []engine.Edge
	for _, e := range edges {
		if e.Owner == vm.Me {
			mine = append(mine, e)
		}
	}
	vm.Play.Edges = edgeChoices(l, mine)
	pv, err := st.Preview(vm.Me, engine.Move{Placement: pl, Fills: fills})
	if err != nil {
		_, vm.Play.Reason = status(l, err)
		return
	}
	vm.Play.Preview = previewLines(l, pv, vm.Seats, vm.Me)
	vm.Play.Ready = true
	vm.Focus = "confirm"
}

// place is one cell the selected tile may go to, with what placing it
// there (with the first fill option) would bring each player.
func (s *Server) place(l *i18n.Lang, st *engine.State, pvs *engine.Previewer, vm *views.GameVM, pl engine.Placement) views.Place {
	p := views.Place{At: pl.At, Overbuild: pl.Overbuild, Link: vm.Link(vm.Sel.WithCell(pl.At, pl.Overbuild))}
	var fills []engine.Fill
	if !pl.Overbuild {
		if opts := st.FillOptions(pl.At); len(opts) > 0 {
			fills = opts[0]
		}
	}
	if pv, err := pvs.Preview(vm.Me, engine.Move{Placement: pl, Fills: fills}); err == nil {
		p.Gains = strings.Join(previewLines(l, pv, vm.Seats, vm.Me), l.T("; "))
	}
	p.Label = views.PlaceLabel(l, p)
	return p
}

func fillText(l *i18n.Lang, fs []engine.Fill) string {
	var parts []string
	for _, f := range fs {
		if f.FromPile {
			parts = append(parts, l.T("%s gets the top tile of the jungle pile", views.CellLabel(l, f.At)))
		} else {
			parts = append(parts, l.T("%s gets %s", views.CellLabel(l, f.At), views.JungleName(l, f.Tile)))
		}
	}
	return strings.Join(parts, l.T("; "))
}

func edgeKey(c engine.Cell, d engine.Side) string { return fmt.Sprintf("%d,%d,%s", c.X, c.Y, d) }

func edgeChoices(l *i18n.Lang, es []engine.Edge) []views.EdgeChoice {
	out := make([]views.EdgeChoice, 0, len(es))
	for i, e := range es {
		label := l.N("%d worker on %s, %s side, facing %s", "%d workers on %s, %s side, facing %s", e.Workers, e.Workers, views.CellLabel(l, e.Tile), sideName(l, e.Side), views.JungleName(l, e.Jungle))
		out = append(out, views.EdgeChoice{Key: edgeKey(e.Tile, e.Side), Label: label, Workers: e.Workers, Order: i + 1, Unknown: e.Jungle == engine.NoJungle})
	}
	return out
}

func previewLines(l *i18n.Lang, pv engine.Preview, seats []views.Seat, me int) []string {
	var out []string
	for _, g := range pv.Gains {
		text := views.GainText(l, g)
		if text == "" {
			continue
		}
		if g.Seat == me {
			out = append(out, l.T("you: %s", text))
		} else {
			out = append(out, l.T("%s: %s", seats[g.Seat].Name, text))
		}
	}
	for _, e := range pv.Fired {
		if e.Jungle == engine.NoJungle {
			out = append(out, l.T("%s's workers on %s also face the tile from the pile, still unknown", seats[e.Owner].Name, views.CellLabel(l, e.Tile)))
		}
	}
	if len(out) == 0 {
		out = append(out, l.T("nobody gains anything now"))
	}
	return out
}

// sideName names a side of a tile.
func sideName(l *i18n.Lang, d engine.Side) string {
	switch d {
	case engine.N:
		return l.T("north")
	case engine.E:
		return l.T("east")
	case engine.S:
		return l.T("south")
	default:
		return l.T("west")
	}
}

func templeLine(l *i18n.Lang, t engine.TempleResult, seats []views.Seat) string {
	var parts []string
	for i, w := range t.Workers {
		if w > 0 {
			parts = append(parts, l.N("%s %d worker → %d gold", "%s %d workers → %d gold", w, seats[i].Name, w, t.Award[i]))
		}
	}
	if len(parts) == 0 {
		return l.T("Temple at %s: nobody yet", views.CellLabel(l, t.At))
	}
	return l.T("Temple at %s: %s", views.CellLabel(l, t.At), strings.Join(parts, l.T(", ")))
}

// clocks says, for each seat, how long its player has left and whether
// their clock is paused by a vacation ("" for seats without a deadline).
func (s *Server) clocks(lg *i18n.Lang, l *models.Loaded) []string {
	out := make([]string, len(l.Seats))
	var users []uint
	for _, seat := range l.Seats {
		if seat.Deadline != nil && seat.UserID != nil {
			users = append(users, *seat.UserID)
		}
	}
	if len(users) == 0 {
		return out
	}
	away, err := s.store.Vacations(users)
	if err != nil {
		s.log.Warn("vacations", "err", err)
	}
	now := s.store.Clock()
	for i, seat := range l.Seats {
		if seat.Deadline == nil || seat.UserID == nil {
			continue
		}
		out[i] = timeLeft(lg, seat.Deadline.Sub(now))
		if until, ok := away[*seat.UserID]; ok {
			out[i] = lg.T("%s, on vacation until %s", out[i], lg.Date(until.UTC(), false, false))
		}
	}
	return out
}

// since tells what the other players did after the viewer's own last move
// (or since the start): their moves, what the viewer gained meanwhile, the
// cells that changed, and which of it is new since the viewer last looked.
func (s *Server) since(lg *i18n.Lang, l *models.Loaded, me int, seats []views.Seat) *views.SinceVM {
	from := 0
	for _, ev := range l.Events {
		if ev.Seat == me && !ev.Timeout && !ev.Auto {
			from = ev.Seq + 1
		}
	}
	var evs []models.Event
	var mine engine.Gain
	for _, ev := range l.Events[from:] {
		if ev.Seat == me && !ev.Timeout && !ev.Auto {
			continue
		}
		evs = append(evs, ev)
		g := ev.Gains[me]
		mine.Gold, mine.Fruit, mine.Sun = mine.Gold+g.Gold, mine.Fruit+g.Fruit, mine.Sun+g.Sun
		mine.WaterSteps, mine.Water = mine.WaterSteps+g.WaterSteps, mine.Water+g.Water
	}
	if len(evs) == 0 {
		return nil
	}
	sv := &views.SinceVM{Mine: views.GainText(lg, mine)}
	changed := map[engine.Cell]bool{}
	seen := l.Seats[me].SeenSeq
	for i, text := range s.logLines(lg, l.Game.ID, evs, seats) {
		ev := evs[i]
		sv.Lines = append(sv.Lines, views.SinceLine{Text: text, New: ev.Seq >= seen})
		if ev.Kind == models.KindTurn {
			changed[ev.Placement.At] = true
			for _, f := range ev.Fills {
				changed[f.At] = true
			}
		}
	}
	for c := range changed {
		sv.Cells = append(sv.Cells, c)
	}
	sort.Slice(sv.Cells, func(a, b int) bool { return sv.Cells[a].Less(sv.Cells[b]) })
	return sv
}

// announce tells the log entries from the from-th on that are not the
// viewer's own doing, for the page's live region.
func (s *Server) announce(lg *i18n.Lang, l *models.Loaded, from, me int, seats []views.Seat) []string {
	if from < 0 || from >= len(l.Events) {
		return nil
	}
	var out []string
	for _, ev := range l.Events[from:] {
		if ev.Seat != me || ev.Timeout || ev.Auto {
			out = append(out, s.logLine(lg, l.Game.ID, ev, seats))
		}
	}
	if len(out) > 5 {
		out = append([]string{lg.N("%d more moves before these.", "%d more moves before these.", len(out)-5, len(out)-5)}, out[len(out)-5:]...)
	}
	return out
}

// logLines tells the game in plain words, one line per log entry.
func (s *Server) logLines(l *i18n.Lang, game uint, events []models.Event, seats []views.Seat) []string {
	out := make([]string, 0, len(events))
	for _, ev := range events {
		out = append(out, s.logLine(l, game, ev, seats))
	}
	return out
}

// logLine tells one committed log entry of game in plain words (told once
// per language: an entry and the seats' names never change).
func (s *Server) logLine(l *i18n.Lang, game uint, ev models.Event, seats []views.Seat) string {
	return s.lines.get(fmt.Sprintf("%d/%d/%s", game, ev.Seq, l.Code), func() string { return logLine(l, ev, seats) })
}

// logLine tells one log entry in plain words.
func logLine(l *i18n.Lang, ev models.Event, seats []views.Seat) string {
	name := seats[ev.Seat].Name
	if ev.Timeout {
		name = l.T("%s (out of time: the greedy bot played)", name)
	} else if ev.Auto {
		name = l.T("%s (decided at once, as they asked)", name)
	}
	parts := []string{}
	switch ev.Kind {
	case models.KindTurn:
		at := views.CellLabel(l, ev.Placement.At)
		if ev.Placement.Overbuild {
			parts = append(parts, l.T("%s overbuilt with %s at %s", name, ev.Placement.Tile.String(), at))
		} else {
			parts = append(parts, l.T("%s placed %s at %s", name, ev.Placement.Tile.String(), at))
		}
		for _, f := range ev.Fills {
			parts = append(parts, l.T("filled %s with %s", views.CellLabel(l, f.At), views.JungleName(l, f.Tile)))
		}
	case models.KindResolve:
		parts = append(parts, l.T("%s chose how to use workers activated on turn %d", name, ev.Turn+1))
	}
	for _, g := range ev.Gains {
		if text := views.GainText(l, g); text != "" {
			parts = append(parts, l.T("%s: %s", seats[g.Seat].Name, text))
		}
	}
	return l.T("%s.", strings.Join(parts, l.T("; ")))
}

// playTurn commits the viewer's turn from the confirm form.
func (s *Server) playTurn(c echo.Context) error {
	l, version, err := s.formGame(c)
	if l == nil || err != nil {
		return err
	}
	sel, problem := parseSelection(lang(c), c.FormValue("tile"), "", c.FormValue("rot"), c.FormValue("at"), c.FormValue("overbuild"), c.FormValue("fill"))
	if problem == "" && (sel.Tile == "" || sel.At == nil) {
		problem = tr(c, "a turn needs a tile, a rotation and a cell")
	}
	if problem != "" {
		return s.refuse(c, l, http.StatusUnprocessableEntity, problem)
	}
	w, _ := engine.ParseWorker(sel.Tile)
	m := engine.Move{Placement: engine.Placement{Tile: w, Rot: sel.Rot, At: *sel.At, Overbuild: sel.Overbuild}}
	if l.Play != nil && !m.Overbuild {
		if opts := l.Play.State().FillOptions(m.At); len(opts) > 0 {
			if sel.Fill >= len(opts) {
				return s.refuse(c, l, http.StatusUnprocessableEntity, tr(c, "unknown fill choice"))
			}
			m.Fills = opts[sel.Fill]
		}
	}
	acts, err := parseActs(c)
	if err != nil {
		return s.refuse(c, l, http.StatusUnprocessableEntity, err.Error())
	}
	m.Acts = acts
	return s.afterCommit(c, l, func() (*models.Loaded, error) {
		return s.store.CommitTurn(l.Game.ID, version, models.Actor{UserID: currentUser(c).ID}, m)
	})
}

// resolve commits the viewer's choice for their pending batch.
func (s *Server) resolve(c echo.Context) error {
	l, version, err := s.formGame(c)
	if l == nil || err != nil {
		return err
	}
	acts, err := parseActs(c)
	if err != nil {
		return s.refuse(c, l, http.StatusUnprocessableEntity, err.Error())
	}
	return s.afterCommit(c, l, func() (*models.Loaded, error) {
		return s.store.CommitResolve(l.Game.ID, version, models.Actor{UserID: currentUser(c).ID}, acts)
	})
}

// formGame loads the game a form posts to and reads the version it was made
// on. A nil game means the response (a refusal) is already written or err says why.
func (s *Server) formGame(c echo.Context) (*models.Loaded, int, error) {
	id, err := gameID(c)
	if err != nil {
		return nil, 0, err
	}
	l, err := s.store.LoadGame(id)
	if err != nil {
		return nil, 0, err
	}
	version, err := strconv.Atoi(c.FormValue("version"))
	if err != nil {
		return nil, 0, s.refuse(c, l, http.StatusUnprocessableEntity, tr(c, "the form is missing the game version; reload the page"))
	}
	return l, version, nil
}

// afterCommit runs a commit, lets bots answer, and shows the fresh game; a
// refused or conflicting commit shows the game as it is with the reason.
func (s *Server) afterCommit(c echo.Context, l *models.Loaded, commit func() (*models.Loaded, error)) error {
	done, err := commit()
	if err != nil {
		code, msg := status(lang(c), err)
		if code == http.StatusUnprocessableEntity || code == http.StatusConflict {
			fresh, lerr := s.store.LoadGame(l.Game.ID)
			if lerr != nil {
				return lerr
			}
			return s.refuse(c, fresh, code, msg)
		}
		return err
	}
	// The game as committed (and as the bots then left it) is current:
	// the answer shows it without reading it again.
	fresh, err := s.store.DriveBotsFrom(l.Game.ID, done)
	if err != nil {
		return err
	}
	if isHTMX(c) {
		// What the bots did, and the game's end, are shown here: the turn
		// handed back and the result are news no more. (Without htmx the
		// page the redirect leads to reads them.)
		if fresh.Game.Version != done.Game.Version || fresh.Game.Status != models.StatusActive {
			if err := s.store.SeeShownNotices(currentUser(c).ID, fresh.Game.ID, fresh.Game.Version); err != nil {
				s.log.Warn("reading a game's notices", "game", fresh.Game.ID, "err", err)
			}
		}
		// The choice in progress is spent: the address is the game's again.
		c.Response().Header().Set("HX-Replace-Url", fmt.Sprintf("/games/%d", l.Game.ID))
		vm := s.gameVM(c, fresh, views.Selection{})
		// What the others (bots) did after this move is read out.
		vm.Announce = s.announce(lang(c), fresh, len(l.Events), vm.Me, vm.Seats)
		vm.Fragment = true
		// Keyboard focus goes on to what the player does next.
		vm.Focus = "hand"
		if vm.Pending != nil {
			vm.Focus = "pending"
		}
		return render(c, http.StatusOK, views.GameMain(vm))
	}
	return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/games/%d", l.Game.ID))
}

// refuse shows the game with a reason and a 4xx status; nothing was changed.
// Someone without a seat gets a plain 403.
func (s *Server) refuse(c echo.Context, l *models.Loaded, code int, msg string) error {
	u := currentUser(c)
	if l.SeatOf(u.ID) < 0 {
		return refusal(http.StatusForbidden, "that is not yours to do")
	}
	vm := s.gameVM(c, l, views.Selection{})
	vm.Error = msg
	return s.renderGame(c, code, vm)
}

// parseActs reads the edge, use and order lists of a form into acts sorted
// by order (ties keep the listed order).
func parseActs(c echo.Context) ([]engine.Act, error) {
	form, err := c.FormParams()
	if err != nil {
		return nil, errors.New(tr(c, "the form could not be read"))
	}
	keys, uses, orders := form["edge"], form["use"], form["order"]
	if len(uses) != len(keys) || len(orders) != len(keys) || len(keys) > 16 {
		return nil, errors.New(tr(c, "each worker choice needs an edge, a number to use and an order"))
	}
	type item struct {
		order int
		act   engine.Act
	}
	items := make([]item, 0, len(keys))
	for i, k := range keys {
		parts := strings.Split(k, ",")
		if len(parts) != 3 {
			return nil, errors.New(tr(c, "unknown edge %s", strconv.Quote(k)))
		}
		cell, ok := parseCell(parts[0] + "," + parts[1])
		side, sok := engine.ParseSide(parts[2])
		use, uerr := strconv.Atoi(uses[i])
		order, oerr := strconv.Atoi(orders[i])
		if !ok || !sok || uerr != nil || oerr != nil || use < 0 {
			return nil, errors.New(tr(c, "each worker choice needs an edge, a number to use and an order"))
		}
		items = append(items, item{order, engine.Act{Tile: cell, Side: side, Use: use}})
	}
	sort.SliceStable(items, func(a, b int) bool { return items[a].order < items[b].order })
	var acts []engine.Act
	for _, it := range items {
		acts = append(acts, it.act)
	}
	return acts, nil
}

// exportRecord downloads the game record; only once the game is over, since
// the record's setup holds every pile's order.
func (s *Server) exportRecord(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	l, err := s.store.LoadGame(id)
	if err != nil {
		return err
	}
	if l.Game.Status != models.StatusFinished {
		return refusal(http.StatusForbidden, "the record can be downloaded once the game is over: it shows every pile")
	}
	data, err := l.Play.Record().Encode()
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="cacao-game-%d.json"`, id))
	return send(c, http.StatusOK, "application/json", data)
}

func (s *Server) baseURL(c echo.Context) string {
	if s.cfg.BaseURL != "" {
		return strings.TrimRight(s.cfg.BaseURL, "/")
	}
	return c.Scheme() + "://" + c.Request().Host
}
