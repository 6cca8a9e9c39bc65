package autoplay

import (
	"context"

	"cacao/engine"
	"cacao/engine/bot"
	"cacao/models"
)

// DefaultReview is how a turn is reviewed: the hard bot's choice from a
// fixed number of iterations (the same review on every machine), each
// move judged on bot.DefaultDeals deals; about a second a turn on one
// core.
var DefaultReview = bot.Review{Search: bot.Search{Iterations: 3000}}

// WithReview sets how the Runner reviews a turn (default DefaultReview).
func WithReview(r bot.Review) Option { return func(rn *Runner) { rn.review = r } }

// Review sets out, in the background, to make the review of seat's turns
// in finished game id that user asked for (models.Store.AskReview), unless
// another process has. Each turn is judged in a slot in user's turn, so
// that a review takes no more of the cores than the player's share; the
// review is kept once every turn is judged. A review that cannot be made
// now (the player's share of the slots is full, the process stops) is
// given up, for the next Resume.
func (rn *Runner) Review(id uint, seat int, user uint) {
	ok, err := rn.store.ClaimReview(id, seat)
	if err != nil || !ok {
		if err != nil {
			rn.log.Warn("claiming a review", "game", id, "err", err)
		}
		return
	}
	rn.mu.Lock()
	defer rn.mu.Unlock()
	if rn.closed {
		return // left for Resume: the claim lapses
	}
	rn.wg.Add(1)
	go func() {
		defer rn.wg.Done()
		if err := rn.makeReview(id, seat, user); err != nil {
			rn.log.Warn("making a review", "game", id, "seat", seat, "err", err)
			// Left for the next Resume (the player's share of the slots
			// was full, or the process stops), not for a whole lease.
			if err := rn.store.ReleaseReview(id, seat); err != nil {
				rn.log.Warn("releasing a review", "game", id, "err", err)
			}
		}
	}()
}

// Resume sets out to make the reviews asked for and left unmade (see
// Review), a few at a time; it returns how many.
func (rn *Runner) Resume() (int, error) {
	rs, err := rn.store.StaleReviews(perPerson)
	for _, r := range rs {
		rn.Review(r.GameID, r.Seat, r.UserID)
	}
	return len(rs), err
}

func (rn *Runner) makeReview(id uint, seat int, user uint) error {
	l, err := rn.store.LoadGame(id)
	if err != nil {
		return err
	}
	turns, err := l.OwnTurns(seat)
	if err != nil {
		return err
	}
	out := make([]models.ReviewedTurn, 0, len(turns))
	for _, t := range turns {
		var tr bot.TurnReview
		var terr error
		err := rn.Think(context.Background(), user, func() {
			tr, terr = rn.review.Turn(t.Before, t.Move, engine.NewRand(uint64(id)<<16^uint64(t.Seq)))
		})
		if err == nil {
			err = terr
		}
		if err != nil {
			return err
		}
		best, err := engine.MarshalTurn(engine.RecordTurn{Seat: seat, Move: tr.Best})
		if err != nil {
			return err
		}
		out = append(out, models.ReviewedTurn{Seq: t.Seq, Turn: t.Turn, Best: string(best), PlayedWon: tr.PlayedWon, BestWon: tr.BestWon, Same: tr.Same})
		if err := rn.store.RenewReview(id, seat); err != nil { // still under way here
			return err
		}
	}
	return rn.store.SaveReview(id, seat, out)
}
