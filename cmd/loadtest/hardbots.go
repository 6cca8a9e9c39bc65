package main

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// The hard-bot flood: attackBotAccounts accounts, each asking for
// attackBotGames games against three hard bots at most and looking at
// its games every attackBotLook.
const (
	attackBotAccounts = 2
	attackBotGames    = 30
	attackBotLook     = time.Second
)

// hardBots has attackBotAccounts accounts open as many games against
// three hard bots as the site lets them, and keep every hard bot
// thinking: a move whenever it is theirs, and a resignation and a
// rematch (once a new game) while the site grants rematches.
func (a *Attacks) hardBots(ctx context.Context) {
	var wg sync.WaitGroup
	for _, u := range a.bots {
		wg.Go(func() { a.botFlood(ctx, u) })
	}
	wg.Wait()
}

// botFlood is one account of the hard-bot flood.
func (a *Attacks) botFlood(ctx context.Context, u *vuser) {
	var games []uint
	for i := 0; i < attackBotGames && ctx.Err() == nil; i++ {
		code, err := u.newBotGame(ctx, "hard", "hard", "hard")
		if !a.counted(ctx, code, err, &a.BotGames, &a.BotGamesOpened) {
			break
		}
		games = append(games, u.game)
	}
	rematches := true // while the site grants them
	moved := map[uint]bool{}
	for ctx.Err() == nil && len(games) > 0 {
		for i := 0; i < len(games) && ctx.Err() == nil; i++ {
			u.game = games[i]
			_, body, err := u.do(ctx, "page", "GET", fmt.Sprintf("/games/%d", u.game), nil, true)
			switch {
			case err != nil:
				if ctx.Err() == nil {
					a.unexpected(fmt.Sprintf("hard-bot flood: %v", err))
				}
			case isFinal(body) || rematches && moved[u.game]:
				if id, ok := a.rematch(ctx, u, !isFinal(body)); ok {
					games[i] = id
				} else {
					rematches = false
					games = append(games[:i], games[i+1:]...)
					i--
				}
			case hasChoice(body):
				_, err = u.submit(ctx, "resolve", body)
			case isMyTurn(body):
				if _, err = u.turn(ctx, body); err == nil {
					moved[u.game] = true
					a.mu.Lock()
					a.BotMoves++
					a.mu.Unlock()
				}
			}
			// 409: the game moved on between the look and the post (the
			// bots play in the background): the attacker looks again.
			if err != nil && ctx.Err() == nil && !strings.Contains(err.Error(), ": status 409: ") {
				a.unexpected(fmt.Sprintf("hard-bot flood: game %d: %v", u.game, err))
			}
		}
		wait(ctx, attackBotLook)
	}
}

// rematch resigns u's game (when it still runs) and asks for its rematch,
// and returns the new game, or false when the site refused it.
func (a *Attacks) rematch(ctx context.Context, u *vuser, resign bool) (uint, bool) {
	old := u.game
	if resign {
		if _, _, err := u.do(ctx, "resign", "POST", fmt.Sprintf("/games/%d/resign", old), url.Values{}, true); err != nil {
			if ctx.Err() == nil {
				a.unexpected(fmt.Sprintf("hard-bot flood: resigning: %v", err))
			}
			return 0, false
		}
	}
	res, _, err := u.do(ctx, "rematch", "POST", fmt.Sprintf("/games/%d/rematch", old), url.Values{}, true)
	code := 0
	if res != nil {
		code = res.StatusCode
	}
	if err == nil {
		err = u.setGame(res)
	}
	if !a.counted(ctx, code, err, &a.Rematches, &a.RematchesMade) {
		return 0, false
	}
	return u.game, true
}

// counted counts a game asked for in asked, and in made when the site
// made it (and then reports true); a refusal (429) is expected, any other
// failure is not.
func (a *Attacks) counted(ctx context.Context, code int, err error, asked, made *int) bool {
	if ctx.Err() != nil {
		return false
	}
	if err != nil && code != http.StatusTooManyRequests {
		a.unexpected(fmt.Sprintf("hard-bot flood: a game: %d %v", code, err))
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	*asked++
	if err == nil {
		*made++
	}
	return err == nil
}
