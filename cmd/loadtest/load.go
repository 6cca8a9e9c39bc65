package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Load is a set of virtual users against a site.
type Load struct {
	users []*vuser
}

// vuser is one player's page in a browser: its account's cookies and CSRF
// token, its game and partner.
type vuser struct {
	name    string
	base    string
	addr    string // the client address it comes from (X-Forwarded-For: the server trusts it)
	http    *http.Client
	stream  *http.Client
	csrf    string
	r       *rand.Rand
	creator bool
	invites chan string // from the creator of each new game to the partner
	game    uint
	st      Stats
	win     window
	// finishOnly: play the current game to its end, then stop.
	finishOnly bool
	// open is the open loop's state of this page; nil in the closed loop,
	// whose players never think and start each turn at once.
	open *openPlayer
	// sample keeps answers of the measured time for the floor (-floor).
	sample *sampler
}

// NewLoad makes users virtual users for the site's servers at bases (user
// i on bases[i mod len(bases)]: a game's two players on two instances when
// there are two), each with an account of its own.
func NewLoad(bases []string, users int, seed uint64) *Load {
	return newLoad(bases, users, users, seed)
}

// newLoad makes users virtual users sharing accounts accounts (an even
// number, at most users): user i plays on account i mod accounts, as a
// player with several games open in tabs of one browser. Users 2k and 2k+1
// play together, on different accounts; user i on bases[i mod len(bases)].
func newLoad(bases []string, users, accounts int, seed uint64) *Load {
	tr := &http.Transport{MaxIdleConns: 4 * users, MaxIdleConnsPerHost: 4 * users, IdleConnTimeout: time.Minute}
	l := &Load{}
	run := time.Now().UnixNano() % 1_000_000
	first := int(loads.Add(1)-1) * accounts // this run's first address
	for i := 0; i < users; i++ {
		// Each account comes from an address of its own (in 198.18.0.0/15,
		// the benchmarking range), as players do: the site's limits per
		// address apply to it as to anyone. The runs of one loadtest
		// (-abuse, -pairs) take addresses apart, as new players would: the
		// site's sign-ups an address an hour would refuse them at the sixth.
		a := i % accounts
		ip := (first + a) % (1 << 17)
		u := &vuser{name: fmt.Sprintf("lt%d_%d", run, a), base: bases[i%len(bases)], r: rand.New(rand.NewPCG(seed, uint64(i))),
			addr:    fmt.Sprintf("198.%d.%d.%d", 18+ip>>16, (ip>>8)&255, ip&255),
			creator: i%2 == 0, st: Stats{Lat: map[string][]time.Duration{}}}
		if i < accounts {
			jar, _ := cookiejar.New(nil)
			u.http = &http.Client{Jar: jar, Transport: tr, Timeout: 30 * time.Second}
			u.stream = &http.Client{Jar: jar, Transport: tr}
		} else {
			acc := l.users[i%accounts]
			u.http, u.stream = acc.http, acc.stream
		}
		if u.creator {
			u.invites = make(chan string, 1)
		} else {
			u.invites = l.users[i-1].invites
		}
		l.users = append(l.users, u)
	}
	return l
}

// Setup signs every account up (a few at a time: bcrypt is slow on
// purpose) and gives each user its account's CSRF token.
func (l *Load) Setup(ctx context.Context) error {
	sem := make(chan struct{}, 8)
	errc := make(chan error, len(l.users))
	var wg sync.WaitGroup
	accounts := map[string]*vuser{}
	for _, u := range l.users {
		if accounts[u.name] != nil {
			continue
		}
		accounts[u.name] = u
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errc <- u.signup(ctx)
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		if err != nil {
			return err
		}
	}
	for _, u := range l.users {
		u.csrf = accounts[u.name].csrf
	}
	return nil
}

// Finish lets every user play the game they are in to its end (at most d),
// starting no new one, and returns what they did.
func (l *Load) Finish(ctx context.Context, d time.Duration) Stats {
	for _, u := range l.users {
		u.finishOnly = true
		u.st = Stats{Lat: map[string][]time.Duration{}}
		select {
		case <-u.invites: // an invite nobody took
		default:
		}
	}
	return l.Play(ctx, d)
}

// Games lists the games the users are in now.
func (l *Load) Games() []uint {
	seen := map[uint]bool{}
	var out []uint
	for _, u := range l.users {
		if u.game != 0 && !seen[u.game] {
			seen[u.game] = true
			out = append(out, u.game)
		}
	}
	return out
}

