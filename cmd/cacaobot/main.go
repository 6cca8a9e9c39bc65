// Command cacaobot plays a Cacao site's games through its API
// (/api/v1) with one of the engine's bots: an example client.
//
//	CACAO_TOKEN=… go run ./cmd/cacaobot -site https://cacao.example.org -bot greedy
//
// The token is a personal access token of the account it plays for
// (Settings, with the scopes read and play), from $CACAO_TOKEN or the
// file -token-file names. Every -poll it lists the account's games and
// acts on each that waits on it: a waiting choice it makes with the bot's
// Resolve, a turn with the bot's Move, both on a position rebuilt from
// what its seat sees (engine.FromView): the bot never sees more than the
// seat. -game ID plays that game alone and exits once nothing is left to
// do in it; -once acts on what waits now and exits. Each move or choice
// made is a line on standard output. A game that moved on meanwhile (409)
// is read again; a 429 waits as long as Retry-After says; any other
// refusal is printed, with the site's sentence, and the command exits 1.
//
// Flags:
//
//	-site URL       the site (default http://127.0.0.1:8080)
//	-bot NAME       easy, medium, hard, greedy, random or hard-v1 (default greedy)
//	-token-file F   read the token from F instead of $CACAO_TOKEN
//	-game ID        play this game only (0: every game waiting on the account)
//	-poll D         how often to look again (default 2s)
//	-once           act on what waits now, then exit
//	-seed N         the bot's random seed (0: from the clock)
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"cacao/engine"
	"cacao/engine/bot"
	"cacao/handlers/api"
)

// config is what the flags and the environment say.
type config struct {
	site  string
	token string
	bot   string
	game  uint
	poll  time.Duration
	once  bool
	seed  uint64
}

func main() {
	c := config{token: os.Getenv("CACAO_TOKEN")}
	flag.StringVar(&c.site, "site", "http://127.0.0.1:8080", "the site's address")
	flag.StringVar(&c.bot, "bot", "greedy", "the bot that plays: "+strings.Join(bot.Names(), ", "))
	tokenFile := flag.String("token-file", "", "a file holding the token (instead of $CACAO_TOKEN)")
	flag.UintVar(&c.game, "game", 0, "the game to play (0: every game waiting on the account)")
	flag.DurationVar(&c.poll, "poll", 2*time.Second, "how often to look for games waiting")
	flag.BoolVar(&c.once, "once", false, "act on what waits now, then exit")
	flag.Uint64Var(&c.seed, "seed", 0, "the bot's random seed (0: from the clock)")
	flag.Parse()
	if *tokenFile != "" {
		b, err := os.ReadFile(*tokenFile)
		if err != nil {
			fail(err)
		}
		c.token = strings.TrimSpace(string(b))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, c, os.Stdout); err != nil && !errors.Is(err, context.Canceled) {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "cacaobot:", err)
	os.Exit(1)
}

// run plays as c says until there is nothing left to do (-game, -once)
// or ctx ends, writing a line to out for each move or choice made.
func run(ctx context.Context, c config, out io.Writer) error {
	b, ok := bot.ByName(c.bot)
	if !ok {
		return fmt.Errorf("no bot %q (known: %s)", c.bot, strings.Join(bot.Names(), ", "))
	}
	if c.token == "" {
		return errors.New("no token: set CACAO_TOKEN or give -token-file")
	}
	if c.seed == 0 {
		c.seed = uint64(time.Now().UnixNano())
	}
	p := &player{api: &client{site: strings.TrimRight(c.site, "/"), token: c.token, http: &http.Client{Timeout: time.Minute}},
		bot: b, r: engine.NewRand(c.seed), out: out}
	for {
		done, err := p.round(ctx, c.game)
		if err != nil || done || c.once {
			return err
		}
		if err := wait(ctx, c.poll); err != nil {
			return err
		}
	}
}

// player acts for one account with one bot.
type player struct {
	api *client
	bot bot.Bot
	r   *engine.Rand
	out io.Writer
}

// round acts on game id, or with id 0 on every game of the list that
// waits on the account. done says game id has nothing left for it.
func (p *player) round(ctx context.Context, id uint) (done bool, err error) {
	if id != 0 {
		g, err := p.play(ctx, id)
		return err == nil && (g.Status != "open" && g.Status != "active" || g.Over && len(g.Choices) == 0), err
	}
	games, err := call[[]api.Summary](ctx, p.api, http.MethodGet, "/games", nil)
	if err != nil {
		return false, err
	}
	for _, s := range games {
		if s.YourMove {
			if _, err := p.play(ctx, s.ID); err != nil {
				return false, err
			}
		}
	}
	return false, nil
}

// play makes every choice and turn game id waits on from the account, and
// returns the game as it then stands.
func (p *player) play(ctx context.Context, id uint) (api.Game, error) {
	path := fmt.Sprintf("/games/%d", id)
	g, err := call[api.Game](ctx, p.api, http.MethodGet, path, nil)
	for err == nil {
		switch {
		case g.You == nil:
			return g, fmt.Errorf("game %d: the account has no seat in it", id)
		case g.Status != "active":
			return g, nil // not started, or finished or ended: nothing to play
		case len(g.Choices) > 0:
			g, err = p.choose(ctx, g)
		case !g.Over && g.Current != nil && *g.Current == *g.You:
			g, err = p.move(ctx, g)
		default:
			return g, nil
		}
		if movedOn(err) {
			g, err = call[api.Game](ctx, p.api, http.MethodGet, path, nil)
		}
	}
	return g, err
}

// position is g as the bot plays on it.
func (p *player) position(g api.Game) (*engine.State, error) {
	v, err := g.View()
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", g.ID, err)
	}
	s, err := engine.FromView(v, p.r)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", g.ID, err)
	}
	return s, nil
}

// choose makes g's first waiting choice and returns the game after it.
func (p *player) choose(ctx context.Context, g api.Game) (api.Game, error) {
	s, err := p.position(g)
	if err != nil {
		return g, err
	}
	c := api.Choice{Version: &g.Version, Acts: api.ActsOf(p.bot.Resolve(s, *g.You, p.r))}
	after, err := call[api.Game](ctx, p.api, http.MethodPost, fmt.Sprintf("/games/%d/choice", g.ID), c)
	if err == nil {
		fmt.Fprintf(p.out, "game %d: chose for turn %d\n", g.ID, g.Choices[0].Turn+1)
	}
	return after, err
}

// move plays g's turn and returns the game after it.
func (p *player) move(ctx context.Context, g api.Game) (api.Game, error) {
	s, err := p.position(g)
	if err != nil {
		return g, err
	}
	m, err := p.bot.Move(s, p.r)
	if err != nil {
		return g, fmt.Errorf("game %d: %w", g.ID, err)
	}
	t := api.Turn{Version: &g.Version, Move: api.MoveOf(m), Acts: api.ActsOf(m.Acts)}
	after, err := call[api.Game](ctx, p.api, http.MethodPost, fmt.Sprintf("/games/%d/turn", g.ID), t)
	if err == nil {
		fmt.Fprintf(p.out, "game %d: played turn %d: %s rot %d at %v\n", g.ID, g.Turns+1, t.Tile, t.Rot, t.At)
	}
	return after, err
}
