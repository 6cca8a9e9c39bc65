// Package autoplay plays the seats nobody plays at the keyboard: the bots'
// seats, and, with the stand-in bot, abandoned seats and a seat whose time
// ran out. It commits through the store like any player, so the store's
// checks (whose turn, which version, is the deadline past) hold for it
// too.
package autoplay

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"

	"cacao/engine"
	"cacao/engine/bot"
	"cacao/models"
)

// Kinds lists the bots a game can seat (models.WithBots): the levels, and
// the kinds games seated before them keep.
func Kinds() []string { return bot.Names() }

// Levels lists the bots a player is offered, weakest first.
func Levels() []string { return bot.Levels() }

// maxSteps bounds the bots' moves in one call: a game has far fewer.
const maxSteps = 1000

// Bots lets the bots of game id play until a person must act or the game
// ends, each action a commit of its own. from is the game as just
// committed (nil loads it); the game as the bots left it is returned, so
// that a move's answer need not read it again. Slow bots think within the
// call: a request hands them to a Runner instead.
func Bots(store *models.Store, id uint, from *models.Loaded) (*models.Loaded, error) {
	l, _, err := play(context.Background(), store, id, from, -1, direct)
	return l, err
}

// A thinker runs f, a bot's search, and returns once it has: on the
// caller's thread (direct), or on a thread of the lowest priority (the
// Runner's), which runs nothing but the search, so that the loads and
// commits around it, which other players' moves may wait for, keep the
// site's priority.
type thinker func(f func())

func direct(f func()) { f() }

// play is Bots making at most slow moves of slow bots (below 0: any
// number), each searched by think; it stops before the next and says so
// (waiting). Once ctx ends it commits nothing more (and is not waiting).
func play(ctx context.Context, store *models.Store, id uint, from *models.Loaded, slow int, think thinker) (l *models.Loaded, waiting bool, err error) {
	r := engine.NewRand(seed())
	l = from
	for step := 0; step < maxSteps; step++ {
		if l == nil {
			if l, err = store.LoadGame(id); err != nil {
				return nil, false, err
			}
		}
		if l.Game.Status != models.StatusActive {
			return l, false, nil
		}
		if decided, err := store.CatchUpPolicies(l); err != nil || decided {
			if err != nil {
				return nil, false, err
			}
			l = nil
			continue
		}
		st := l.Play.State()
		if nextIsSlow(l) {
			if slow == 0 {
				return l, true, nil
			}
			slow--
		}
		actor, play, ok, err := botPlay(ctx, l, r, think)
		if err != nil {
			return nil, false, err
		}
		if !ok || ctx.Err() != nil {
			return l, false, nil
		}
		done, err := store.CommitOn(l, l.Game.Version, actor, play)
		if err != nil && !errors.Is(err, models.ErrConflict) {
			return nil, false, fmt.Errorf("autoplay: bot of game %d at turn %d: %w", id, st.Turns(), err)
		}
		// The game as committed; after a conflict (someone else moved
		// first), as it is now.
		l = done
	}
	return nil, false, fmt.Errorf("autoplay: the bots of game %d did not stop", id)
}

// nextBot is the seat whose bot acts next in l: the first bot seat with a
// pending choice (resolve), else the current seat if a bot plays it. ok
// is false when no bot has anything to do.
func nextBot(l *models.Loaded) (seat int, resolve, ok bool) {
	st := l.Play.State()
	for i := range l.Seats {
		if l.BotOf(i) != "" && len(st.Player(i).Queue()) > 0 {
			return i, true, true
		}
	}
	cur := st.Current()
	return cur, false, !st.Over() && l.BotOf(cur) != ""
}

// nextIsSlow reports whether what the bots of l do next is a slow bot's
// move (a choice is quick, whichever bot makes it).
func nextIsSlow(l *models.Loaded) bool {
	seat, resolve, ok := nextBot(l)
	return ok && !resolve && bot.Slow(kindOf(l, seat))
}

// unattended is the bot that plays a slow bot's seat once no person
// plays at the table: nobody waits for its moves any more, so the rest of
// the game is played in milliseconds, off the slots, to its result (the
// players who left rank behind every player who finished their own, as
// ever, however the bots play it).
const unattended = "medium"

// kindOf is the bot that plays seat of l (see unattended).
func kindOf(l *models.Loaded, seat int) string {
	if k := l.BotOf(seat); !bot.Slow(k) || person(l) != 0 {
		return k
	}
	return unattended
}

// person is whom game l's slow moves are counted against: its creator
// while they play their seat (they chose the bots), else the first person
// who plays one (0: no person plays any more).
func person(l *models.Loaded) uint {
	first := uint(0)
	for i, st := range l.Seats {
		if st.UserID == nil || l.BotOf(i) != "" {
			continue
		}
		if *st.UserID == l.Game.CreatorID {
			return *st.UserID
		}
		if first == 0 {
			first = *st.UserID
		}
	}
	return first
}

// botPlay is what a bot of l does next (see nextBot), a slow bot's move
// searched by think. ok is false when no bot has anything to do. A search
// ends early once ctx does.
func botPlay(ctx context.Context, l *models.Loaded, r *engine.Rand, think thinker) (models.Actor, models.Play, bool, error) {
	st := l.Play.State()
	seat, resolve, ok := nextBot(l)
	if !ok {
		return models.Actor{}, models.Play{}, false, nil
	}
	b, ok := bot.ByName(kindOf(l, seat))
	if !ok {
		return models.Actor{}, models.Play{}, false, fmt.Errorf("autoplay: no bot %q", kindOf(l, seat))
	}
	if sr, ok := b.(bot.Search); ok {
		sr.Stop = ctx.Done()
		b = sr
	}
	if resolve {
		return models.Actor{Bot: true, Seat: seat}, models.Play{Acts: b.Resolve(st, seat, r)}, true, nil
	}
	var m engine.Move
	var err error
	move := func() { m, err = b.Move(st, r) }
	if bot.Slow(kindOf(l, seat)) {
		think(move)
	} else {
		move()
	}
	if err != nil {
		return models.Actor{}, models.Play{}, false, err
	}
	m.Fills = append([]engine.Fill(nil), m.Fills...) // the bot's buffer
	return models.Actor{Bot: true, Seat: seat}, models.Play{Move: &m}, true, nil
}

func seed() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return binary.LittleEndian.Uint64(b[:])
}
