package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"cacao/engine"
	"cacao/handlers/live"
	"cacao/models"
	"cacao/views"
)

// showGame renders the game page (a fragment for htmx) for the signed-in
// viewer, with the choice in progress taken from the query string.
func (s *Server) showGame(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	l, err := s.store.LoadGame(id)
	if err != nil {
		return err
	}
	sel, problem := parseSelection(c.QueryParam("tile"), c.QueryParam("rot"), c.QueryParam("at"), c.QueryParam("overbuild"), c.QueryParam("fill"))
	vm := s.gameVM(c, l, sel)
	if problem != "" {
		vm.Error = problem
	}
	// The player has now seen the game as it is: no "your turn" mail for it.
	if err := s.store.MarkSeen(l, vm.Me); err != nil {
		return err
	}
	return s.renderGame(c, http.StatusOK, vm)
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
		return render(c, code, views.GameMain(vm))
	}
	return render(c, code, views.GamePage(vm))
}

// parseSelection reads the choice in progress; what cannot be read is
// dropped and reported.
func parseSelection(tile, rot, at, overbuild, fill string) (views.Selection, string) {
	var sel views.Selection
	if tile == "" {
		return sel, ""
	}
	if _, ok := engine.ParseWorker(tile); !ok {
		return sel, "unknown tile " + strconv.Quote(tile)
	}
	sel.Tile = tile
	if rot != "" {
		r, err := strconv.Atoi(rot)
		if err != nil || r < 0 || r > 3 {
			return views.Selection{}, "a rotation is 0, 1, 2 or 3"
		}
		sel.Rot = r
	}
	if at == "" {
		return sel, ""
	}
	c, ok := parseCell(at)
	if !ok {
		return sel, "a cell is written x,y"
	}
	sel.At, sel.Overbuild = &c, overbuild == "1"
	if fill != "" {
		f, err := strconv.Atoi(fill)
		if err != nil || f < 0 || f > 20 {
			return sel, "unknown fill choice"
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

// gameVM builds the game page for the viewer from the engine's viewer-scoped
// view only: nothing else of the position reaches the template.
func (s *Server) gameVM(c echo.Context, l *models.Loaded, sel views.Selection) views.GameVM {
	u := currentUser(c)
	vm := views.GameVM{Page: s.page(c, fmt.Sprintf("Game %d", l.Game.ID)), ID: l.Game.ID, Version: l.Game.Version,
		Status: l.Game.Status, Me: -1, TurnLimit: views.LimitName(l.Game.TurnHours)}
	if u != nil {
		vm.Me = l.SeatOf(u.ID)
	}
	if l.Game.Status == models.StatusOpen {
		for i, seat := range l.Seats {
			vm.Seats = append(vm.Seats, views.Seat{Index: i, Name: seatName(seat), Letter: views.Letters[i]})
			if u != nil && seat.Open() && seat.InvitedID != nil && *seat.InvitedID == u.ID {
				vm.InvitedMe = true
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
	v := st.View(viewer)
	vm.View = v
	vm.Finished = l.Game.Status == models.StatusFinished
	clocks := s.clocks(l)
	for i, seat := range l.Seats {
		vm.Seats = append(vm.Seats, views.Seat{Index: i, Name: seat.Name, Letter: views.Letters[i], Bot: seat.Bot,
			Village: v.Seats[i], IsMe: i == vm.Me, ToPlay: !v.Over && v.Current == i, Clock: clocks[i]})
	}
	vm.Log = logLines(l.Events, vm.Seats)
	if vm.Me >= 0 {
		vm.Since = since(l, vm.Me, vm.Seats)
	}
	for _, t := range v.Result.Temples {
		vm.Temples = append(vm.Temples, templeLine(t, vm.Seats))
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
		vm.Pending = &views.Pending{Turn: b.Turn, Edges: edgeChoices(b.Edges), More: len(v.Queue) - 1}
	}
	vm.Play.MyTurn = !v.Over && v.Current == vm.Me
	vm.Play.CanAct = vm.Play.MyTurn && len(v.Queue) == 0
	if !vm.Play.CanAct {
		return vm
	}
	vm.Sel = sel
	s.selectMove(st, &vm)
	return vm
}

func seatName(seat models.Seat) string {
	if seat.Open() && seat.InvitedID != nil {
		return "(kept for an invited player)"
	}
	if seat.Open() {
		return "(open seat)"
	}
	return seat.Name
}

// selectMove fills the turn panel: the cells legal for the selected tile and
// rotation, then for a chosen cell the fill options, the viewer's edges and
// a preview of what everyone would gain.
func (s *Server) selectMove(st *engine.State, vm *views.GameVM) {
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
		vm.Error = "that tile is not in your hand"
		return
	}
	want := w.Edges(sel.Rot)
	vm.Play.Cells = map[engine.Cell]bool{}
	for _, pl := range vm.View.Legal {
		if pl.Tile == w && pl.Tile.Edges(pl.Rot) == want {
			vm.Play.Cells[pl.At] = true
		}
	}
	if sel.At == nil {
		return
	}
	pl := engine.Placement{Tile: w, Rot: sel.Rot, At: *sel.At, Overbuild: sel.Overbuild}
	if !vm.Play.Cells[pl.At] {
		// Shown at the top: with the cell cleared, the panel asks for one.
		vm.Error = "that cell is not a legal place for this tile"
		vm.Sel.At = nil
		return
	}
	var fills []engine.Fill
	if !pl.Overbuild {
		opts := st.FillOptions(pl.At)
		for _, o := range opts {
			vm.Play.FillOptions = append(vm.Play.FillOptions, fillText(o))
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
		vm.Play.Reason = err.Error()
		return
	}
	var mine []engine.Edge
	for _, e := range edges {
		if e.Owner == vm.Me {
			mine = append(mine, e)
		}
	}
	vm.Play.Edges = edgeChoices(mine)
	pv, err := st.Preview(vm.Me, engine.Move{Placement: pl, Fills: fills})
	if err != nil {
		vm.Play.Reason = err.Error()
		return
	}
	vm.Play.Preview = previewLines(pv, vm.Seats, vm.Me)
	vm.Play.Ready = true
}

func fillText(fs []engine.Fill) string {
	var parts []string
	for _, f := range fs {
		if f.FromPile {
			parts = append(parts, views.CellLabel(f.At)+" gets the top tile of the jungle pile")
		} else {
			parts = append(parts, views.CellLabel(f.At)+" gets "+views.JungleName(f.Tile))
		}
	}
	return strings.Join(parts, "; ")
}

func edgeKey(c engine.Cell, d engine.Side) string { return fmt.Sprintf("%d,%d,%s", c.X, c.Y, d) }

func edgeChoices(es []engine.Edge) []views.EdgeChoice {
	out := make([]views.EdgeChoice, 0, len(es))
	for i, e := range es {
		label := fmt.Sprintf("%d worker(s) on %s side %s facing %s", e.Workers, views.CellLabel(e.Tile), e.Side, views.JungleName(e.Jungle))
		out = append(out, views.EdgeChoice{Key: edgeKey(e.Tile, e.Side), Label: label, Workers: e.Workers, Order: i + 1, Unknown: e.Jungle == engine.NoJungle})
	}
	return out
}

func previewLines(pv engine.Preview, seats []views.Seat, me int) []string {
	var out []string
	for _, g := range pv.Gains {
		text := views.GainText(g)
		if text == "" {
			continue
		}
		who := seats[g.Seat].Name
		if g.Seat == me {
			who = "You"
		}
		out = append(out, fmt.Sprintf("%s: %s", who, text))
	}
	for _, e := range pv.Fired {
		if e.Jungle == engine.NoJungle {
			out = append(out, fmt.Sprintf("%s's workers on %s also face the tile from the pile, still unknown", seats[e.Owner].Name, views.CellLabel(e.Tile)))
		}
	}
	if len(out) == 0 {
		out = append(out, "Nobody gains anything now.")
	}
	return out
}

func templeLine(t engine.TempleResult, seats []views.Seat) string {
	var parts []string
	for i, w := range t.Workers {
		if w > 0 {
			parts = append(parts, fmt.Sprintf("%s %d worker(s) → %d gold", seats[i].Name, w, t.Award[i]))
		}
	}
	if len(parts) == 0 {
		return fmt.Sprintf("Temple at %s: nobody yet", views.CellLabel(t.At))
	}
	return fmt.Sprintf("Temple at %s: %s", views.CellLabel(t.At), strings.Join(parts, ", "))
}

// clocks says, for each seat, how long its player has left and whether
// their clock is paused by a vacation ("" for seats without a deadline).
func (s *Server) clocks(l *models.Loaded) []string {
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
		out[i] = timeLeft(seat.Deadline.Sub(now))
		if until, ok := away[*seat.UserID]; ok {
			out[i] += ", on vacation until " + until.UTC().Format("Mon 2 Jan")
		}
	}
	return out
}

// since tells what the other players did after the viewer's own last move
// (or since the start): their moves, what the viewer gained meanwhile, the
// cells that changed, and which of it is new since the viewer last looked.
func since(l *models.Loaded, me int, seats []views.Seat) *views.SinceVM {
	from := 0
	for _, ev := range l.Events {
		if ev.Seat == me && !ev.Timeout {
			from = ev.Seq + 1
		}
	}
	var evs []models.Event
	var mine engine.Gain
	for _, ev := range l.Events[from:] {
		if ev.Seat == me && !ev.Timeout {
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
	sv := &views.SinceVM{Mine: views.GainText(mine)}
	changed := map[engine.Cell]bool{}
	seen := l.Seats[me].SeenSeq
	for i, text := range logLines(evs, seats) {
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

// logLines tells the game in plain words, one line per log entry.
func logLines(events []models.Event, seats []views.Seat) []string {
	var out []string
	for _, ev := range events {
		name := seats[ev.Seat].Name
		if ev.Timeout {
			name += " (out of time: the greedy bot played)"
		}
		var line string
		switch ev.Kind {
		case models.KindTurn:
			verb := "placed"
			if ev.Placement.Overbuild {
				verb = "overbuilt with"
			}
			line = fmt.Sprintf("%s %s %s at %s", name, verb, ev.Placement.Tile, views.CellLabel(ev.Placement.At))
			for _, f := range ev.Fills {
				line += fmt.Sprintf("; filled %s with %s", views.CellLabel(f.At), views.JungleName(f.Tile))
			}
		case models.KindResolve:
			line = fmt.Sprintf("%s chose how to use workers activated on turn %d", name, ev.Turn+1)
		}
		for _, g := range ev.Gains {
			if text := views.GainText(g); text != "" {
				line += fmt.Sprintf("; %s: %s", seats[g.Seat].Name, text)
			}
		}
		out = append(out, line+".")
	}
	return out
}

// playTurn commits the viewer's turn from the confirm form.
func (s *Server) playTurn(c echo.Context) error {
	l, version, err := s.formGame(c)
	if l == nil || err != nil {
		return err
	}
	sel, problem := parseSelection(c.FormValue("tile"), c.FormValue("rot"), c.FormValue("at"), c.FormValue("overbuild"), c.FormValue("fill"))
	if problem == "" && (sel.Tile == "" || sel.At == nil) {
		problem = "a turn needs a tile, a rotation and a cell"
	}
	if problem != "" {
		return s.refuse(c, l, http.StatusUnprocessableEntity, problem)
	}
	w, _ := engine.ParseWorker(sel.Tile)
	m := engine.Move{Placement: engine.Placement{Tile: w, Rot: sel.Rot, At: *sel.At, Overbuild: sel.Overbuild}}
	if l.Play != nil && !m.Overbuild {
		if opts := l.Play.State().FillOptions(m.At); len(opts) > 0 {
			if sel.Fill >= len(opts) {
				return s.refuse(c, l, http.StatusUnprocessableEntity, "unknown fill choice")
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
		return nil, 0, s.refuse(c, l, http.StatusUnprocessableEntity, "the form is missing the game version; reload the page")
	}
	return l, version, nil
}

// afterCommit runs a commit, lets bots answer, and shows the fresh game; a
// refused or conflicting commit shows the game as it is with the reason.
func (s *Server) afterCommit(c echo.Context, l *models.Loaded, commit func() (*models.Loaded, error)) error {
	if _, err := commit(); err != nil {
		code, msg := status(err)
		if code == http.StatusUnprocessableEntity || code == http.StatusConflict {
			fresh, lerr := s.store.LoadGame(l.Game.ID)
			if lerr != nil {
				return lerr
			}
			return s.refuse(c, fresh, code, msg)
		}
		return err
	}
	if err := s.store.DriveBots(l.Game.ID); err != nil {
		return err
	}
	if isHTMX(c) {
		fresh, err := s.store.LoadGame(l.Game.ID)
		if err != nil {
			return err
		}
		// The choice in progress is spent: the address is the game's again.
		c.Response().Header().Set("HX-Replace-Url", fmt.Sprintf("/games/%d", l.Game.ID))
		return render(c, http.StatusOK, views.GameMain(s.gameVM(c, fresh, views.Selection{})))
	}
	return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/games/%d", l.Game.ID))
}

// refuse shows the game with a reason and a 4xx status; nothing was changed.
// Someone without a seat gets a plain 403.
func (s *Server) refuse(c echo.Context, l *models.Loaded, code int, msg string) error {
	u := currentUser(c)
	if l.SeatOf(u.ID) < 0 {
		return echo.NewHTTPError(http.StatusForbidden, "that is not yours to do")
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
		return nil, errors.New("the form could not be read")
	}
	keys, uses, orders := form["edge"], form["use"], form["order"]
	if len(uses) != len(keys) || len(orders) != len(keys) || len(keys) > 16 {
		return nil, errors.New("each worker choice needs an edge, a number to use and an order")
	}
	type item struct {
		order int
		act   engine.Act
	}
	items := make([]item, 0, len(keys))
	for i, k := range keys {
		parts := strings.Split(k, ",")
		if len(parts) != 3 {
			return nil, errors.New("unknown edge " + strconv.Quote(k))
		}
		cell, ok := parseCell(parts[0] + "," + parts[1])
		side, sok := engine.ParseSide(parts[2])
		use, uerr := strconv.Atoi(uses[i])
		order, oerr := strconv.Atoi(orders[i])
		if !ok || !sok || uerr != nil || oerr != nil || use < 0 {
			return nil, errors.New("each worker choice needs an edge, a number to use and an order")
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
		return echo.NewHTTPError(http.StatusForbidden, "the record can be downloaded once the game is over: it shows every pile")
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
