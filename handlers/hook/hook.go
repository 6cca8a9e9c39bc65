// Package hook posts a player's notices to the one webhook URL the player
// gave: ntfy, Discord, or a generic JSON POST, chosen by the URL's form.
//
// Every request is signed with a per-user secret (see Sign). The client
// returned by Client refuses, at connect time, any address that is not
// public, so that a webhook cannot be used to reach inside our network.
package hook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"
)

// Forms of webhook.
const (
	Ntfy    = "ntfy"    // host ntfy.sh, or a host whose first label is "ntfy" (ntfy.example.org): plain-text body, headers Title, Click, Tags
	Discord = "discord" // host discord.com, discordapp.com (also canary./ptb. subdomains) with path /api/webhooks/...: JSON {"content": title + "\n" + text + "\n" + url, "allowed_mentions": {"parse": []}}
	JSON    = "json"    // anything else: JSON {"event","game","title","text","url","time"(RFC 3339 UTC)}
)

// Lengths, in runes, that texts are cut to.
const (
	maxTitle   = 200
	maxText    = 1000
	maxDiscord = 2000 // Discord refuses longer content
)

// Form tells which form of webhook u is (u already parsed and checked).
func Form(u *url.URL) string {
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "ntfy.sh" || strings.HasPrefix(host, "ntfy.") {
		return Ntfy
	}
	switch strings.TrimPrefix(strings.TrimPrefix(host, "canary."), "ptb.") {
	case "discord.com", "discordapp.com":
		if strings.HasPrefix(u.Path, "/api/webhooks/") {
			return Discord
		}
	}
	return JSON
}

// Event is one notice to post.
type Event struct {
	Kind  string    // our event kind: "turn", "choice", "reminder", "timeout", "invitation", "chat", "result", "follow", or "test"
	Game  uint      // 0 if none
	Title string    // short, e.g. "Cacao: your turn"
	Text  string    // the notice in the player's language
	URL   string    // absolute link to open (the game)
	At    time.Time // when it happened
	Sent  time.Time // when it is posted: the signature's time, which a receiver may check is recent
}

// errTarget marks a target URL that cannot be used (Permanent reports true).
var errTarget = errors.New("hook: unusable webhook URL")

