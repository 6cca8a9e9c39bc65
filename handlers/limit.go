package handlers

import (
	"fmt"
	"net"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// A rule limits what one key (an address, an account from an address) may
// do: a token bucket of Burst tries, one more every Every; or, with
// Backoff, Burst tries and then a wait that doubles with each further try
// (from Backoff, at most Every), forgotten after Every without a try.
type rule struct {
	burst   int
	every   time.Duration
	backoff time.Duration
}

// The site's limits. Log-in failures slow the address that fails, for the
// account it tries (a growing wait, never a lock: the owner logs in from
// elsewhere), and stop an address that fails on many accounts.
var (
	loginFailures   = rule{burst: 5, every: 15 * time.Minute, backoff: time.Second} // per account and address
	addressFailures = rule{burst: 20, every: 45 * time.Second}                      // per address: 20 a quarter of an hour
	resetRequests   = rule{burst: 20, every: 45 * time.Second}                      // per address
	signups         = rule{burst: 5, every: 12 * time.Minute}                       // per address: 5 an hour
	hints           = rule{burst: 5, every: 20 * time.Second}                       // per user: 5 at once, then 3 a minute
	tests           = rule{burst: 2, every: time.Minute}                            // test notices, per user
)

// maxLimiterKeys bounds the keys remembered: past it, keys back at rest
// are dropped first.
const maxLimiterKeys = 100_000

// limiter keeps the limits' state in memory: a restart forgets it, which
// only helps whoever waits for one.
type limiter struct {
	mu   sync.Mutex
	now  func() time.Time
	keys map[string]*limitState
}

// limitState is one key's: its bucket, or its run of tries for a back-off.
type limitState struct {
	rule   rule
	bucket *rate.Limiter
	tries  int
	last   time.Time
}

type limitKey struct {
	key  string
	rule rule
}

func newLimiter(now func() time.Time) *limiter {
	return &limiter{now: now, keys: map[string]*limitState{}}
}

// accountKey is an account tried from an address.
func accountKey(name, ip string) limitKey {
	return limitKey{"login:" + name + "@" + AddressOf(ip), loginFailures}
}

// addressKey is an address's failed log-ins.
func addressKey(ip string) limitKey { return limitKey{"address:" + AddressOf(ip), addressFailures} }

// creationKey is a user's new games, perHour an hour (half of them at
// once).
func creationKey(user uint, perHour int) limitKey {
	return limitKey{fmt.Sprintf("create:%d", user), rule{burst: max(1, perHour/2), every: time.Hour / time.Duration(perHour)}}
}

// hintKey is a user's hints (each a second of search).
func hintKey(user uint) limitKey { return limitKey{fmt.Sprintf("hint:%d", user), hints} }

// testKey is a user's test notices: two in a row, then one a minute.
func testKey(user uint) limitKey { return limitKey{fmt.Sprintf("test:%d", user), tests} }

// signupKey is an address's sign-ups.
func signupKey(ip string) limitKey { return limitKey{"signup:" + AddressOf(ip), signups} }

// AddressOf is whom an address stands for: itself for IPv4, its /64 for
// IPv6 (one subscriber holds a whole /64 and may use any of it).
func AddressOf(ip string) string {
	p := net.ParseIP(ip)
	if p == nil || p.To4() != nil {
		return ip
	}
	return p.Mask(net.CIDRMask(64, 128)).String() + "/64"
}

// wait returns how long tries on these keys must wait (0: go ahead).
func (l *limiter) wait(keys ...limitKey) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	var d time.Duration
	for _, k := range keys {
		d = max(d, l.state(k, now).wait(now))
	}
	return d
}

// spend counts a try on keys (a failed log-in, a reset asked for, a sign-up
// or a game made).
func (l *limiter) spend(keys ...limitKey) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if len(l.keys) > maxLimiterKeys {
		l.dropResting(now)
	}
	for _, k := range keys {
		st := l.state(k, now)
		if st.bucket != nil {
			st.bucket.AllowN(now, 1)
		} else {
			st.tries, st.last = st.tries+1, now
		}
	}
}

// forget clears a key (an account's tries after a successful log-in).
func (l *limiter) forget(k limitKey) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.keys, k.key)
}

func (l *limiter) state(k limitKey, now time.Time) *limitState {
	st := l.keys[k.key]
	if st == nil {
		st = &limitState{rule: k.rule}
		if k.rule.backoff == 0 {
			st.bucket = rate.NewLimiter(rate.Every(k.rule.every), k.rule.burst)
			st.bucket.AllowN(now, 0) // the bucket starts full, now
		}
		l.keys[k.key] = st
	}
	return st
}

// wait is how long st must wait under its rule at now.
func (st *limitState) wait(now time.Time) time.Duration {
	r := st.rule
	if st.bucket != nil {
		tokens := st.bucket.TokensAt(now)
		if tokens >= 1 {
			return 0
		}
		return time.Duration((1 - tokens) * float64(r.every))
	}
	if now.Sub(st.last) >= r.every {
		st.tries = 0 // a quiet spell forgets the run
	}
	if st.tries < r.burst {
		return 0
	}
	d := r.every
	if n := st.tries - r.burst; n < 20 {
		d = min(r.every, r.backoff<<n)
	}
	return max(0, st.last.Add(d).Sub(now))
}

// dropResting forgets the keys that are back at rest.
func (l *limiter) dropResting(now time.Time) {
	for k, st := range l.keys {
		if st.bucket != nil && st.bucket.TokensAt(now) >= float64(st.bucket.Burst()) || st.bucket == nil && now.Sub(st.last) >= st.rule.every {
			delete(l.keys, k)
		}
	}
}
