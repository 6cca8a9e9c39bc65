package main

import (
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestBrowserMoveThatFailsSaysSo: a move confirmed while the site cannot
// be reached (a restart, a lost connection) says so on the screen, in
// view, and keeps the move chosen; once the site is back, Confirm makes
// the move and the message goes.
func TestBrowserMoveThatFailsSaysSo(t *testing.T) {
	t.Parallel()
	b, a, game := aliceAgainstABot(t)
	// The browser reaches the site through a proxy that can drop every
	// request, as a site being restarted does.
	site, err := url.Parse(game)
	if err != nil {
		t.Fatal(err)
	}
	var down atomic.Bool
	forward := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: site.Scheme, Host: site.Host})
	forward.FlushInterval = -1 // event streams
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if down.Load() {
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				conn.(*net.TCPConn).SetLinger(0)
				conn.Close()
			}
			return
		}
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { proxy.CloseClientConnections(); proxy.Close() }) // the page's event stream stays open
	a.must(a.navigate(proxy.URL + site.Path))
	a.must(a.waitFor(`document.readyState === 'complete' && typeof window.htmx !== 'undefined' && !!document.querySelector('.hand a.tile')`, 10*time.Second, "the game through the proxy"))
	a.chooseTileWithPlaces(1)
	cell := a.mustState().Cells[0]
	a.jsClick(`#board a.cell[data-cell="`+cell+`"]`, "cell "+cell)
	a.must(a.waitFor(`!!document.getElementById('confirm') && !document.querySelector('.htmx-request')`, 10*time.Second, "Confirm"))
	chosen := a.location()

	down.Store(true)
	_, err = eval[bool](a, `(() => { document.getElementById('confirm').click(); return true; })()`)
	a.must(err)
	a.must(a.waitFor(`!document.getElementById('request-error').hidden`, 10*time.Second, "the message that the move did not go through"))
	if msg := a.text("#request-error"); !strings.Contains(msg, "could not be reached") {
		b.fatalf("the message says %q", msg)
	}
	if out := a.notInView([][2]string{{"#request-error", "the message"}, {"#confirm", "Confirm"}}); len(out) > 0 {
		b.fatalf("with the move not gone through: %s", strings.Join(out, "; "))
	}
	if got := a.location(); got != chosen {
		b.fatalf("the page went from %s to %s", chosen, got)
	}

	down.Store(false)
	_, err = eval[bool](a, `(() => { document.getElementById('confirm').click(); return true; })()`)
	a.must(err)
	a.must(a.waitFor(`!document.getElementById('confirm') && !document.querySelector('.htmx-request')`, 10*time.Second, "the move made"))
	if hidden, err := eval[bool](a, `document.getElementById('request-error').hidden`); err != nil || !hidden {
		b.fatalf("the message stays after the move went through (%v)", err)
	}
}
