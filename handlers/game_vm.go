package handlers

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"cacao/engine"
	"cacao/models"
	"cacao/models/rating"
	"cacao/views"
	"cacao/views/i18n"
)

// gameVM builds the game page for the viewer from the engine's viewer-scoped
// view only: nothing else of the position reaches the template.
func (s *Server) gameVM(c echo.Context, l *models.Loaded, sel views.Selection) views.GameVM {
	return s.buildGameVM(c, l, sel, false)
}

// stepVM is the game for the answer to a step of a move (htmx: a tile, a
// turn, a cell, a fill, a preview, a hint): only what a step changes
// (vm.TurnOnly, views.GameTurn) when the page asking shows the game at
// its version (sel.V; 0: not said) and the step is taken; else the whole
// game area.
func (s *Server) stepVM(c echo.Context, l *models.Loaded, sel views.Selection) views.GameVM {
	if isStep(c, sel) && sel.V != 0 && sel.V == l.Game.Version {
		if vm := s.buildGameVM(c, l, sel, true); vm.Error == "" {
			return vm
		}
	}
	return s.gameVM(c, l, sel)
}

// buildGameVM reads what the game page shows beside the loaded game
// (readGame) and builds the page from it; turnOnly leaves out what a step
// does not change (the clocks, the log, the temples, the since panel).
func (s *Server) buildGameVM(c echo.Context, l *models.Loaded, sel views.Selection, turnOnly bool) views.GameVM {
	return s.readGame(c, l, turnOnly).view(sel)
}

// gameSource is everything the game page shows for one viewer: the game
// as loaded and what was read beside it. Its view builds the page from it
// alone and reads nothing.
type gameSource struct {
	l        *models.Loaded
	u        *models.User // the viewer; nil: not signed in
	lg       *i18n.Lang
	page     views.Page
	now      time.Time
	base     string // the site's address, for the invitation link
	step     bool   // an htmx request but the live refetch: with a selection, a step (isStep)
	turnOnly bool
	// vacations: when the last vacation of each seated player who took
	// one ends (the clocks; the idle days of a hand-over).
	vacations map[uint]time.Time
	chat      []models.ChatMessage // the others' latest since the viewer's last move
	moreChat  bool
	invitees  []views.Invitee // of an open table, for its creator
	rematch   *models.Loaded  // of a finished game
	names     map[uint]string // of the players invited to the rematch
	// bots: the ratings of the bot levels seated, in the game's format.
	bots map[string]models.BotRating
}

// readGame reads, for the viewer of c, what the page of game l shows
// beside it. A read that fails leaves its part out (logged).
func (s *Server) readGame(c echo.Context, l *models.Loaded, turnOnly bool) gameSource {
	u := currentUser(c)
	lg := lang(c)
	g := gameSource{l: l, u: u, lg: lg, page: s.page(c, lg.T("Game %d", int(l.Game.ID))), now: s.store.Clock(), base: s.baseURL(c),
		step: isHTMX(c) && c.QueryParam("live") != "1", turnOnly: turnOnly}
	warn := func(what string, err error) {
		if err != nil {
			s.log.Warn(what, "game", l.Game.ID, "err", err)
		}
	}
	me := -1
	if u != nil {
		me = l.SeatOf(u.ID)
	}
	var err error
	switch l.Game.Status {
	case models.StatusOpen:
		if u == nil || u.ID != l.Game.CreatorID {
			break
		}
		for _, seat := range l.Seats {
			if seat.Open() && seat.InvitedID != nil {
				if p, err := s.store.UserByID(*seat.InvitedID); err == nil {
					g.invitees = append(g.invitees, views.Invitee{ID: p.ID, Name: views.Marked(lg, p.Username, views.MarkOf(p.Guest, p.BotAccount))})
				}
			}
		}
	case models.StatusFinished:
		if id := l.Game.RematchID; id != nil {
			g.rematch, err = s.store.LoadGame(*id)
			warn("a game's rematch", err)
			if g.rematch != nil {
				g.names = map[uint]string{}
				for _, seat := range g.rematch.Seats {
					if seat.Open() && seat.InvitedID != nil {
						if p, err := s.store.UserByID(*seat.InvitedID); err == nil {
							g.names[p.ID] = views.Marked(lg, p.Username, views.MarkOf(p.Guest, p.BotAccount))
						}
					}
				}
			}
		}
	}
	if l.Game.Status == models.StatusOpen || turnOnly {
		return g
	}
	if slices.ContainsFunc(l.Seats, func(seat models.Seat) bool { return models.BotLevel(seat.Bot) != "" }) {
		g.bots, err = s.store.BotRatings(models.FormatOf(len(l.Seats)))
		warn("the bots' ratings", err)
	}
	// The players with a clock, and those kept waiting for long enough to
	// be handed over but for a vacation.
	var users []uint
	for _, seat := range l.Seats {
		idle := l.Game.TurnHours == 0 && seat.WaitingSince != nil && g.now.Sub(*seat.WaitingSince) >= models.IdleHandOver
		if seat.UserID != nil && (seat.Deadline != nil || idle) {
			users = append(users, *seat.UserID)
		}
	}
	g.vacations, err = s.store.Vacations(users)
	warn("vacations", err)
	if me >= 0 && !l.Seats[me].ChatMuted && l.Game.LastChat != 0 {
		g.chat, g.moreChat, err = s.store.ChatSince(l.Game.ID, u.ID, lastMoveAt(l, me), sinceChatShown)
		warn("the chat since the last move", err)
	}
	return g
}

