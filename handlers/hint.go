package handlers

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/labstack/echo/v4"

	"cacao/engine"
	"cacao/engine/bot"
	"cacao/models"
	"cacao/views"
)

// hintBudget is the hard bot's thinking time for a hint: half its own,
// so that the player waits half a second, and strong enough to teach.
const hintBudget = 500 * time.Millisecond

// hint selects the hard bot's choice for the player's turn in a game
// against bots alone, ready to confirm: the page shows what it brings (the
// usual preview) and how often the bot won the games it played out after
// it. Never in a game with another person; only on the player's turn.
func (s *Server) hint(c echo.Context) error {
	l, err := s.loadGame(c)
	if err != nil {
		return err
	}
	u := currentUser(c)
	seat := l.SeatOf(u.ID)
	if seat < 0 {
		return refusal(http.StatusForbidden, "that is not yours to do")
	}
	if l.BotOf(seat) != "" {
		return s.refuse(c, l, http.StatusUnprocessableEntity, sentence(c, "the stand-in bot plays your seat: take it back first"))
	}
	if !l.Solo(seat) {
		return s.refuse(c, l, http.StatusForbidden, sentence(c, "hints are only for games against bots alone"))
	}
	st := l.Play.State()
	if l.Game.Status != models.StatusActive || st.Over() || st.Current() != seat || len(st.Player(seat).Queue()) > 0 {
		return s.refuse(c, l, http.StatusUnprocessableEntity, sentence(c, "a hint is for your turn, once your pending choices are made"))
	}
	if d := s.take(c, hintKey(u.ID)); d > 0 {
		// 422, as the chat's limits: htmx shows the reason in place.
		return s.refuse(c, l, http.StatusUnprocessableEntity, lang(c).N("You asked for many hints in a row. Ask again in %d second.", "You asked for many hints in a row. Ask again in %d seconds.", int(d.Seconds())+1, int(d.Seconds())+1))
	}
	var choice bot.Choice
	// The search waits for the player's turn among the persons whose bots
	// think, not for ever.
	ctx, cancel := context.WithTimeout(c.Request().Context(), 10*time.Second)
	defer cancel()
	busy := s.bots.Think(ctx, u.ID, func() {
		choice, err = bot.Search{Budget: hintBudget, Stop: ctx.Done()}.Think(st.Clone(), engine.NewRand(uint64(time.Now().UnixNano())))
	})
	if busy != nil {
		c.Response().Header().Set("Retry-After", "10")
		return s.refuse(c, l, http.StatusUnprocessableEntity, tr(c, "The bots are busy thinking. Ask for a hint again in a moment."))
	}
	if err != nil {
		return err
	}
	vm := s.stepVM(c, l, hintSelection(st, seat, choice.Move, l.Game.Version))
	vm.Play.Hint = &views.Hint{Won: choice.Won, Games: choice.Visits, Solved: choice.Solved}
	if isHTMX(c) {
		c.Response().Header().Set("HX-Replace-Url", vm.Link(vm.Sel))
	}
	return s.renderGame(c, http.StatusOK, vm)
}

// hintSelection is move m as the page selects it: the first tile of its
// kind in the hand, its turn, its cell and its fill option.
func hintSelection(st *engine.State, seat int, m engine.Move, version int) views.Selection {
	hand := st.Player(seat).HandTiles()
	sel := views.Selection{}.WithTile(hand, slices.Index(hand, m.Tile))
	sel.Rot = m.Rot
	sel = sel.WithCell(m.At, m.Overbuild)
	if !m.Overbuild {
		for i, o := range st.FillOptions(m.At) {
			if slices.Equal(o, m.Fills) {
				sel = sel.WithFill(i)
			}
		}
	}
	sel.V = version
	return sel
}
