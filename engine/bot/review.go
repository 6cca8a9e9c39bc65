package bot

import (
	"errors"

	"cacao/engine"
)

// Review judges a player's turns once their game is over, as a teacher
// would: for a turn, the hard bot's choice, and how often the player would
// have won after the move they made and after the bot's. Both moves are
// judged alike, from what the player's seat could see at that turn and
// nothing more: each is played on the same deals of the hidden tiles
// (engine.Sampler), the rest of each game by the medium bot for every
// seat. A review never reads another seat's hand or a pile's order.
type Review struct {
	// Search finds the bot's choice; give it Iterations for a review that
	// is the same on every machine.
	Search Search
	// Deals is how many deals judge each move (0: DefaultDeals).
	Deals int
}

// DefaultDeals is how many deals judge a move: the win shares it gives are
// within some ±10 points of the share over every deal.
const DefaultDeals = 48

// TurnReview is one turn judged.
type TurnReview struct {
	// Best is the bot's choice.
	Best engine.Move
	// PlayedWon and BestWon are the shares of the deals the player won
	// after the move played and after Best (a shared first place counts
	// its share), in [0, 1].
	PlayedWon, BestWon float64
	// Same: the move played lays the tile as Best does (the same tile,
	// turn, cell and fills), so the two are one.
	Same bool
}

// Lost is how much of a win share the move played gave away against the
// bot's (0 when it did as well or better).
func (tr TurnReview) Lost() float64 { return max(0, tr.BestWon-tr.PlayedWon) }

// ErrNotATurn means the move judged is no whole turn of the current
// player of the position (its placement is illegal there).
var ErrNotATurn = errors.New("bot: the move reviewed is not a legal turn of the position")

// Turn judges m, the turn the current player of s made.
func (rv Review) Turn(s *engine.State, m engine.Move, r *engine.Rand) (TurnReview, error) {
	seat := s.Current()
	if _, err := s.Clone().Play(seat, m); err != nil {
		return TurnReview{}, errors.Join(ErrNotATurn, err)
	}
	choice, err := rv.Search.Think(s.Clone(), r)
	if err != nil {
		return TurnReview{}, err
	}
	out := TurnReview{Best: choice.Move, Same: sameLay(m, choice.Move)}
	deals := rv.Deals
	if deals <= 0 {
		deals = DefaultDeals
	}
	seeds := make([]uint64, deals)
	for i := range seeds {
		seeds[i] = r.Uint64()
	}
	sp := s.Sampler(seat)
	defer sp.Close()
	out.PlayedWon = wonAfter(sp, seat, m, seeds)
	out.BestWon = out.PlayedWon
	if !out.Same {
		out.BestWon = wonAfter(sp, seat, choice.Move, seeds)
	}
	return out, nil
}

// wonAfter is seat's share of wins over the deals of seeds when it plays m
// and the medium bot plays every seat after it.
func wonAfter(sp *engine.Sampler, seat int, m engine.Move, seeds []uint64) float64 {
	won := 0.0
	var scores []engine.Score
	for _, seed := range seeds {
		r := engine.NewRand(seed)
		st := sp.Sample(r)
		st.ResolveAll() // the others' waiting choices, as they would likely make them
		if _, err := st.Play(seat, m); err != nil {
			continue // cannot be: the move is legal on the board every deal shares
		}
		for !st.Over() {
			st.ResolveAll()
			next, err := Greedy{}.Move(st, r)
			if err != nil {
				break
			}
			if _, err := st.Play(st.Current(), next); err != nil {
				break
			}
		}
		st.ResolveAll()
		scores = st.Scores(scores)
		winners := 0
		for _, sc := range scores {
			if wins(scores, sc) {
				winners++
			}
		}
		if wins(scores, scores[seat]) {
			won += 1 / float64(winners)
		}
	}
	return won / float64(len(seeds))
}

// sameLay reports whether a and b lay the same tile the same way.
func sameLay(a, b engine.Move) bool {
	if a.Placement != b.Placement || len(a.Fills) != len(b.Fills) {
		return false
	}
	for i := range a.Fills {
		if a.Fills[i] != b.Fills[i] {
			return false
		}
	}
	return true
}
