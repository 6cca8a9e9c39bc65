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
	"cacao/models"
	"cacao/views"
)

// playTurn commits the viewer's turn from the confirm form.
func (s *Server) playTurn(c echo.Context) error {
	l, version, err := s.formGame(c)
	if l == nil || err != nil {
		return err
	}
	_, m, problem := formMove(c, l)
	if problem != "" {
		return s.refuse(c, l, http.StatusUnprocessableEntity, problem)
	}
	return s.afterCommit(c, l, func() (*models.Loaded, error) {
		return s.store.CommitOn(l, version, models.Actor{UserID: currentUser(c).ID}, models.Play{Move: &m})
	})
}

// formMove reads the move of a turn's form: the selection (tile, rotation,
// cell, fill) and the worker choices. A problem is said in the reader's
// language.
func formMove(c echo.Context, l *models.Loaded) (views.Selection, engine.Move, string) {
	sel, problem := parseSelection(lang(c), c.FormValue("tile"), "", c.FormValue("rot"), c.FormValue("at"), c.FormValue("overbuild"), c.FormValue("fill"))
	if problem == "" && (sel.Tile == "" || sel.At == nil) {
		problem = sentence(c, "a turn needs a tile, a rotation and a cell")
	}
	if problem != "" {
		return sel, engine.Move{}, problem
	}
	w, _ := engine.ParseWorker(sel.Tile)
	m := engine.Move{Placement: engine.Placement{Tile: w, Rot: sel.Rot, At: *sel.At, Overbuild: sel.Overbuild}}
	if l.Play != nil && !m.Overbuild {
		if opts := l.Play.State().FillOptions(m.At); len(opts) > 0 {
			if sel.Fill >= len(opts) {
				return sel, m, sentence(c, "unknown fill choice")
			}
			m.Fills = opts[sel.Fill]
		}
	}
	acts, err := parseActs(c)
	if err != nil {
		return sel, m, err.Error()
	}
	m.Acts = acts
	return sel, m, ""
}

// previewTurn shows the turn's form again with what the move brings with
// the worker choices as they are in it (a use set to 0, another order);
// nothing is committed. An impossible choice is said in the move's panel.
func (s *Server) previewTurn(c echo.Context) error {
	l, version, err := s.formGame(c)
	if l == nil || err != nil {
		return err
	}
	if l.SeatOf(currentUser(c).ID) < 0 {
		return refusal(http.StatusForbidden, "that is not yours to do")
	}
	sel, m, problem := formMove(c, l)
	if sel.Tile == "" || sel.At == nil {
		return s.refuse(c, l, http.StatusUnprocessableEntity, problem)
	}
	// A form from an older version is an out-of-date selection: what no
	// longer fits is dropped, the rest shown as the game is now.
	sel.V = version
	vm := s.stepVM(c, l, sel)
	vm.Focus = ""
	vm.OpenWorkers = true
	if !vm.Play.Ready {
		return s.renderGame(c, http.StatusOK, vm)
	}
	keepChoices(vm.Play.Edges, m.Acts)
	if problem != "" {
		// No preview: the one of every worker would not be the move asked.
		vm.Play.Reason, vm.Play.Preview, vm.Play.TileGains = problem, nil, nil
		return s.renderGame(c, http.StatusUnprocessableEntity, vm)
	}
	pv, err := l.Play.State().Preview(vm.Me, m)
	if err != nil {
		code, msg := status(lang(c), err)
		vm.Play.Reason, vm.Play.Preview, vm.Play.TileGains = msg, nil, nil
		return s.renderGame(c, code, vm)
	}
	vm.Play.Preview, vm.Play.TileGains = views.PreviewLines(lang(c), pv, vm.Names(), vm.Me), pv.Tiles
	return s.renderGame(c, http.StatusOK, vm)
}

// keepChoices shows in edges the worker choices of acts (in their order).
func keepChoices(edges []views.EdgeChoice, acts []engine.Act) {
	for order, a := range acts {
		key := views.EdgeKey(a.Tile, a.Side)
		for i := range edges {
			if edges[i].Key == key {
				edges[i].Use, edges[i].Order = a.Use, order+1
			}
		}
	}
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
		return s.store.CommitOn(l, version, models.Actor{UserID: currentUser(c).ID}, models.Play{Acts: acts})
	})
}

// formGame loads the game a form posts to and reads the version it was made
// on. A nil game means the response (a refusal) is already written or err says why.
func (s *Server) formGame(c echo.Context) (*models.Loaded, int, error) {
	l, err := s.loadGame(c)
	if err != nil {
		return nil, 0, err
	}
	version, err := strconv.Atoi(c.FormValue("version"))
	if err != nil {
		return nil, 0, s.refuse(c, l, http.StatusUnprocessableEntity, sentence(c, "the form is missing the game version; reload the page"))
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
	fresh, err := s.bots.Bots(l.Game.ID, done)
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
		vm.Announce = announce(lang(c), fresh, len(l.Events), vm.Me, vm.Names())
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
		return nil, errors.New(sentence(c, "the form could not be read"))
	}
	keys, uses, orders := form["edge"], form["use"], form["order"]
	if len(uses) != len(keys) || len(orders) != len(keys) || len(keys) > 16 {
		return nil, errors.New(sentence(c, "each worker choice needs an edge, a number to use and an order"))
	}
	type item struct {
		order int
		act   engine.Act
	}
	items := make([]item, 0, len(keys))
	for i, k := range keys {
		parts := strings.Split(k, ",")
		if len(parts) != 3 {
			return nil, errors.New(sentence(c, "unknown edge %s", strconv.Quote(k)))
		}
		cell, ok := parseCell(parts[0] + "," + parts[1])
		side, sok := engine.ParseSide(parts[2])
		use, uerr := strconv.Atoi(uses[i])
		order, oerr := strconv.Atoi(orders[i])
		if !ok || !sok || uerr != nil || oerr != nil || use < 0 {
			return nil, errors.New(sentence(c, "each worker choice needs an edge, a number to use and an order"))
		}
		items = append(items, item{order, engine.Act{Tile: cell, Side: side, Use: use}})
	}
	sort.SliceStable(items, func(a, b int) bool { return items[a].order < items[b].order })
	for i := 1; i < len(items); i++ {
		if items[i].order == items[i-1].order {
			return nil, errors.New(sentence(c, "give each worker choice its own order (two are number %d)", items[i].order))
		}
	}
	var acts []engine.Act
	for _, it := range items {
		acts = append(acts, it.act)
	}
	return acts, nil
}
