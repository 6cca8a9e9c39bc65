package handlers

import (
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

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
// elsewhere), and stop an address that fails on many accounts. Every
// request that hashes a password (tens of milliseconds of a core) takes one
// of its address's password checks first; an account is logged in to a
// bounded number of times (one who knows its password cannot loop it from
// many addresses).
var (
	loginFailures   = rule{Burst: 5, Every: 15 * time.Minute, Backoff: time.Second} // per account and address
	addressFailures = rule{Burst: 20, Every: 45 * time.Second}                      // per address: 20 a quarter of an hour
	passwordChecks  = rule{Burst: 20, Every: 3 * time.Second}                       // per address: 20 at once (an office signing in at nine), then 20 a minute, a few percent of a core
	logins          = rule{Burst: 10, Every: 6 * time.Minute}                       // per account: 10 at once (a few devices), then 10 an hour
	resetRequests   = rule{Burst: 20, Every: 45 * time.Second}                      // per address
	confirmations   = rule{Burst: 5, Every: 24 * time.Hour / 5}                     // per address: 5 a day (a household's accounts, a retry each); 40 addresses take the new players' share, never the established players' (models.MaxConfirmationsOfNewAccounts)
	signups         = rule{Burst: 5, Every: 12 * time.Minute}                       // per address: 5 an hour
	hints           = rule{Burst: 5, Every: 20 * time.Second}                       // per user: 5 at once, then 3 a minute
	tests           = rule{Burst: 2, Every: time.Minute}                            // test notices, per user
	guests          = rule{Burst: 10, Every: 6 * time.Minute}                       // per address: 10 new guests an hour (a family, a class taking turns)
	guestGames      = rule{Burst: 20, Every: 3 * time.Minute}                       // per address: 20 more games of its guests an hour
	exports         = rule{Burst: 3, Every: 20 * time.Minute}                       // per user: "Download my data" replays every finished game, 3 in a row, then 3 an hour
	mailLinks       = rule{Burst: 20, Every: 3 * time.Minute}                       // per user: sign-ins by a mail's link, 20 in a row, then 20 an hour
)

// limiter asks the store about the limits. A failure of the database lets
// the try go ahead, logged: a limit is not worth refusing every player.
type limiter struct {
	store *models.Store
	log   *slog.Logger
}

// accountKey is an account tried from an address.
func accountKey(name, ip string) limitKey {
	return limitKey{Key: "login:" + shortName(name) + "@" + AddressOf(ip), Rule: loginFailures}
}

// errSpent refuses a request past one of its limits: wait is how long
// until the next is due, of which limit (status says it).
type errSpent struct {
	wait time.Duration
	of   spent
}

func (e *errSpent) Error() string { return "handlers: a limit is spent" }

// spent is the kind of limit an errSpent refuses past.
type spent int

const (
	spentRequests spent = iota // a page's own limit (exportKey)
	spentGuests                // an address's guests or their games (guestsKey, guestGamesKey)
	spentLogins                // an account's log-ins (loginsKey)
	spentGames                 // a player's games in a row (creationKey)
)

// loginsKey is an account's successful log-ins, by its name in small
// letters (as typed: it is counted before the password is checked).
func loginsKey(name string) limitKey {
	return limitKey{Key: "logins:" + shortName(name), Rule: logins}
}

// shortName is a name as typed, cut to the longest a name can be: the
// keys stay short.
func shortName(name string) string {
	if len(name) > 64 {
		name = strings.ToValidUTF8(name[:64], "")
	}
	return name
}

// checksKey is an address's password checks.
func checksKey(ip string) limitKey {
	return limitKey{Key: "hash:" + AddressOf(ip), Rule: passwordChecks}
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

// mailLinksKey is a user's sign-ins by the links in their mail.
func mailLinksKey(user uint) limitKey {
	return limitKey{Key: fmt.Sprintf("golink:%d", user), Rule: mailLinks}
}

// exportKey is a user's downloads of their data.
func exportKey(user uint) limitKey {
	return limitKey{Key: fmt.Sprintf("export:%d", user), Rule: exports}
}

// testKey is a user's test notices: two in a row, then one a minute.
func testKey(user uint) limitKey { return limitKey{Key: fmt.Sprintf("test:%d", user), Rule: tests} }

// confirmKey is the confirmation mails an address asks for, from any
// accounts.
func confirmKey(ip string) limitKey {
	return limitKey{Key: "confirm:" + AddressOf(ip), Rule: confirmations}
}

// guestsKey is the guests an address makes (each with their first game).
func guestsKey(ip string) limitKey { return limitKey{Key: "guests:" + AddressOf(ip), Rule: guests} }

// guestGamesKey is the further games an address's guests open.
func guestGamesKey(ip string) limitKey {
	return limitKey{Key: "guest-games:" + AddressOf(ip), Rule: guestGames}
}

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

// take takes a try on k if it may go now, else returns how long it must
// wait: the check and the count in one step, before the work it guards,
// so that tries at once cannot pass the limit together.
func (l *limiter) take(k limitKey) time.Duration {
	d, err := l.store.LimitTake(k)
	if err != nil {
		l.log.Error("rate limit", "err", err)
	}
	return d
}

// take takes a try on k for c's request (limiter.take); when it must wait,
// the answer says when to try again.
func (s *Server) take(c echo.Context, k limitKey) time.Duration {
	d := s.limiter.take(k)
	if d > 0 {
		retryAfter(c, d)
	}
	return d
}

// retryAfter tells the client to try again in d.
func retryAfter(c echo.Context, d time.Duration) {
	c.Response().Header().Set("Retry-After", fmt.Sprint(int(d.Seconds())+1))
}

// wait returns how long tries on these keys must wait (0: go ahead): for
// limits on what is known only after the work (a failed log-in), which
// spend counts then.
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
