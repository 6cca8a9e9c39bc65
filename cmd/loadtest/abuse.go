package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"cacao/handlers/hook/hooktest"
)

// Attacks is what the bounded attackers of an abuse run (-abuse) did
// while the players played: the cheap requests that once took the site
// down (issues "Hold under abuse" and "No cheap way to take the site
// down, round two"), each bounded in count and time, on loopback only.
type Attacks struct {
	SlowBodies                           int // connections sending a log-in's body a byte a second
	Streams, StreamsHeld, StreamsRefused int // event streams one account asked for, got, and was refused (429)
	Tables, TablesOpened, TablesRefused  int // open tables one account asked for, opened, and was refused
	Signups, SignupsMade, SignupsRefused int // sign-ups from one address, made, and refused
	Guests, GuestsMade, GuestsRefused    int // visitors from one address playing a bot as guests (/play), made, and refused
	HashTries, HashRefused               int // the hashing flood's sign-ups and log-ins answered, and of those refused (429)
	Devices, Hooks                       int // push devices and webhooks given at the tarpit
	Tests, TestsSent                     int // test notices asked for, and sent (the rest refused)
	TarpitPosts                          int // posts the tarpit took
	first                                int // this run's attackers' addresses start after it (addr)
	BotGames, BotGamesOpened             int // games against three hard bots asked for, and opened (the rest refused)
	BotMoves                             int // moves of the hard-bot flood's accounts
	Rematches, RematchesMade             int // rematches of the hard-bot flood asked for, and made (the rest refused)
	Unexpected                           int // attack answers other than the expected ones
	UnexpectedSample                     string
	mu                                   sync.Mutex // guards the counts: the attacks run at once

	// The attackers' accounts and the tarpit, made before the measured
	// time (prepareAttacks).
	base             string
	streamer, tabler account
	hashers, hookers []account
	bots             []*vuser
	tarpit           *hooktest.Tarpit
}

// account is an attacker's signed-up account: its client (with its
// cookies), its CSRF token, its name and the address it comes from.
type account struct {
	c              *http.Client
	csrf, name, ip string
}

// Bounds of the attacks.
const (
	attackSlowBodies = 8
	attackStreams    = 200
	attackTables     = 300
	attackSignups    = 240
	attackGuests     = 240
	attackGuestLoops = 4
)

// prepareAttacks makes the attackers' accounts on base before the
// measured time, as an attacker makes them beforehand: the accounts that
// ask for event streams and tables, those of the hashing flood and of the
// hard-bot flood, and those whose devices and webhooks point at a tarpit
// (which it starts). Stop the tarpit with Close.
func prepareAttacks(ctx context.Context, base string) (*Attacks, error) {
	a := &Attacks{base: base, first: int(attackRuns.Add(1)-1) * 40}
	run := rand.IntN(1e6)
	enlist := func(kind string, i int, ip string) (account, error) {
		name := fmt.Sprintf("atk_%s%d_%d", kind, run, i)
		c, csrf, _, err := signUp(ctx, base, name, ip)
		return account{c: c, csrf: csrf, name: name, ip: ip}, err
	}
	var err error
	if a.streamer, err = enlist("s", 0, a.addr(2)); err != nil {
		return nil, err
	}
	if a.tabler, err = enlist("t", 0, a.addr(3)); err != nil {
		return nil, err
	}
	for i := range hashAccounts {
		acc, err := enlist("h", i, a.addr(hashAddresses[i%len(hashAddresses)]))
		if err != nil {
			return nil, err
		}
		a.hashers = append(a.hashers, acc)
	}
	for k := range attackBotAccounts {
		acc, err := enlist("b", k, a.addr(20+k))
		if err != nil {
			return nil, err
		}
		a.bots = append(a.bots, &vuser{name: acc.name, base: base, addr: acc.ip, http: acc.c, csrf: acc.csrf,
			r: rand.New(rand.NewPCG(uint64(run), uint64(k))), st: Stats{Lat: map[string][]time.Duration{}}})
	}
	if a.tarpit, err = hooktest.NewTarpit(); err != nil {
		return nil, err
	}
	for k := range attackHookAccounts {
		acc, err := enlist("w", k, a.addr(30+k))
		if err == nil {
			err = a.hookUp(ctx, acc)
		}
		if err != nil {
			a.Close()
			return nil, err
		}
		a.hookers = append(a.hookers, acc)
	}
	return a, nil
}

// attackRuns counts the attacks prepared by this process: each run of one
// loadtest (-pairs) attacks from addresses of its own, 40 apart, as the
// site's limits by address (5 sign-ups an hour) would otherwise refuse
// the third run's attackers before it starts.
var attackRuns atomic.Int64

// addr is the attackers' address n of this run (203.0.113.0/24; the first
// run's are .n).
func (a *Attacks) addr(n int) string { return fmt.Sprintf("203.0.113.%d", (a.first+n-1)%254+1) }

