package handlers

import (
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"cacao/models"
)

// rule and limitKey are the store's: the limits' state is in the
// database, so every instance of the site counts the same tries.
type (
	rule     = models.LimitRule
	limitKey = models.LimitKey
)

// The site's limits. Log-in failures slow the address that fails, for the
// account it tries (a growing wait, never a lock: the owner logs in from
// elsewhere), and stop an address that fails on many accounts.
var (
	loginFailures   = rule{Burst: 5, Every: 15 * time.Minute, Backoff: time.Second} // per account and address
	addressFailures = rule{Burst: 20, Every: 45 * time.Second}                      // per address: 20 a quarter of an hour
	resetRequests   = rule{Burst: 20, Every: 45 * time.Second}                      // per address
	signups         = rule{Burst: 5, Every: 12 * time.Minute}                       // per address: 5 an hour
	hints           = rule{Burst: 5, Every: 20 * time.Second}                       // per user: 5 at once, then 3 a minute
	tests           = rule{Burst: 2, Every: time.Minute}                            // test notices, per user
)

// limiter asks the store about the limits. A failure of the database lets
// the try go ahead, logged: a limit is not worth refusing every player.
type limiter struct {
	store *models.Store
	log   *slog.Logger
}

// accountKey is an account tried from an address.
func accountKey(name, ip string) limitKey {
	if len(name) > 64 { // no name is that long: the key stays short
		name = strings.ToValidUTF8(name[:64], "")
	}
	return limitKey{Key: "login:" + name + "@" + AddressOf(ip), Rule: loginFailures}
}

// addressKey is an address's failed log-ins.
func addressKey(ip string) limitKey {
	return limitKey{Key: "address:" + AddressOf(ip), Rule: addressFailures}
}

// creationKey is a user's new games, perHour an hour (half of them at
// once).
func creationKey(user uint, perHour int) limitKey {
	return limitKey{Key: fmt.Sprintf("create:%d", user), Rule: rule{Burst: max(1, perHour/2), Every: time.Hour / time.Duration(perHour)}}
}

// hintKey is a user's hints (each a second of search).
func hintKey(user uint) limitKey { return limitKey{Key: fmt.Sprintf("hint:%d", user), Rule: hints} }

// testKey is a user's test notices: two in a row, then one a minute.
func testKey(user uint) limitKey { return limitKey{Key: fmt.Sprintf("test:%d", user), Rule: tests} }

// signupKey is an address's sign-ups.
func signupKey(ip string) limitKey { return limitKey{Key: "signup:" + AddressOf(ip), Rule: signups} }

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
	d, err := l.store.LimitWait(keys...)
	if err != nil {
		l.log.Error("rate limit", "err", err)
	}
	return d
}

// spend counts a try on keys (a failed log-in, a reset asked for, a sign-up
// or a game made).
func (l *limiter) spend(keys ...limitKey) {
	if err := l.store.LimitSpend(keys...); err != nil {
		l.log.Error("rate limit", "err", err)
	}
}

// forget clears a key (an account's tries after a successful log-in).
func (l *limiter) forget(k limitKey) {
	if err := l.store.LimitForget(k); err != nil {
		l.log.Error("rate limit", "err", err)
	}
}
