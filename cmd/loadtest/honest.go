package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cacao/handlers/mail/mailtest"
)

// Honest is what the honest players of an abuse run met, beside the load,
// in either of its runs: the log-ins of players who come to log in, the
// delay of the confirmation mail of a player who gives an address, and
// how long a player waits for a hard bot's move.
type Honest struct {
	Logins, LoginsMade, LoginsRefused int
	LoginLat                          []time.Duration // each log-in's answer, made or refused
	// Mails is, for each confirmation mail asked for, the time from the
	// request to the mail's arrival at the sink; mailWait for a mail that
	// did not arrive by then (MailsLost).
	Mails     []time.Duration
	MailsLost int
	// BotMoves is, for each move of the player's in a game against one
	// hard bot, the time from its answer to the page showing the bot's
	// move (the player's turn again).
	BotMoves      []time.Duration
	Failures      int // requests that failed or answered what a player would not expect
	FailureSample string
	mu            sync.Mutex
}

// The honest players' measures, each bounded and spread over the measured
// time.
const (
	// honestLogins log-ins by loginAccounts accounts, each from its own
	// address: 8 each, within an account's 10 log-ins at once.
	honestLogins  = 40
	loginAccounts = 5
	// mailSamples players each give an address once, at a random moment
	// of their share of the measured time: the worker's tick (-work-every
	// 1s) adds a wait of up to a second, which a fixed spacing would make
	// the same for every sample of a run.
	mailSamples = 8
	// mailWait is how long a mail is waited for: one not there by then
	// counts as this long.
	mailWait = time.Minute
	// botThink is how long the player against the hard bot thinks before
	// each move: the bot, which thinks a second, keeps the bots' slot
	// busy a quarter of the calm run, not all of it.
	botThink = 3 * time.Second
)

// honest is the honest players of one run, signed up.
type honest struct {
	rep    *Honest
	sink   *mailtest.Server
	r      *rand.Rand
	logins []*vuser // who log in
	mails  []*vuser // who give an address
	bot    *vuser   // who plays against one hard bot
}

// honests counts the honest players' sign-ups made by this process.
var honests atomic.Int64

// newHonest signs the honest players up on base, each from its own address
// (in 198.51.100.0/24, apart from the players' and the attackers').
func newHonest(ctx context.Context, base string, sink *mailtest.Server, seed uint64) (*honest, error) {
	run := time.Now().UnixNano() % 1_000_000
	// The runs of one loadtest take addresses apart (16 a run; 15 runs
	// before they come round): the site's sign-ups an address an hour
	// would refuse them at the sixth.
	first := int(honests.Add(1)-1) * 16
	h := &honest{rep: &Honest{}, sink: sink, r: rand.New(rand.NewPCG(seed, 7))}
	n := 0
	player := func(role string) (*vuser, error) {
		n++
		jar, _ := cookiejar.New(nil)
		u := &vuser{name: fmt.Sprintf("hp%d_%s%d", run, role, n), base: base, addr: fmt.Sprintf("198.51.100.%d", (first+n)%254+1),
			http: &http.Client{Jar: jar, Timeout: 30 * time.Second}, stream: &http.Client{Jar: jar},
			r: rand.New(rand.NewPCG(seed, uint64(1000+n))), st: Stats{Lat: map[string][]time.Duration{}}}
		return u, u.signup(ctx)
	}
	for range loginAccounts {
		u, err := player("l")
		if err != nil {
			return nil, err
		}
		h.logins = append(h.logins, u)
	}
	for range mailSamples {
		u, err := player("m")
		if err != nil {
			return nil, err
		}
		h.mails = append(h.mails, u)
	}
	var err error
	h.bot, err = player("b")
	return h, err
}