// Close stops the tarpit.
func (a *Attacks) Close() { a.tarpit.Close() }

// run runs the attacks until ctx ends, each within its bound.
func (a *Attacks) run(ctx context.Context) {
	var wg sync.WaitGroup
	for _, f := range []func(context.Context){a.slowBodies, a.streams, a.tables, a.signups, a.guests, a.hashFlood, a.tarpitHooks, a.hardBots} {
		wg.Go(func() { f(ctx) })
	}
	wg.Wait()
	a.mu.Lock()
	a.TarpitPosts = a.tarpit.Taken()
	a.mu.Unlock()
}

// unexpected notes an answer an attack did not expect.
func (a *Attacks) unexpected(what string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.Unexpected++
	if a.UnexpectedSample == "" {
		a.UnexpectedSample = what
	}
}

// slowBodies keeps attackSlowBodies log-ins open, each sending its body a
// byte a second (and opening a new one when the server closes it).
func (a *Attacks) slowBodies(ctx context.Context) {
	host := strings.TrimPrefix(a.base, "http://")
	var wg sync.WaitGroup
	for i := 0; i < attackSlowBodies; i++ {
		a.mu.Lock()
		a.SlowBodies++
		a.mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				c, err := (&net.Dialer{}).DialContext(ctx, "tcp", host)
				if err != nil {
					return
				}
				fmt.Fprintf(c, "POST /login HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\nX-Forwarded-For: %s\r\n\r\n", host, a.addr(1))
				for ctx.Err() == nil {
					if _, err := c.Write([]byte("x")); err != nil {
						break
					}
					select {
					case <-ctx.Done():
					case <-time.After(time.Second):
					}
				}
				c.Close()
			}
		}()
	}
	wg.Wait()
}

// signUp signs name up from ip once, and returns its client and CSRF
// token, or the status and why it failed.
func signUp(ctx context.Context, base, name, ip string) (*http.Client, string, int, error) {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	code, page, err := attackDo(ctx, c, "GET", base+"/signup", nil, ip)
	if err != nil {
		return nil, "", code, err
	}
	m := csrfRE.FindStringSubmatch(page)
	if m == nil {
		return nil, "", code, fmt.Errorf("no CSRF token on the sign-up page")
	}
	code, page, err = attackDo(ctx, c, "POST", base+"/signup", url.Values{"_csrf": {m[1]}, "username": {name}, "password": {"attack-" + name}}, ip)
	if err != nil || code != http.StatusOK {
		return nil, "", code, fmt.Errorf("signing %s up: %d %v", name, code, err)
	}
	if m = csrfRE.FindStringSubmatch(page); m == nil {
		return nil, "", code, fmt.Errorf("no CSRF token after signing up")
	}
	return c, m[1], code, nil
}

// post sends a form from acc, with its CSRF token, and reads the answer.
func (acc account) post(ctx context.Context, base, path string, form url.Values) (int, string, error) {
	form.Set("_csrf", acc.csrf)
	return attackDo(ctx, acc.c, "POST", base+path, form, acc.ip)
}

// attackDo sends one request from ip and reads the answer.
func attackDo(ctx context.Context, c *http.Client, method, u string, form url.Values, ip string) (int, string, error) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return 0, "", err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("X-Forwarded-For", ip)
	res, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, string(b), err
}