// Request builds the POST for ev to target, signed with secret: header
// X-Cacao-Timestamp (unix seconds of ev.Sent, else ev.At) and X-Cacao-Signature "sha256=" + hex(HMAC-SHA256(secret, timestamp + "." + body)); User-Agent "cacao-webhook"; Content-Type per form (text/plain; charset=utf-8 for ntfy, application/json otherwise). For ntfy: header Title (RFC 2047-encode with mime.QEncoding.Encode("utf-8", ...) when not ASCII), Click = ev.URL, Tags "game_die". Texts are cut to sane lengths (Discord content ≤ 2000 runes).
//
// target must be an absolute http or https URL with a host; otherwise the
// error is permanent.
func Request(ctx context.Context, target string, secret []byte, ev Event) (*http.Request, error) {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" {
		return nil, fmt.Errorf("%w: %q", errTarget, target)
	}
	title, text := cut(ev.Title, maxTitle), cut(ev.Text, maxText)
	form := Form(u)
	var body []byte
	switch form {
	case Ntfy:
		body = []byte(text)
	case Discord:
		body, err = json.Marshal(map[string]any{
			"content":          cut(title+"\n"+text+"\n"+ev.URL, maxDiscord),
			"allowed_mentions": map[string][]string{"parse": {}},
		})
	default:
		body, err = json.Marshal(struct {
			Event string `json:"event"`
			Game  uint   `json:"game"`
			Title string `json:"title"`
			Text  string `json:"text"`
			URL   string `json:"url"`
			Time  string `json:"time"`
		}{ev.Kind, ev.Game, title, text, ev.URL, ev.At.UTC().Format(time.RFC3339)})
	}
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errTarget, err)
	}
	sent := ev.Sent
	if sent.IsZero() {
		sent = ev.At
	}
	ts := strconv.FormatInt(sent.Unix(), 10)
	req.Header.Set("User-Agent", "cacao-webhook")
	req.Header.Set("X-Cacao-Timestamp", ts)
	req.Header.Set("X-Cacao-Signature", Sign(secret, ts, body))
	if form == Ntfy {
		req.Header.Set("Content-Type", "text/plain; charset=utf-8")
		title = headerSafe(title)
		if !ascii(title) {
			title = mime.QEncoding.Encode("utf-8", title)
		}
		req.Header.Set("Title", title)
		req.Header.Set("Click", headerSafe(ev.URL))
		req.Header.Set("Tags", "game_die")
	} else {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// Sign returns the X-Cacao-Signature value for body at timestamp ts (exported so that receivers and tests can verify).
func Sign(secret []byte, ts string, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(ts))
	m.Write([]byte("."))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// cut returns s as valid UTF-8, at most n runes long (ending in "…" when cut).
func cut(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// headerSafe replaces control characters (CR, LF, …) by spaces.
func headerSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func prefixes(ss ...string) []netip.Prefix {
	ps := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		ps[i] = netip.MustParsePrefix(s)
	}
	return ps
}

var (
	// notPublic4 are the IPv4 ranges that are not public unicast.
	notPublic4 = prefixes(
		"0.0.0.0/8",       // "this network", unspecified
		"10.0.0.0/8",      // private
		"100.64.0.0/10",   // CGNAT
		"127.0.0.0/8",     // loopback
		"169.254.0.0/16",  // link-local (cloud metadata)
		"172.16.0.0/12",   // private
		"192.0.0.0/24",    // IETF protocol assignments
		"192.0.2.0/24",    // documentation
		"192.88.99.0/24",  // 6to4 relay anycast
		"192.168.0.0/16",  // private
		"198.18.0.0/15",   // benchmarking
		"198.51.100.0/24", // documentation
		"203.0.113.0/24",  // documentation
		"224.0.0.0/4",     // multicast
		"240.0.0.0/4",     // reserved, broadcast
	)
	global6 = netip.MustParsePrefix("2000::/3") // all of today's global unicast
	// notPublic6 are the ranges inside global6 that are not public.
	notPublic6 = prefixes(
		"2001::/23",     // IETF protocol assignments (Teredo, ORCHID, …)
		"2001:db8::/32", // documentation
		"3fff::/20",     // documentation
	)
	sixToFour = netip.MustParsePrefix("2002::/16")    // embeds an IPv4 in bytes 2-5
	nat64     = netip.MustParsePrefix("64:ff9b::/96") // embeds an IPv4 in bytes 12-15
)

// Public reports whether ip is a public unicast address: not loopback, private (RFC 1918, fc00::/7), link-local, multicast, unspecified, CGNAT 100.64/10, 0.0.0.0/8, benchmark 198.18/15, documentation ranges, IPv4-mapped forms of these, 6to4/NAT64 forms that embed a private IPv4, broadcast, etc.
//
// An IPv6 address is public only inside 2000::/3 (or the NAT64 prefix
// 64:ff9b::/96 with a public IPv4 inside) and without a zone.
func Public(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.Zone() != "" { // a zone means link scope
		return false
	}
	if ip.Is4() {
		for _, p := range notPublic4 {
			if p.Contains(ip) {
				return false
			}
		}
		return true
	}
	b := ip.As16()
	switch {
	case nat64.Contains(ip):
		return Public(netip.AddrFrom4([4]byte(b[12:16])))
	case sixToFour.Contains(ip):
		return Public(netip.AddrFrom4([4]byte(b[2:6])))
	case !global6.Contains(ip):
		return false // loopback, unspecified, fc00::/7, fe80::/10, ff00::/8, …
	}
	for _, p := range notPublic6 {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// ErrPrivate is the error (wrapped) when the dialer refuses an address.
var ErrPrivate = errors.New("hook: the address is not public")

// The client's timeouts: a server must take the connection within
// ConnectTimeout, and then finish the TLS handshake within as long again;
// the whole post, its answer read, ends within Timeout. A server that
// takes posts and never answers holds each for Timeout at most.
const (
	ConnectTimeout = 3 * time.Second
	Timeout        = 10 * time.Second
)

// Client returns the HTTP client for webhooks (and web push): ConnectTimeout, then Timeout in all; redirects are not followed (the 3xx is returned as is); unless allowPrivate, its dialer refuses, at connect time after DNS resolution (net.Dialer.Control), any address that is not Public, so that DNS rebinding cannot reach inside; proxies from the environment are not used.
func Client(allowPrivate bool) *http.Client {
	d := &net.Dialer{Timeout: ConnectTimeout, KeepAlive: 30 * time.Second}
	if !allowPrivate {
		d.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || !Public(ap.Addr()) {
				return fmt.Errorf("%w: %s", ErrPrivate, address)
			}
			return nil
		}
	}
	return &http.Client{
		Timeout: Timeout,
		Transport: &http.Transport{
			Proxy:               nil, // a proxy would dial for us, unchecked
			DialContext:         d.DialContext,
			ForceAttemptHTTP2:   true,
			TLSHandshakeTimeout: ConnectTimeout,
			MaxIdleConns:        20,
			IdleConnTimeout:     90 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// statusError is the error for an answer that is not 2xx.
type statusError struct{ code int }

func (e statusError) Error() string {
	return fmt.Sprintf("hook: webhook answered %d %s", e.code, http.StatusText(e.code))
}

// Post sends ev with c; nil for a 2xx answer. Otherwise an error saying the status; Permanent(err) reports whether retrying is pointless (a 3xx, which is not followed; a 4xx other than 408 and 429; ErrPrivate). The response body is read at most 4 KiB and closed.
func Post(ctx context.Context, c *http.Client, target string, secret []byte, ev Event) error {
	req, err := Request(ctx, target, secret, ev)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return statusError{resp.StatusCode}
	}
	return nil
}

// Permanent reports whether retrying after err is pointless: a 4xx answer
// other than 408 and 429, a refused (non-public) address, or a target URL
// that cannot be used.
func Permanent(err error) bool {
	if errors.Is(err, ErrPrivate) || errors.Is(err, errTarget) {
		return true
	}
	var se statusError
	if errors.As(err, &se) {
		return se.code/100 == 3 || se.code/100 == 4 && se.code != http.StatusRequestTimeout && se.code != http.StatusTooManyRequests
	}
	return false
}