// lastMoveAt is when seat me last moved (the game's start if never).
func lastMoveAt(l *models.Loaded, me int) time.Time {
	at := l.Game.CreatedAt
	for _, ev := range l.Events {
		if ownMove(ev, me) {
			at = ev.At
		}
	}
	return at
}

// view builds the game page from the engine's viewer-scoped view only:
// nothing else of the position reaches the template.
func (g gameSource) view(sel views.Selection) views.GameVM {
	l, u, lg, turnOnly := g.l, g.u, g.lg, g.turnOnly
	vm := views.GameVM{Page: g.page, ID: l.Game.ID, Version: l.Game.Version,
		Status: l.Game.Status, Me: -1, TurnLimit: views.LimitName(lg, l.Game.TurnHours)}
	vm.Step, vm.TurnOnly = g.step && sel != (views.Selection{}), turnOnly
	vm.RematchOf = l.Game.RematchOf
	vm.TournamentID, vm.TourRound = l.Game.TournamentID, l.Game.TourRound
	if u != nil {
		vm.Me = l.SeatOf(u.ID)
	}
	if l.Game.Status == models.StatusOpen {
		for i, seat := range l.Seats {
			name := seatName(lg, seat)
			if seat.Open() {
				name = views.OpenSeatName(lg, seat.InvitedID != nil)
			}
			vm.Seats = append(vm.Seats, views.Seat{Index: i, Name: name, Letter: views.Letters[i]})
			if u != nil && seat.Open() && seat.InvitedID != nil && *seat.InvitedID == u.ID {
				vm.InvitedMe = true
			}
			if u != nil && seat.FreeFor(u.ID) {
				vm.CanJoin = true
			}
		}
		if vm.Me >= 0 {
			vm.Invite = g.base + "/join/" + l.Game.InviteToken
		}
		vm.Creator = u != nil && u.ID == l.Game.CreatorID
		vm.Invitees = g.invitees
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
	ended := l.Game.Status == models.StatusEnded
	if ended {
		vm.EndReason = l.Game.EndReason
	}
	clocks := g.clocks()
	for i, seat := range l.Seats {
		vm.Seats = append(vm.Seats, views.Seat{Index: i, Name: seatName(lg, seat), User: seatUser(seat), Letter: views.Letters[i], Bot: seat.Bot,
			Village: v.Seats[i], IsMe: i == vm.Me, ToPlay: !v.Over && !ended && v.Current == i, Clock: clocks[i], Resigned: seat.ResignedID != nil, Abandoned: seat.Abandoned})
		if r, ok := g.bots[models.BotLevel(seat.Bot)]; ok {
			vm.Seats[i].Rating = views.RatingText(lg, r.Rating, r.Games, rating.Provisional)
		}
		vm.AbandonedMe = vm.AbandonedMe || i == vm.Me && seat.Abandoned
		vm.ResignedMe = vm.ResignedMe || u != nil && seat.ResignedID != nil && *seat.ResignedID == u.ID
	}
	vm.CanResign = vm.Me >= 0 && l.Game.Status == models.StatusActive
	vm.Aborted = ended && l.Game.Aborted
	// A started game's seats are in play order (models.LoadGame), so the
	// viewer's seat is vm.Me both in the engine and in l.Seats.
	if vm.Me >= 0 && !l.Seats[vm.Me].Abandoned && l.CanAbort() {
		agreed, agreeing := l.AbortAgreed()
		vm.Abort, vm.AbortAlone = true, len(agreeing) == 1
		for _, i := range agreed {
			if i == vm.Me {
				vm.AbortMine = true
			} else {
				vm.AbortAsked = append(vm.AbortAsked, l.Seats[i].Name)
			}
		}
	}
	for _, i := range g.handOvers(vm.Me) {
		vm.HandOver = append(vm.HandOver, vm.Seats[i])
	}
	names := vm.Names()
	vm.LogLen = len(l.Events)
	vm.Arrived = arrived(l.Events, len(l.Seats))
	if n := len(l.Events); n > 0 {
		for i := range vm.Seats {
			if g := l.Events[n-1].Gains; i < len(g) {
				vm.Seats[i].Gained = views.GainText(lg, g[i])
			}
		}
	}
	if !turnOnly {
		// The page shows the log's last entries (the since panel tells a
		// returning player the rest of what is new); /games/ID/log has it all.
		from := max(0, len(l.Events)-views.LogShown)
		vm.Log, vm.LogFrom = linkTurns(logLines(lg, l.Events[from:], names), l.Game.ID, from), from
		for _, t := range v.Result.Temples {
			vm.Temples = append(vm.Temples, views.TempleLine(lg, t, names, vm.Finished))
		}
		if vm.Me >= 0 {
			vm.Since = since(lg, l, vm.Me, names)
			g.sinceChat(&vm)
		}
	}
	if vm.Finished {
		g.rematchVM(&vm)
		vm.Scores = scoreLines(lg, v.Result.Scores, vm.Names(), l.Seats)
		vm.TieNotes = views.TieNotes(lg, vm.Scores)
		vm.Result = views.ResultLine(lg, vm.Scores)
	}
	if vm.Me < 0 || ended {
		return vm
	}
	if len(v.Queue) > 0 {
		b := v.Queue[0]
		vm.Pending = &views.Pending{Turn: b.Turn, Edges: views.EdgeChoices(lg, b.Edges), More: len(v.Queue) - 1}
		choiceGives(lg, st, vm.Me, vm.Pending.Edges, b.Edges)
	}
	vm.Play.MyTurn = !v.Over && v.Current == vm.Me
	if vm.Play.MyTurn || vm.Pending != nil {
		// The tab says so: a player with many tabs sees whose turn it is.
		vm.Title = lg.T("Your turn · Game %d", int(l.Game.ID))
	}
	vm.SkipToHand = vm.Play.MyTurn
	vm.Play.CanAct = vm.Play.MyTurn && len(v.Queue) == 0
	vm.Play.CanHint = vm.Play.CanAct && l.Game.Status == models.StatusActive && l.Solo(vm.Me)
	if !vm.Play.CanAct {
		return vm
	}
	vm.Sel = sel
	selectMove(lg, st, &vm)
	return vm
}

// rematchVM links the finished game to its rematch, or offers one to
// the viewer who played it.
func (g gameSource) rematchVM(vm *views.GameVM) {
	if g.l.Game.RematchID == nil {
		vm.CanRematch = vm.Me >= 0 || vm.ResignedMe
		return
	}
	r := g.rematch
	if r == nil {
		return
	}
	vm.Rematch = &views.RematchVM{ID: r.Game.ID, Status: r.Game.Status}
	for _, seat := range r.Seats {
		if !seat.Open() || seat.InvitedID == nil {
			continue
		}
		if name, ok := g.names[*seat.InvitedID]; ok {
			vm.Rematch.Waiting = append(vm.Rematch.Waiting, name)
		}
		vm.Rematch.InvitedMe = vm.Rematch.InvitedMe || g.u != nil && *seat.InvitedID == g.u.ID
	}
}

// clocks says, for each seat, how long its player has left and whether
// their clock is paused by a vacation ("" for seats without a deadline,
// and in a step's answer, which does not show them).
func (g gameSource) clocks() []string {
	out := make([]string, len(g.l.Seats))
	if g.turnOnly {
		return out
	}
	for i, seat := range g.l.Seats {
		if seat.Deadline != nil && seat.UserID != nil {
			var away time.Time
			if v := g.vacations[*seat.UserID]; v.After(g.now) {
				away = v
			}
			out[i] = views.ClockText(g.lg, seat.Deadline.Sub(g.now), away)
		}
	}
	return out
}

// handOvers lists the seats the viewer (engine seat me) may hand to the
// bot now.
func (g gameSource) handOvers(me int) []int {
	var out []int
	if me < 0 || g.l.Game.Status != models.StatusActive {
		return nil
	}
	for i := range g.l.Seats {
		if models.HandOverAllowed(g.l, me, i, g.now, g.vacations) == nil {
			out = append(out, i)
		}
	}
	return out
}

// arrived is the cells the last round of moves (one per seat) laid tiles
// on, each with the number of its log entry (from 1); a later move on a
// cell wins.
func arrived(events []models.Event, seats int) map[engine.Cell]int {
	out := map[engine.Cell]int{}
	for i := max(0, len(events)-seats); i < len(events); i++ {
		ev := events[i]
		if ev.Kind != models.LogTurn {
			continue
		}
		out[ev.Placement.At] = i + 1
		for _, f := range ev.Fills {
			out[f.At] = i + 1
		}
	}
	return out
}

// ownMove reports whether ev is seat me's player's own doing (not the
// bot's for them, nor their standing policy's).
func ownMove(ev models.Event, me int) bool {
	return ev.Seat == me && !ev.Timeout && !ev.Auto && !ev.Stand
}

// since tells what the other players did after the viewer's own last move
// (or since the start): their moves, what the viewer gained meanwhile, the
// cells that changed, and which of it is new since the viewer last looked.
func since(lg *i18n.Lang, l *models.Loaded, me int, names []string) *views.SinceVM {
	from := 0
	for _, ev := range l.Events {
		if ownMove(ev, me) {
			from = ev.Seq + 1
		}
	}
	var evs []models.Event
	var mine engine.Gain
	for _, ev := range l.Events[from:] {
		if ownMove(ev, me) {
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
	for i, item := range logLines(lg, evs, names) {
		ev := evs[i]
		sv.Lines = append(sv.Lines, views.SinceLine{LogItem: item, New: ev.Seq >= seen})
		if ev.Kind == models.LogTurn {
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

// sinceChatShown is how many of the messages since the viewer's last
// move the since panel shows.
const sinceChatShown = 3

// sinceChat adds to the since panel the latest messages the others wrote
// after the viewer's last move (unless they muted the chat).
func (g gameSource) sinceChat(vm *views.GameVM) {
	if len(g.chat) == 0 {
		return
	}
	if vm.Since == nil {
		vm.Since = &views.SinceVM{}
	}
	for _, m := range g.chat {
		vm.Since.Chat = append(vm.Since.Chat, views.ChatLine{ID: m.ID, Name: m.Name, Text: m.Text, At: m.CreatedAt})
	}
	vm.Since.MoreChat = g.moreChat
}

// announce tells the log entries from the from-th on that are not the
// viewer's own doing, for the page's live region.
func announce(lg *i18n.Lang, l *models.Loaded, from, me int, names []string) []string {
	if from < 0 || from >= len(l.Events) {
		return nil
	}
	var others []models.Event
	for _, ev := range l.Events[from:] {
		if !ownMove(ev, me) {
			others = append(others, ev)
		}
	}
	var out []string
	for _, item := range logLines(lg, others, names) {
		out = append(out, item.Text)
	}
	if len(out) > 5 {
		out = append([]string{lg.N("%d more moves before these.", "%d more moves before these.", len(out)-5, len(out)-5)}, out[len(out)-5:]...)
	}
	return out
}

// linkTurns links log lines, the first of them the entry from, to the
// replay of game id after each.
func linkTurns(items []views.LogItem, id uint, from int) []views.LogItem {
	for i := range items {
		items[i].Link = fmt.Sprintf("/games/%d/turns/%d", id, from+i+1)
	}
	return items
}

// logLines tells events in plain words, one line each.
func logLines(l *i18n.Lang, events []models.Event, names []string) []views.LogItem {
	out := make([]views.LogItem, 0, len(events))
	for _, ev := range events {
		item := views.LogItem{Text: views.LogLine(l, views.LogEntry{Resolve: ev.Kind == models.LogResolve, Resign: ev.Kind == models.LogResign,
			Abandon: ev.Kind == models.LogAbandon, Back: ev.Kind == models.LogBack, By: ev.By, RoundEnd: ev.By == models.ByRoundEnd,
			Seat: ev.Seat, Turn: ev.Turn, Timeout: ev.Timeout, Auto: ev.Auto, Stand: ev.Stand, Placement: ev.Placement, Fills: ev.Fills, Gains: ev.Gains}, names)}
		if ev.Kind == models.LogTurn {
			item.Turn = ev.Turn + 1
		}
		out = append(out, item)
	}
	return out
}

func (s *Server) baseURL(c echo.Context) string {
	if s.cfg.BaseURL != "" {
		return strings.TrimRight(s.cfg.BaseURL, "/")
	}
	return c.Scheme() + "://" + c.Request().Host
}

// scoreLines is the final table: each seat's score and place, by place.
func scoreLines(lg *i18n.Lang, scores []engine.Score, names []string, seats []models.Seat) []views.ScoreLine {
	places := models.Places(scores, seats)
	out := make([]views.ScoreLine, 0, len(scores))
	for i, sc := range scores {
		line := views.ScoreLine{Name: names[i], User: seatUser(seats[i]), Letter: views.Letters[i], Score: sc, Place: places[i], Shared: engine.SharedPlace(places, i),
			Resigned: seats[i].ResignedID != nil, Abandoned: seats[i].Abandoned}
		if seats[i].RatedTo != 0 {
			line.Change = views.RatingChange(lg, seats[i].RatedFrom, seats[i].RatedTo)
		}
		out = append(out, line)
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Place < out[b].Place })
	return out
}

// choiceGives tells, for each edge of the viewer's waiting choice and each
// number of workers it may use, what the viewer would get, the other edges
// using all their workers in the default order. Only the viewer's own
// village changes, from the public board: nothing hidden is told.
func choiceGives(lg *i18n.Lang, st *engine.State, me int, choices []views.EdgeChoice, edges []engine.Edge) {
	before := *st.Player(me)
	for i, e := range edges {
		choices[i].Gives = make([]string, e.Workers+1)
		for u := 0; u <= e.Workers; u++ {
			acts := make([]engine.Act, len(edges))
			for k, o := range edges {
				acts[k] = engine.Act{Tile: o.Tile, Side: o.Side, Use: o.Workers}
			}
			acts[i].Use = u
			c := st.Clone()
			if _, err := c.Resolve(me, acts); err != nil {
				choices[i].Gives = nil
				break
			}
			choices[i].Gives[u] = views.GainText(lg, engine.GainOf(me, &before, c.Player(me)))
			if choices[i].Gives[u] == "" {
				choices[i].Gives[u] = lg.T("nothing")
			}
		}
	}
}