// Play lets every user play for d and returns what they did.
func (l *Load) Play(ctx context.Context, d time.Duration) Stats {
	return l.each(ctx, d, (*vuser).loop)
}

// each runs act for every user at once, timed, for d, and returns what
// they did.
func (l *Load) each(ctx context.Context, d time.Duration, act func(*vuser, context.Context)) Stats {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	start := time.Now()
	var wg sync.WaitGroup
	for _, u := range l.users {
		u.win = window{from: start}
		wg.Add(1)
		go func() {
			defer wg.Done()
			act(u, ctx)
		}()
	}
	wg.Wait()
	all := Stats{Elapsed: time.Since(start), Lat: map[string][]time.Duration{}}
	for _, u := range l.users {
		all.add(&u.st)
	}
	return all
}

// loads counts the loads made by this process, each signing its players
// up from addresses of its own.
var loads atomic.Int64

var inviteRE = regexp.MustCompile(`/join/([0-9a-f]{32})`)

// loop plays games until ctx ends: the creator of a pair starts each game
// and hands the invite to the partner, who joins by it.
func (u *vuser) loop(ctx context.Context) {
	for ctx.Err() == nil {
		if u.game == 0 && u.finishOnly {
			return
		}
		if u.game == 0 {
			if _, err := u.newGame(ctx); err != nil {
				if ctx.Err() == nil {
					time.Sleep(50 * time.Millisecond)
				}
				continue
			}
		}
		if err := u.playGame(ctx); err != nil && ctx.Err() == nil {
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// newGame puts u in a new game: the creator creates it, opens its page and
// hands the invite on (and returns that page); the partner joins by the
// invite (and returns "": the page is theirs to open).
func (u *vuser) newGame(ctx context.Context) (string, error) {
	if !u.creator {
		select {
		case tok := <-u.invites:
			if _, _, err := u.do(ctx, "page", "GET", "/join/"+tok, nil, false); err != nil {
				return "", err
			}
			res, _, err := u.do(ctx, "join", "POST", "/join/"+tok, url.Values{}, true)
			if err != nil {
				return "", err
			}
			return "", u.setGame(res)
		case <-ctx.Done():
			return "", errStop
		}
	}
	res, _, err := u.do(ctx, "create", "POST", "/games", url.Values{"seat": {"open"}}, true)
	if err != nil {
		return "", err
	}
	if err := u.setGame(res); err != nil {
		return "", err
	}
	_, page, err := u.do(ctx, "page", "GET", fmt.Sprintf("/games/%d", u.game), nil, false)
	if err != nil {
		return "", err
	}
	m := inviteRE.FindStringSubmatch(page)
	if m == nil {
		u.fail(fmt.Errorf("no invite link on the page of a new game"))
		return "", errors.New("no invite")
	}
	u.invites <- m[1]
	return page, nil
}

func (u *vuser) setGame(res *http.Response) error {
	loc := res.Header.Get("HX-Redirect")
	id, err := strconv.ParseUint(strings.TrimPrefix(loc, "/games/"), 10, 32)
	if err != nil {
		u.fail(fmt.Errorf("no game in the redirect %q", loc))
		return err
	}
	u.game = uint(id)
	return nil
}

// playGame plays u's game to its end as an open page does: it shows the
// response of each of its own moves, and fetches the page again only when
// the game's event stream says the game moved past the version shown.
func (u *vuser) playGame(ctx context.Context) error {
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	events := u.listen(gctx, fmt.Sprintf("/games/%d/events", u.game))
	page := fmt.Sprintf("/games/%d", u.game)
	_, body, err := u.do(ctx, "page", "GET", page, nil, true)
	if err != nil {
		return err
	}
	for ctx.Err() == nil {
		shown := shownVersion(body)
		switch {
		case isFinal(body):
			u.gameOver()
			return nil
		case hasChoice(body):
			if body, err = u.submit(ctx, "resolve", body); err != nil {
				return err
			}
			continue
		case isMyTurn(body):
			if body, err = u.turn(ctx, body); err != nil {
				return err
			}
			continue
		}
		for waiting := true; waiting; {
			select {
			case v := <-events:
				waiting = v <= shown
			case <-time.After(2 * time.Second): // a missed event costs a refetch, never the game
				waiting = false
			case <-ctx.Done():
				return errStop
			}
		}
		if _, body, err = u.do(ctx, "page", "GET", page, nil, true); err != nil {
			return err
		}
	}
	return errStop
}

// listen follows the game's event stream at path and passes on each
// event's id (the game's new version). Reconnecting, it sends the last id
// seen, as a browser's EventSource does, so no move is missed meanwhile.
func (u *vuser) listen(ctx context.Context, path string) <-chan int {
	ch := make(chan int, 16)
	// The stream outlives its game by a moment: it reads nothing of u that
	// may change meanwhile (the crash test points u at a new server).
	url, client := u.base+path, u.stream
	go func() {
		last := ""
		for ctx.Err() == nil {
			req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
			req.Header.Set("Accept", "text/event-stream")
			req.Header.Set("X-Forwarded-For", u.addr)
			if last != "" {
				req.Header.Set("Last-Event-ID", last)
			}
			res, err := client.Do(req)
			if err != nil {
				if ctx.Err() == nil {
					time.Sleep(100 * time.Millisecond)
				}
				continue
			}
			sc := bufio.NewScanner(res.Body)
			for sc.Scan() {
				if id, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
					last = id
					v, _ := strconv.Atoi(id)
					select {
					case ch <- v:
					case <-ctx.Done():
					}
				}
			}
			res.Body.Close()
		}
	}()
	return ch
}

// gameOver leaves the game u was in, counting it once (by its creator)
// when it ended in the measured time.
func (u *vuser) gameOver() {
	u.game = 0
	if u.creator && u.win.has(time.Now()) {
		u.st.Finished++
	}
}

// turn chooses a tile, then a legal cell (rotating when the tile fits
// nowhere as it is), then confirms the move form, as a player clicks. In
// the open loop the player thinks before each click after the first, and
// the page may be refreshed meanwhile (think).
func (u *vuser) turn(ctx context.Context, body string) (string, error) {
	hand := links(body, isTile)
	u.r.Shuffle(len(hand), func(i, j int) { hand[i], hand[j] = hand[j], hand[i] })
	for _, tile := range hand {
		link := tile
		for rot := 0; rot < 4; rot++ {
			_, sel, err := u.do(ctx, "select", "GET", link, nil, true)
			if err != nil {
				return "", err
			}
			cells := links(sel, isCell)
			if len(cells) > 0 && u.open != nil {
				if sel, err = u.think(ctx, sel); err != nil {
					return "", err
				}
				if cells = links(sel, isCell); len(cells) == 0 {
					return sel, nil // the page moved on: the player reads it again
				}
			}
			if len(cells) > 0 {
				_, chosen, err := u.do(ctx, "select", "GET", cells[u.r.IntN(len(cells))], nil, true)
				if err != nil {
					return "", err
				}
				if u.open != nil {
					if chosen, err = u.think(ctx, chosen); err != nil {
						return "", err
					}
				}
				return u.submit(ctx, "turn", chosen)
			}
			if u.open != nil {
				if sel, err = u.think(ctx, sel); err != nil {
					return "", err
				}
			}
			rl := links(sel, isRotate)
			if len(rl) == 0 {
				break
			}
			link = rl[0]
		}
	}
	u.fail(fmt.Errorf("game %d: no tile of the hand fits anywhere", u.game))
	return "", errors.New("stuck")
}

// submit posts the page's turn or resolve form with its values as shown
// (hidden fields, the first option of each select, the order fields), and
// returns the page it gets back.
func (u *vuser) submit(ctx context.Context, kind, body string) (string, error) {
	action, vals, ok := postForm(body, "/"+kind)
	if !ok {
		u.fail(fmt.Errorf("game %d: no %s form on the page", u.game, kind))
		return "", errors.New("no form")
	}
	_, res, err := u.do(ctx, kind, "POST", action, url.Values(vals), true)
	if err != nil {
		return "", err
	}
	if strings.Contains(res, `class="error"`) {
		u.fail(fmt.Errorf("game %d: %s refused", u.game, kind))
		return "", errors.New("refused")
	}
	if kind == "turn" && u.open != nil {
		u.open.turn = nil // spent
	}
	if u.win.has(time.Now()) {
		if kind == "turn" {
			u.st.Turns++
		} else {
			u.st.Resolves++
		}
	}
	c := Commit{Game: u.game, Version: shownVersion(res)}
	if isFinal(res) {
		c.Version, c.Finished = -1, true
	}
	u.st.Committed = append(u.st.Committed, c)
	return res, nil
}
