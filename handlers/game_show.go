package handlers

import (
	"fmt"
	"net/http"
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
	if sel.Tile != "" {
		sel.V, _ = strconv.Atoi(c.QueryParam("v"))
	}
	// Opening the game reads its notices: those counted before the game is
	// loaded, so that every notice read tells of the game as shown or
	// earlier; the header counts the others. A step of a selection (htmx)
	// leaves the header as it is: the page that opened the game, or its
	// live refresh, read them.
	var seen models.GameNotices
	u := currentUser(c)
	switch {
	case u == nil:
	case pageHidden(c):
		// The live refresh of a page in a hidden tab: nobody looks, so
		// nothing is read and the game is not seen (its mail stays due).
	case isStep(c, sel):
		c.Set(unreadKey, int64(0)) // a step's answer shows no count
	default:
		if seen, err = s.store.NoticesAt(u.ID, id); err != nil {
			return err
		}
		c.Set(unreadKey, int64(seen.All-seen.Here))
	}
	l, err := s.store.LoadGame(id)
	if err != nil {
		return err
	}
	if !models.Watchable(l.Game, l.Seats, u) {
		return models.ErrNotFound
	}
	// The whole page shows the chat, read before the header counts what
	// is unread.
	var chat *views.ChatVM
	var notes *views.NotesVM
	if !isHTMX(c) {
		cv, err := s.chatVM(c, l, 0)
		if err != nil {
			return err
		}
		cv.Live, chat = true, &cv
		nv, ok, err := s.notesVM(c, l)
		if err != nil {
			return err
		}
		if ok {
			notes = &nv
		}
	}
	var vm views.GameVM
	if problem != "" {
		vm = s.gameVM(c, l, sel)
		vm.Error = problem
	} else {
		vm = s.stepVM(c, l, sel)
	}
	vm.Chat, vm.Notes = chat, notes
	if !isHTMX(c) {
		vm.Account = guestAccountForm(currentUser(c), fmt.Sprintf("/games/%d", l.Game.ID))
	}
	if c.QueryParam("live") == "1" {
		// A refetch after someone else's move: focus stays where the player
		// is, and the moves since the page's last look are read out.
		vm.Focus = ""
		from, _ := strconv.Atoi(c.QueryParam("from"))
		vm.Announce = announce(lang(c), l, from, vm.Me, vm.Names())
	}
	// The player has now seen the game as it is: no "your turn" mail for it.
	if u != nil && !pageHidden(c) {
		if err := s.store.SeeGame(l, vm.Me, u.ID, seen); err != nil {
			return err
		}
	}
	return s.renderGame(c, http.StatusOK, vm)
}

// pageHidden reports whether the request is the live refresh of a page
// its browser does not show (a hidden tab: app.js sends
// X-Page-Visibility from the Page Visibility API).
func pageHidden(c echo.Context) bool {
	return c.Request().Header.Get("X-Page-Visibility") == "hidden"
}

// loadGame loads the game the address names.
func (s *Server) loadGame(c echo.Context) (*models.Loaded, error) {
	id, err := gameID(c)
	if err != nil {
		return nil, err
	}
	return s.store.LoadGame(id)
}

// showLog is a game's whole log, for anyone who may see the game.
func (s *Server) showLog(c echo.Context) error {
	l, err := s.loadGame(c)
	if err != nil {
		return err
	}
	id := l.Game.ID
	lg := lang(c)
	vm := views.GameVM{Page: s.page(c, lg.T("Game %d: the whole log", int(id))), ID: id, Status: l.Game.Status}
	if l.Play != nil {
		for i, seat := range l.Seats {
			vm.Seats = append(vm.Seats, views.Seat{Index: i, Name: seatName(lg, seat), Letter: views.Letters[i]})
		}
		vm.Log = linkTurns(logLines(lg, l.Events, vm.Names()), id, 0)
		if l.Game.Status == models.StatusFinished {
			vm.Result = views.ResultLine(lg, scoreLines(lg, l.Play.State().Score().Scores, vm.Names(), l.Seats))
		}
	}
	return render(c, http.StatusOK, views.LogPage(vm))
}

// gameEvents streams the game's changes (SSE) to an open game page.
func (s *Server) gameEvents(c echo.Context) error {
	id, err := gameID(c)
	if err != nil {
		return err
	}
	seen, _ := strconv.Atoi(c.QueryParam("chat"))
	return s.stream(c, []string{live.Game(id)}, []live.Side{{Topic: live.Chat(id), Seen: seen}}, func() (int, []int, error) {
		version, err := s.store.GameVersion(id)
		if err != nil {
			return 0, nil, err
		}
		chat, err := s.store.LastChat(id)
		return version, []int{int(chat)}, err
	})
}

// renderGame answers with the game: the whole page, or for htmx the game
// area, or only what a step changes (vm.TurnOnly), which the answer's
// headers tell htmx to put in that part's place.
func (s *Server) renderGame(c echo.Context, code int, vm views.GameVM) error {
	if vm.TurnOnly && isHTMX(c) {
		h := c.Response().Header()
		h.Set("HX-Retarget", "#game-turn")
		h.Set("HX-Reselect", "#game-turn")
		return render(c, code, views.GameTurn(vm))
	}
	if isHTMX(c) {
		vm.Fragment = true
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
		return sel, l.Sentence("unknown tile %s", strconv.Quote(tile))
	}
	sel.Tile = tile
	if slot != "" {
		// Which of two alike tiles is marked; a place that does not hold
		// the tile marks the first alike.
		n, err := strconv.Atoi(slot)
		if err != nil || n < 0 || n > 20 {
			return views.Selection{}, l.Sentence("unknown place in the hand")
		}
		sel.Slot = n
	}
	if rot != "" {
		r, err := strconv.Atoi(rot)
		if err != nil || r < 0 || r > 3 {
			return views.Selection{}, l.Sentence("a rotation is 0, 1, 2 or 3")
		}
		sel.Rot = r
	}
	if at == "" {
		return sel, ""
	}
	c, ok := parseCell(at)
	if !ok {
		return sel, l.Sentence("a cell is written x,y")
	}
	sel.At, sel.Overbuild = &c, overbuild == "1"
	if fill != "" {
		f, err := strconv.Atoi(fill)
		if err != nil || f < 0 || f > 20 {
			return sel, l.Sentence("unknown fill choice")
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

// exportRecord downloads the game record; only once the game is over, since
// the record's setup holds every pile's order.
func (s *Server) exportRecord(c echo.Context) error {
	l, err := s.loadGame(c)
	if err != nil {
		return err
	}
	id := l.Game.ID
	// Once the game is over, scored or ended by an admin where it stood (a
	// record without its end, which replays as far as it goes).
	if l.Game.Status != models.StatusFinished && l.Game.Status != models.StatusEnded {
		return refusal(http.StatusForbidden, "the record can be downloaded once the game is over: it shows every pile")
	}
	data, err := l.Play.Record().Encode()
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="cacao-game-%d.json"`, id))
	return send(c, http.StatusOK, "application/json", data)
}
