package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"cacao/engine"
	"cacao/engine/bot"
	"cacao/models"
	"cacao/views"
	"cacao/views/i18n"
)

// mostLost is how many turns of a review are marked as those where most
// was given away, each at least minLost of a win share.
const (
	mostLost = 3
	minLost  = 0.1
)

// reviewSeat is the seat of the signed-in player in l (one who resigned
// too), for their review; ErrNotFound for anyone else, so that a review's
// existence is nobody else's to learn.
func reviewSeat(c echo.Context, l *models.Loaded) (int, error) {
	u := currentUser(c)
	for _, seat := range l.Seats {
		if p := seat.Player(); p != nil && *p == u.ID && l.Game.Status != models.StatusOpen {
			return seat.Index, nil
		}
	}
	return 0, models.ErrNotFound
}

// showReview is the player's review of their turns in a finished game
// (/games/ID/review): the button to ask for it, word that it is being
// made, or the turns judged.
func (s *Server) showReview(c echo.Context) error {
	l, err := s.loadGame(c)
	if err != nil {
		return err
	}
	seat, err := reviewSeat(c, l)
	if err != nil {
		return err
	}
	if l.Game.Status != models.StatusFinished {
		return models.ErrReviewNotOver
	}
	lg := lang(c)
	vm := views.ReviewVM{Page: s.page(c, lg.T("Review of my turns in game %d", int(l.Game.ID))), ID: l.Game.ID, Deals: bot.DefaultDeals}
	r, turns, err := s.store.ReviewOf(l.Game.ID, seat)
	switch {
	case errors.Is(err, models.ErrNotFound):
	case err != nil:
		return err
	default:
		vm.Asked, vm.Done = true, r.DoneAt != nil
		if vm.Done {
			vm.Turns = reviewLines(lg, l, turns)
		} else if own, err := l.OwnTurns(seat); err == nil {
			vm.Made = len(own)
		}
	}
	return render(c, http.StatusOK, views.ReviewPage(vm))
}

// askReview asks for the player's review of their turns and sets out to
// make it; asked for already, it is being made or made.
func (s *Server) askReview(c echo.Context) error {
	l, err := s.loadGame(c)
	if err != nil {
		return err
	}
	if _, err := reviewSeat(c, l); err != nil {
		return err
	}
	u := currentUser(c)
	seat, err := s.store.AskReview(l, u.ID)
	if err != nil && !errors.Is(err, models.ErrReviewAsked) {
		return err
	}
	s.bots.Review(l.Game.ID, seat, u.ID)
	return redirect(c, fmt.Sprintf("/games/%d/review", l.Game.ID))
}

// reviewLines are a review's turns as shown, the worst marked.
func reviewLines(lg *i18n.Lang, l *models.Loaded, turns []models.ReviewedTurn) []views.ReviewLine {
	out := make([]views.ReviewLine, len(turns))
	order := make([]int, len(turns))
	for i, t := range turns {
		order[i] = i
		out[i] = reviewLine(lg, l, t)
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch la, lb := turns[a].Lost(), turns[b].Lost(); {
		case la > lb:
			return -1
		case la < lb:
			return 1
		}
		return 0
	})
	for _, i := range order[:min(mostLost, len(order))] {
		out[i].MostLost = turns[i].Lost() >= minLost
	}
	return out
}

// reviewLine is one turn of a review in words.
func reviewLine(lg *i18n.Lang, l *models.Loaded, t models.ReviewedTurn) views.ReviewLine {
	line := views.ReviewLine{Turn: t.Turn + 1, Link: fmt.Sprintf("/games/%d/turns/%d", l.Game.ID, t.Seq), PlayedWon: views.Percent(t.PlayedWon),
		BestWon: views.Percent(t.BestWon), Same: t.Same}
	if best, err := engine.UnmarshalTurn([]byte(t.Best), len(l.Seats)); err == nil {
		line.BestText = views.MoveText(lg, best.Move)
	}
	if t.Seq < len(l.Log) {
		if played, err := engine.UnmarshalTurn([]byte(l.Log[t.Seq].Data), len(l.Seats)); err == nil {
			line.PlayedText = views.MoveText(lg, played.Move)
		}
	}
	return line
}

// turnReviewCard is the viewer's review of the turn after step n of
// finished game l, with the bot's choice to draw; ok is false when there
// is none (not the viewer's turn, or not reviewed).
func (s *Server) turnReviewCard(c echo.Context, l *models.Loaded, n int) (card views.TurnReviewCard, ok bool, err error) {
	if currentUser(c) == nil || l.Game.Status != models.StatusFinished || n >= len(l.Log) {
		return card, false, nil
	}
	seat, err := reviewSeat(c, l)
	if err != nil || l.Log[n].Kind != models.LogTurn || l.Log[n].Seat != seat {
		return card, false, nil
	}
	r, turns, err := s.store.ReviewOf(l.Game.ID, seat)
	if errors.Is(err, models.ErrNotFound) || err == nil && r.DoneAt == nil {
		return card, false, nil
	}
	if err != nil {
		return card, false, err
	}
	lines := reviewLines(lang(c), l, turns)
	for i, t := range turns {
		if t.Seq != n {
			continue
		}
		card = views.TurnReviewCard{Line: lines[i], Review: fmt.Sprintf("/games/%d/review", l.Game.ID)}
		if best, err := engine.UnmarshalTurn([]byte(t.Best), len(l.Seats)); err == nil && !t.Same {
			card.Ghost = &views.Ghost{Seat: seat, Tile: best.Move.Tile, Rot: best.Move.Rot, At: best.Move.At, Fills: best.Move.Fills}
		}
		return card, true, nil
	}
	return card, false, nil
}
