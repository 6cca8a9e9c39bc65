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
	"time"
)

// Attacks is what the bounded attackers of an abuse run (-abuse) did
// while the players played: the cheap requests that once took the site
// down (README, issue "Hold under abuse"), each bounded in count and time,
// on loopback only.
type Attacks struct {
	SlowBodies                           int // connections sending a log-in's body a byte a second
	Streams, StreamsHeld, StreamsRefused int // event streams one account asked for, got, and was refused (429)
	Tables, TablesOpened, TablesRefused  int // open tables one account asked for, opened, and was refused
	Signups, SignupsMade, SignupsRefused int // sign-ups from one address, made, and refused
	Unexpected                           int // attack answers other than the expected ones
	UnexpectedSample                     string
	mu                                   sync.Mutex // guards the counts: the attacks run at once
}

// Bounds of the attacks.
const (
	attackSlowBodies = 8
	attackStreams    = 200
	attackTables     = 300
	attackSignups    = 240
)

// attack runs the four attacks against base until ctx ends, each within
// its bound, and returns what they met.
func attack(ctx context.Context, base string) *Attacks {
	a := &Attacks{}
	var wg sync.WaitGroup
	for _, f := range []func(context.Context, string){a.slowBodies, a.streams, a.tables, a.signups} {
		wg.Add(1)
		go func() { defer wg.Done(); f(ctx, base) }()
	}
	wg.Wait()
	return a
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
func (a *Attacks) slowBodies(ctx context.Context, base string) {
	host := strings.TrimPrefix(base, "http://")
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
				fmt.Fprintf(c, "POST /login HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\nX-Forwarded-For: 203.0.113.1\r\n\r\n", host)
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

// attacker is a signed-up account of the attacks, from address ip.
func attacker(ctx context.Context, base, name, ip string) (*http.Client, string, error) {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	_, page, err := attackDo(ctx, c, "GET", base+"/signup", nil, ip)
	if err != nil {
		return nil, "", err
	}
	m := csrfRE.FindStringSubmatch(page)
	if m == nil {
		return nil, "", fmt.Errorf("no CSRF token on the sign-up page")
	}
	code, page, err := attackDo(ctx, c, "POST", base+"/signup", url.Values{"_csrf": {m[1]}, "username": {name}, "password": {"attack-" + name}}, ip)
	if err != nil || code != http.StatusOK {
		return nil, "", fmt.Errorf("signing %s up: %d %v", name, code, err)
	}
	if m = csrfRE.FindStringSubmatch(page); m == nil {
		return nil, "", fmt.Errorf("no CSRF token after signing up")
	}
	return c, m[1], nil
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
func (a *Attacks) streams(ctx context.Context, base string) {
	c, _, err := attacker(ctx, base, fmt.Sprintf("atk_s%d", rand.IntN(1e6)), "203.0.113.2")
	if err != nil {
		a.unexpected(err.Error())
		return
	}
	c.Timeout = 0 // streams stay open
	var wg sync.WaitGroup
	for i := 0; i < attackStreams && ctx.Err() == nil; i++ {
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/events", nil)
		req.Header.Set("Accept", "text/event-stream")
		req.Header.Set("X-Forwarded-For", "203.0.113.2")
		res, err := c.Do(req)
		a.mu.Lock()
		a.Streams++
		a.mu.Unlock()
		switch {
		case err != nil:
			if ctx.Err() == nil {
				a.unexpected(err.Error())
			}
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
func (a *Attacks) tables(ctx context.Context, base string) {
	c, csrf, err := attacker(ctx, base, fmt.Sprintf("atk_t%d", rand.IntN(1e6)), "203.0.113.3")
	if err != nil {
		a.unexpected(err.Error())
		return
	}
	for i := 0; i < attackTables && ctx.Err() == nil; i++ {
		code, _, err := attackDo(ctx, c, "POST", base+"/games", url.Values{"_csrf": {csrf}, "seat": {"open"}}, "203.0.113.3")
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
func (a *Attacks) signups(ctx context.Context, base string) {
	run := rand.IntN(1e6)
	for i := 0; i < attackSignups && ctx.Err() == nil; i++ {
		_, _, err := attacker(ctx, base, fmt.Sprintf("atk_u%d_%d", run, i), "203.0.113.4")
		a.mu.Lock()
		a.Signups++
		if err != nil && strings.Contains(err.Error(), " 429 ") {
			a.SignupsRefused++
		} else if err == nil {
			a.SignupsMade++
		}
		a.mu.Unlock()
		if err != nil && !strings.Contains(err.Error(), " 429 ") && ctx.Err() == nil {
			a.unexpected(err.Error())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Print writes what the attacks met.
func (a *Attacks) Print(w io.Writer) {
	fmt.Fprintf(w, "attacks: %d slow log-in bodies held open; %d event streams asked for by one account, %d held, %d refused; %d tables asked for by one account, %d opened, %d refused; %d sign-ups from one address, %d made, %d refused; %d unexpected answers\n",
		a.SlowBodies, a.Streams, a.StreamsHeld, a.StreamsRefused, a.Tables, a.TablesOpened, a.TablesRefused, a.Signups, a.SignupsMade, a.SignupsRefused, a.Unexpected)
	if a.UnexpectedSample != "" {
		fmt.Fprintln(w, "unexpected:", a.UnexpectedSample)
	}
}

// runAbuse runs the open loop of o twice, without and with the attacks,
// prints both reports, and ends with the ABUSE line: the players' p99
// without and with, their errors under attack, and whether it held
// (p99 within twice, no error, the rate held).
func runAbuse(ctx context.Context, o Options, w io.Writer) error {
	o.Abuse = false
	calm, err := RunOpen(ctx, o, w)
	if err != nil {
		return err
	}
	calm.Print(w)
	o.Abuse = true
	hit, err := RunOpen(ctx, o, w)
	if err != nil {
		return err
	}
	hit.Print(w)
	p99 := func(r *RateReport) float64 {
		var all []time.Duration
		for _, l := range r.Lat {
			all = append(all, l...)
		}
		return ms(pct(all, 99))
	}
	before, after := p99(calm), p99(hit)
	held := "no"
	if after <= 2*before && hit.Errors == 0 && hit.Held() {
		held = "yes"
	}
	a := hit.Attacks
	fmt.Fprintf(w, "ABUSE rate=%.4g p99_ms_calm=%.2f p99_ms_attacked=%.2f ratio=%.2f errors=%d rate_held=%v held=%s slow_bodies=%d streams_refused=%d/%d tables_opened=%d/%d signups_made=%d/%d unexpected=%d\n",
		o.Rate, before, after, after/before, hit.Errors, hit.Held(), held, a.SlowBodies, a.StreamsRefused, a.Streams,
		a.TablesOpened, a.Tables, a.SignupsMade, a.Signups, a.Unexpected)
	return nil
}
