package autoplay

import (
	"errors"
	"fmt"
	"time"

	"cacao/engine"
	"cacao/engine/bot"
	"cacao/models"
)

// TimeOut plays for seat of game id, whose time ran out: the game's
// stand-in bot makes the seat's pending choices and, if it is the seat's turn in a game
// with a turn limit, its turn, all in one commit marked as a timeout;
// everyone at the table is told and the player keeps the seat. In a game
// without a limit only choices run out of time: the turn waits. A seat
// whose deadline has not passed, or with nothing to play (its timeout was
// already played, by this or another worker), is refused with an error
// matching models.ErrForbidden, and nothing changes.
func TimeOut(store *models.Store, id uint, seat int) (*models.Loaded, error) {
	return timeOut(store, id, seat, direct, false)
}

// errSlow refuses a timeout whose stand-in is slow to a caller that cannot
// let it think now.
var errSlow = errors.New("autoplay: the stand-in is slow")

// timeOut is TimeOut with the stand-in's search run by think; with think
// nil a slow stand-in plays nothing (errSlow), and with quick the
// unattended bot plays instead of a slow one.
func timeOut(store *models.Store, id uint, seat int, think thinker, quick bool) (*models.Loaded, error) {
	r := engine.NewRand(seed())
	for attempt := 0; ; attempt++ {
		l, err := store.LoadGame(id)
		if err != nil {
			return nil, err
		}
		if l.Game.Status != models.StatusActive {
			return nil, models.ErrNotActive
		}
		if seat < 0 || seat >= len(l.Seats) {
			return nil, models.ErrForbidden
		}
		kind := l.Game.StandIn
		if _, ok := bot.ByName(kind); !ok {
			kind = models.DefaultStandIn
		}
		switch {
		case !bot.Slow(kind):
		case quick:
			kind = unattended
		case think == nil:
			return nil, errSlow
		}
		standIn, _ := bot.ByName(kind)
		var plays []models.Play
		work := func() { plays, err = timeoutPlays(l.Play.State().Clone(), seat, l.Game.TurnHours > 0, standIn, r) }
		if bot.Slow(kind) {
			think(work)
		} else {
			work()
		}
		if err != nil {
			return nil, err
		}
		done, err := store.CommitOn(l, l.Game.Version, models.Actor{Timeout: true, Seat: seat}, plays...)
		if errors.Is(err, models.ErrConflict) && attempt < 5 {
			continue // someone moved meanwhile: decide again on the new position
		}
		return done, err
	}
}

// timeoutPlays is what the stand-in bot b does for seat on st (a copy,
// which it plays on): every pending choice, then the seat's turn if it has
// one and turns have a clock (limited).
func timeoutPlays(st *engine.State, seat int, limited bool, b bot.Bot, r *engine.Rand) ([]models.Play, error) {
	var plays []models.Play
	for step := 0; step < 64; step++ {
		switch {
		case len(st.Player(seat).Queue()) > 0:
			acts := b.Resolve(st, seat, r)
			if _, err := st.Resolve(seat, acts); err != nil {
				return nil, err
			}
			plays = append(plays, models.Play{Acts: acts})
		case limited && !st.Over() && st.Current() == seat:
			m, err := b.Move(st, r)
			if err != nil {
				return nil, err
			}
			m.Fills = append([]engine.Fill(nil), m.Fills...) // the bot's buffer
			m.Reactions = nil                                // as the store plays it: others' batches join their queues
			played := m
			if _, err := st.Play(seat, m); err != nil {
				return nil, err
			}
			plays = append(plays, models.Play{Move: &played})
		default:
			return plays, nil
		}
	}
	return plays, nil
}

// Stalled lets the bots move in every game that has waited on one of them
// for over a minute (models.Store.StalledBots), at most a hundred games a
// call. It returns how many games it looked at.
func Stalled(store *models.Store) (int, error) {
	return stalled(store, func(id uint) error { _, err := Bots(store, id, nil); return err })
}

func stalled(store *models.Store, bots func(id uint) error) (int, error) {
	ids, err := store.StalledBots(time.Minute, 100)
	if err != nil {
		return 0, err
	}
	for _, id := range ids {
		if err := bots(id); err != nil {
			return 0, err
		}
	}
	return len(ids), nil
}

// Timeouts plays every seat whose deadline has passed (see TimeOut), at
// most a hundred a call, then lets the bots of those games move. It
// returns how many seats it played for.
func Timeouts(store *models.Store) (int, error) {
	return timeouts(store, func(seat models.Seat) (bool, error) {
		return playTimeout(store, seat, direct, false, func(id uint) error { _, err := Bots(store, id, nil); return err })
	})
}

// timeouts is Timeouts, each seat played by play (false: not played now,
// or nothing to play).
func timeouts(store *models.Store, play func(models.Seat) (bool, error)) (int, error) {
	due, err := store.DueTimeouts(100)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, seat := range due {
		played, err := play(seat)
		if err != nil {
			return n, err
		}
		if played {
			n++
		}
	}
	return n, nil
}

// playTimeout plays seat's timeout (see timeOut for think and quick) and
// then lets bots move in its game; false when there was nothing to play
// or the game moved on meanwhile, or, with think nil, its stand-in is
// slow (errSlow).
func playTimeout(store *models.Store, seat models.Seat, think thinker, quick bool, bots func(id uint) error) (bool, error) {
	_, err := timeOut(store, seat.GameID, seat.Index, think, quick)
	switch {
	case errors.Is(err, models.ErrForbidden):
		// Nothing to play, or played meanwhile.
		return false, store.ClearStale(seat)
	case errors.Is(err, models.ErrNotActive) || errors.Is(err, models.ErrConflict):
		return false, nil // moved on meanwhile
	case err != nil:
		return false, fmt.Errorf("autoplay: timeout of game %d seat %d: %w", seat.GameID, seat.Index, err)
	}
	return true, bots(seat.GameID)
}