// measure runs the honest players from from to to (the mails asked for by
// then are waited for up to mailWait after) and fills h.rep.
func (h *honest) measure(ctx context.Context, from, to time.Time) {
	pctx, stop := context.WithDeadline(ctx, to)
	defer stop()
	var wg sync.WaitGroup
	wg.Go(func() { h.logIns(pctx, from, to) })
	wg.Go(func() { h.botMoves(pctx, from, to) })
	every := to.Sub(from) / mailSamples
	for i, u := range h.mails {
		at := from.Add(time.Duration((float64(i) + h.r.Float64()) * float64(every)))
		wg.Go(func() {
			if wait(pctx, time.Until(at)) {
				h.mail(ctx, u)
			}
		})
	}
	wg.Wait()
	for _, u := range append(append([]*vuser{h.bot}, h.logins...), h.mails...) {
		if u.st.Errors > 0 {
			h.failed(u.st.ErrorSamples[0])
			h.rep.Failures += u.st.Errors - 1
		}
	}
}

// wait waits d, and reports whether ctx is still on.
func wait(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// failed notes what went wrong for an honest player.
func (h *honest) failed(what string) {
	h.rep.mu.Lock()
	defer h.rep.mu.Unlock()
	h.rep.Failures++
	if h.rep.FailureSample == "" {
		h.rep.FailureSample = what
	}
}

// logIns logs the accounts in, in turn, honestLogins times over the
// measured time, each time from a new browser, and times the log-in.
func (h *honest) logIns(ctx context.Context, from, to time.Time) {
	every := to.Sub(from) / honestLogins
	for i := 0; i < honestLogins; i++ {
		if !wait(ctx, time.Until(from.Add(time.Duration(i)*every))) {
			return
		}
		u := h.logins[i%len(h.logins)]
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar, Timeout: 30 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		_, page, err := attackDo(ctx, c, "GET", u.base+"/login", nil, u.addr)
		m := csrfRE.FindStringSubmatch(page)
		if err != nil || m == nil {
			if ctx.Err() == nil {
				h.failed(fmt.Sprintf("%s: the log-in page: %v", u.name, err))
			}
			continue
		}
		start := time.Now()
		code, _, err := attackDo(ctx, c, "POST", u.base+"/login", url.Values{"_csrf": {m[1]}, "username": {u.name}, "password": {"load-" + u.name}}, u.addr)
		lat := time.Since(start)
		if err != nil {
			if ctx.Err() == nil {
				h.failed(fmt.Sprintf("%s: logging in: %v", u.name, err))
			}
			continue
		}
		h.rep.mu.Lock()
		h.rep.Logins++
		h.rep.LoginLat = append(h.rep.LoginLat, lat)
		switch code {
		case http.StatusSeeOther:
			h.rep.LoginsMade++
		case http.StatusTooManyRequests:
			h.rep.LoginsRefused++
		}
		h.rep.mu.Unlock()
		if code != http.StatusSeeOther && code != http.StatusTooManyRequests {
			h.failed(fmt.Sprintf("%s: logging in: %d", u.name, code))
		}
	}
}

// mail has u give an address in the settings and waits for the
// confirmation mail at the sink.
func (h *honest) mail(ctx context.Context, u *vuser) {
	to := u.name + "@example.test"
	start := time.Now()
	_, page, err := u.do(ctx, "settings", "POST", "/settings/news", url.Values{"_csrf": {u.csrf}, "email": {to}}, false)
	if err != nil {
		return // failed (counted) or stopped
	}
	if !strings.Contains(page, "We sent a link") {
		h.failed(fmt.Sprintf("%s: the settings did not say a confirmation mail is on its way", u.name))
		return
	}
	for !slices.ContainsFunc(h.sink.Messages(), func(m mailtest.Received) bool { return slices.Contains(m.To, to) }) {
		if time.Since(start) > mailWait || !wait(ctx, 20*time.Millisecond) {
			h.rep.mu.Lock()
			h.rep.Mails = append(h.rep.Mails, mailWait)
			h.rep.MailsLost++
			h.rep.mu.Unlock()
			return
		}
	}
	d := time.Since(start)
	h.rep.mu.Lock()
	h.rep.Mails = append(h.rep.Mails, d)
	h.rep.mu.Unlock()
}

// botMoves plays games against one hard bot until ctx ends, timing the
// bot's moves that follow a move made in the measured time.
func (h *honest) botMoves(ctx context.Context, from, to time.Time) {
	u := h.bot
	u.win = window{} // its requests are not the players'
	for ctx.Err() == nil {
		if err := h.botGame(ctx, u, window{from: from, to: to}); err != nil && ctx.Err() == nil {
			wait(ctx, time.Second) // the failure is counted in u.st
		}
	}
}

// botGame opens a game of u against a hard bot and plays it to its end
// (or ctx's): after each move, it follows the game's events until the page
// shows u's turn again, and notes how long that took when the move was
// made in win.
func (h *honest) botGame(ctx context.Context, u *vuser, win window) error {
	if _, err := u.newBotGame(ctx, "hard"); err != nil {
		return err
	}
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	events := u.listen(gctx, fmt.Sprintf("/games/%d/events", u.game))
	page := fmt.Sprintf("/games/%d", u.game)
	_, body, err := u.do(ctx, "page", "GET", page, nil, true)
	var moved time.Time // the answer to u's last move, while the bot is to play
	for err == nil && ctx.Err() == nil {
		switch {
		case isFinal(body):
			return nil
		case hasChoice(body) || isMyTurn(body):
			if win.has(moved) {
				h.rep.mu.Lock()
				h.rep.BotMoves = append(h.rep.BotMoves, time.Since(moved))
				h.rep.mu.Unlock()
			}
			moved = time.Time{}
			if !wait(ctx, botThink) {
				return nil
			}
			if hasChoice(body) {
				body, err = u.submit(ctx, "resolve", body)
			} else {
				body, err = u.turn(ctx, body)
			}
			if err == nil && !isFinal(body) && !hasChoice(body) && !isMyTurn(body) {
				moved = time.Now()
			}
			continue
		}
		shown := shownVersion(body)
		for waiting := true; waiting; {
			select {
			case v := <-events:
				waiting = v <= shown
			case <-time.After(2 * time.Second): // a missed event costs a refetch
				waiting = false
			case <-ctx.Done():
				return nil
			}
		}
		_, body, err = u.do(ctx, "page", "GET", page, nil, true)
	}
	return err
}

// newBotGame has u open a game against bots of the kinds seats names
// (each a seat, u in another), and returns the answer's status (429 when
// u opened too many games in a row); u.game is the new game.
func (u *vuser) newBotGame(ctx context.Context, seats ...string) (int, error) {
	res, _, err := u.do(ctx, "create", "POST", "/games", url.Values{"seat": seats}, true)
	if res == nil {
		return 0, err
	}
	if err != nil {
		return res.StatusCode, err
	}
	return res.StatusCode, u.setGame(res)
}

// add adds o's log-ins, hard-bot moves and failures to h's (abuseLine
// pools the runs of a kind).
func (h *Honest) add(o *Honest) {
	h.Logins, h.LoginsMade, h.Failures = h.Logins+o.Logins, h.LoginsMade+o.LoginsMade, h.Failures+o.Failures
	h.LoginLat = append(h.LoginLat, o.LoginLat...)
	h.BotMoves = append(h.BotMoves, o.BotMoves...)
}

// Print writes what the honest players met.
func (h *Honest) Print(w io.Writer) {
	fmt.Fprintf(w, "honest players: %d log-ins, %d made, %d refused, p50 %.2f ms, p99 %.2f ms; %d confirmation mails, delay mean %.2f s, p50 %.2f s, max %.2f s, %d not there after %s; %d hard-bot moves waited for, p50 %.2f s, max %.2f s; %d failures\n",
		h.Logins, h.LoginsMade, h.LoginsRefused, ms(pct(h.LoginLat, 50)), ms(pct(h.LoginLat, 99)),
		len(h.Mails), mean(h.Mails).Seconds(), pct(h.Mails, 50).Seconds(), pct(h.Mails, 100).Seconds(), h.MailsLost, mailWait,
		len(h.BotMoves), pct(h.BotMoves, 50).Seconds(), pct(h.BotMoves, 100).Seconds(), h.Failures)
	if h.FailureSample != "" {
		fmt.Fprintln(w, "honest failure:", h.FailureSample)
	}
}

// mean is the mean of ds; 0 for none.
func mean(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return sum / time.Duration(len(ds))
}