// streams has one account ask for attackStreams event streams and hold
// those it gets.
func (a *Attacks) streams(ctx context.Context) {
	c := *a.streamer.c
	c.Timeout = 0 // streams stay open
	var wg sync.WaitGroup
	for i := 0; i < attackStreams && ctx.Err() == nil; i++ {
		req, _ := http.NewRequestWithContext(ctx, "GET", a.base+"/events", nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("X-Forwarded-For", a.streamer.ip)
		res, err := c.Do(req)
		if err != nil && ctx.Err() != nil {
			break // cut off by the attack's end: not an answer
		}
		a.mu.Lock()
		a.Streams++
		a.mu.Unlock()
		switch {
		case err != nil:
			a.unexpected(err.Error())
		case res.StatusCode == http.StatusTooManyRequests:
			res.Body.Close()
			a.mu.Lock()
			a.StreamsRefused++
			a.mu.Unlock()
		case res.StatusCode == http.StatusOK:
			a.mu.Lock()
			a.StreamsHeld++
			a.mu.Unlock()
			wg.Add(1)
			go func() { defer wg.Done(); io.Copy(io.Discard, res.Body); res.Body.Close() }()
		default:
			res.Body.Close()
			a.unexpected(fmt.Sprintf("stream: %d", res.StatusCode))
		}
		time.Sleep(10 * time.Millisecond)
	}
	<-ctx.Done()
	wg.Wait()
}

// tables has one account open tables as fast as it can, attackTables at
// most.
func (a *Attacks) tables(ctx context.Context) {
	for i := 0; i < attackTables && ctx.Err() == nil; i++ {
		code, _, err := a.tabler.post(ctx, a.base, "/games", url.Values{"seat": {"open"}})
		a.mu.Lock()
		a.Tables++
		switch {
		case err != nil:
		case code == http.StatusTooManyRequests || code == http.StatusUnprocessableEntity:
			a.TablesRefused++
		case code == http.StatusOK:
			a.TablesOpened++
		default:
			a.mu.Unlock()
			a.unexpected(fmt.Sprintf("table: %d", code))
			continue
		}
		a.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
}

// signups signs accounts up from one address as fast as it can,
// attackSignups at most.
func (a *Attacks) signups(ctx context.Context) {
	run := rand.IntN(1e6)
	for i := 0; i < attackSignups && ctx.Err() == nil; i++ {
		_, _, code, err := signUp(ctx, a.base, fmt.Sprintf("atk_u%d_%d", run, i), a.addr(4))
		if err != nil && ctx.Err() != nil {
			return // cut off by the attack's end: not an answer
		}
		a.mu.Lock()
		a.Signups++
		if code == http.StatusTooManyRequests {
			a.SignupsRefused++
		} else if err == nil {
			a.SignupsMade++
		}
		a.mu.Unlock()
		if err != nil && code != http.StatusTooManyRequests && ctx.Err() == nil {
			a.unexpected(err.Error())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// guests has visitors from one address play the easy bot as guests
// (/play), each from a new browser, attackGuestLoops at once, each loop as
// fast as it can (a try every 50 ms), attackGuests in all at most. A
// refusal must say why (429 and the site's sentence).
func (a *Attacks) guests(ctx context.Context) {
	run := rand.IntN(1e6)
	var n atomic.Int32
	var wg sync.WaitGroup
	for range attackGuestLoops {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := n.Add(1)
				if i > attackGuests {
					return
				}
				code, err := playAsGuest(ctx, a.base, fmt.Sprintf("atk_g%d_%d", run, i), a.addr(5))
				if err != nil && ctx.Err() != nil {
					return // cut off by the attack's end: not an answer
				}
				a.mu.Lock()
				a.Guests++
				switch {
				case code == http.StatusTooManyRequests && err == nil:
					a.GuestsRefused++
				case code == http.StatusOK && err == nil:
					a.GuestsMade++
				}
				a.mu.Unlock()
				if err != nil {
					a.unexpected(err.Error())
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
	wg.Wait()
}

// playAsGuest has a new visitor from ip play the easy bot as a guest
// called name, and returns the answer's status: 200 (the game's page) or
// 429 (refused, saying why); anything else is an error.
func playAsGuest(ctx context.Context, base, name, ip string) (int, error) {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	code, page, err := attackDo(ctx, c, "GET", base+"/play", nil, ip)
	if err != nil {
		return code, err
	}
	m := csrfRE.FindStringSubmatch(page)
	if m == nil {
		return code, fmt.Errorf("no CSRF token on /play")
	}
	code, page, err = attackDo(ctx, c, "POST", base+"/play", url.Values{"_csrf": {m[1]}, "name": {name}, "bot": {"easy"}}, ip)
	switch {
	case err != nil:
		return code, err
	case code == http.StatusTooManyRequests && !strings.Contains(page, "Many guests played from your address lately"):
		return code, fmt.Errorf("a guest refused without saying why")
	case code != http.StatusOK && code != http.StatusTooManyRequests:
		return code, fmt.Errorf("guest %s: %d", name, code)
	}
	return code, nil
}

// Print writes what the attacks met.
func (a *Attacks) Print(w io.Writer) {
	fmt.Fprintf(w, "attacks: %d slow log-in bodies held open; %d event streams asked for by one account, %d held, %d refused; %d tables asked for by one account, %d opened, %d refused; %d sign-ups from one address, %d made, %d refused; %d guests from one address, %d made, %d refused\n",
		a.SlowBodies, a.Streams, a.StreamsHeld, a.StreamsRefused, a.Tables, a.TablesOpened, a.TablesRefused, a.Signups, a.SignupsMade, a.SignupsRefused, a.Guests, a.GuestsMade, a.GuestsRefused)
	fmt.Fprintf(w, "attacks: %d sign-ups with a taken name and log-ins by %d loops from %d addresses, %d refused; %d devices and %d webhooks at a tarpit, %d test notices asked for, %d sent, %d posts taken by the tarpit; %d games against three hard bots asked for by %d accounts, %d opened, %d moves, %d rematches asked for, %d made; %d unexpected answers\n",
		a.HashTries, attackHashLoops, len(hashAddresses), a.HashRefused, a.Devices, a.Hooks, a.Tests, a.TestsSent, a.TarpitPosts,
		a.BotGames, attackBotAccounts, a.BotGamesOpened, a.BotMoves, a.Rematches, a.RematchesMade, a.Unexpected)
	if a.UnexpectedSample != "" {
		fmt.Fprintln(w, "unexpected:", a.UnexpectedSample)
	}
}
