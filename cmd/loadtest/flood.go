package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"sync"
	"time"
)

// The hashing flood: attackHashLoops loops from the two addresses of
// hashAddresses (hashAccounts accounts), each a try every attackHashEvery
// at most (160 a second in all, several times the password hashes two
// cores make), attackHashTries each at most.
const (
	attackHashLoops = 32
	attackHashEvery = 200 * time.Millisecond
	attackHashTries = 300
	hashAccounts    = 4
)

// hashAddresses are the flood's addresses (Attacks.addr).
var hashAddresses = []int{5, 6}

// hashFlood asks for password checks from two addresses, as many as
// attackHashLoops loops get: sign-ups with a name that is taken and
// correct log-ins to the flood's own accounts, each of which once cost a
// hash.
func (a *Attacks) hashFlood(ctx context.Context) {
	var wg sync.WaitGroup
	for i := range attackHashLoops {
		acc, taken := a.hashers[i%len(a.hashers)], a.hashers[(i+1)%len(a.hashers)].name
		wg.Go(func() { a.hashLoop(ctx, acc, taken) })
	}
	wg.Wait()
}

// hashLoop, a browser of its own at acc's address, signs up as taken and
// logs in to acc in turn, counting what the site refused (429).
func (a *Attacks) hashLoop(ctx context.Context, acc account, taken string) {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	_, page, err := attackDo(ctx, c, "GET", a.base+"/login", nil, acc.ip)
	m := csrfRE.FindStringSubmatch(page)
	if err != nil || m == nil {
		if ctx.Err() == nil {
			a.unexpected(fmt.Sprintf("hashing flood: the log-in page: %v", err))
		}
		return
	}
	signup := url.Values{"_csrf": {m[1]}, "username": {taken}, "password": {"attack-" + taken}}
	login := url.Values{"_csrf": {m[1]}, "username": {acc.name}, "password": {"attack-" + acc.name}}
	for i := 0; i < attackHashTries && ctx.Err() == nil; i++ {
		path, form := "/signup", signup
		if i%2 == 1 {
			path, form = "/login", login
		}
		code, _, err := attackDo(ctx, c, "POST", a.base+path, form, acc.ip)
		switch {
		case err != nil:
			if ctx.Err() == nil {
				a.unexpected(fmt.Sprintf("hashing flood: %v", err))
			}
		case code >= 500:
			a.unexpected(fmt.Sprintf("hashing flood: %s: %d", path, code))
		default:
			a.mu.Lock()
			a.HashTries++
			if code == http.StatusTooManyRequests {
				a.HashRefused++
			}
			a.mu.Unlock()
		}
		wait(ctx, attackHashEvery)
	}
}
