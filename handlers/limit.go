package handlers

import (
	"sync"
	"time"
)

// Log-in limits: failed attempts allowed per window, for one account and
// from one address. Past them, attempts are refused until the oldest
// failure leaves the window.
const (
	accountFailures = 5
	addressFailures = 20
	failureWindow   = 15 * time.Minute
	maxLimiterKeys  = 100_000
)

// limiter slows password guessing by counting failed log-ins per key (an
// account or an address) in a sliding window. It lives in memory: a restart
// forgets it, which only helps whoever waits for one.
type limiter struct {
	mu    sync.Mutex
	now   func() time.Time
	fails map[string][]time.Time
}

func newLimiter(now func() time.Time) *limiter {
	return &limiter{now: now, fails: map[string][]time.Time{}}
}

// wait returns how long attempts on these keys must wait (0: go ahead).
func (l *limiter) wait(keys ...limitKey) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	var d time.Duration
	for _, k := range keys {
		fs := l.prune(k.key, now)
		if len(fs) >= k.limit {
			d = max(d, fs[len(fs)-k.limit].Add(failureWindow).Sub(now))
		}
	}
	return d
}

// failed counts a failed attempt on keys.
func (l *limiter) failed(keys ...limitKey) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if len(l.fails) > maxLimiterKeys {
		for k := range l.fails {
			if len(l.prune(k, now)) == 0 {
				delete(l.fails, k)
			}
		}
	}
	for _, k := range keys {
		l.fails[k.key] = append(l.prune(k.key, now), now)
	}
}

// forget clears a key (an account after a successful log-in).
func (l *limiter) forget(k limitKey) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.fails, k.key)
}

func (l *limiter) prune(key string, now time.Time) []time.Time {
	fs := l.fails[key]
	i := 0
	for i < len(fs) && now.Sub(fs[i]) >= failureWindow {
		i++
	}
	fs = fs[i:]
	if len(fs) == 0 {
		delete(l.fails, key)
		return nil
	}
	l.fails[key] = fs
	return fs
}

type limitKey struct {
	key   string
	limit int
}

func accountKey(name string) limitKey { return limitKey{"account:" + name, accountFailures} }
func addressKey(ip string) limitKey   { return limitKey{"address:" + ip, addressFailures} }
