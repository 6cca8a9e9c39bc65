package hook

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

var (
	secret = []byte("s3cret")
	event  = Event{
		Kind:  "turn",
		Game:  12,
		Title: "Cacao: your turn",
		Text:  "It is your turn in game 12.",
		URL:   "https://cacao.example/games/12",
		At:    time.Date(2025, 3, 4, 5, 6, 7, 0, time.FixedZone("x", 3600)),
	}
)

func TestForm(t *testing.T) {
	for raw, want := range map[string]string{
		"https://ntfy.sh/mytopic":                       Ntfy,
		"https://NTFY.SH/mytopic":                       Ntfy,
		"https://ntfy.example.org/cacao":                Ntfy,
		"https://discord.com/api/webhooks/1/x":          Discord,
		"https://discordapp.com/api/webhooks/1/x":       Discord,
		"https://canary.discord.com/api/webhooks/1/x":   Discord,
		"https://ptb.discordapp.com/api/webhooks/1/x":   Discord,
		"https://discord.com/channels/1":                JSON,
		"https://evil.discord.com.example/api/webhooks": JSON,
		"https://example.org/hook":                      JSON,
		"https://myntfy.example.org/x":                  JSON,
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := Form(u); got != want {
			t.Errorf("Form(%s) = %q, want %q", raw, got, want)
		}
	}
}

// check verifies the common headers and signature of req and returns its body.
func check(t *testing.T, req *http.Request, contentType string) []byte {
	t.Helper()
	body, err := io.ReadAll(req.Body)
	if err != nil {
		t.Fatal(err)
	}
	if req.Method != http.MethodPost {
		t.Errorf("method %s", req.Method)
	}
	if got := req.Header.Get("Content-Type"); got != contentType {
		t.Errorf("Content-Type %q, want %q", got, contentType)
	}
	if got := req.Header.Get("User-Agent"); got != "cacao-webhook" {
		t.Errorf("User-Agent %q", got)
	}
	ts := req.Header.Get("X-Cacao-Timestamp")
	if ts != strconv.FormatInt(event.At.Unix(), 10) {
		t.Errorf("X-Cacao-Timestamp %q", ts)
	}
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(ts + "." + string(body)))
	want := "sha256=" + hex.EncodeToString(m.Sum(nil))
	if got := req.Header.Get("X-Cacao-Signature"); got != want {
		t.Errorf("X-Cacao-Signature %q, want %q", got, want)
	}
	if Sign(secret, ts, body) != want || Sign([]byte("other"), ts, body) == want || Sign(secret, ts+"1", body) == want {
		t.Error("Sign does not match the HMAC over timestamp.body")
	}
	return body
}

func TestRequestJSON(t *testing.T) {
	req, err := Request(context.Background(), "https://example.org/hook", secret, event)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(check(t, req, "application/json"), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"event": "turn", "game": 12.0, "title": event.Title, "text": event.Text,
		"url": event.URL, "time": "2025-03-04T04:06:07Z",
	}
	if len(got) != len(want) {
		t.Errorf("body %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
}

func TestRequestDiscord(t *testing.T) {
	req, err := Request(context.Background(), "https://discord.com/api/webhooks/1/x", secret, event)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Content         string
		AllowedMentions struct{ Parse []string } `json:"allowed_mentions"`
	}
	body := check(t, req, "application/json")
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if want := event.Title + "\n" + event.Text + "\n" + event.URL; got.Content != want {
		t.Errorf("content %q, want %q", got.Content, want)
	}
	if !strings.Contains(string(body), `"allowed_mentions":{"parse":[]}`) {
		t.Errorf("body %s lacks empty allowed_mentions.parse", body)
	}

	long := event
	long.Text = strings.Repeat("ش", 5000)
	long.URL = "https://cacao.example/" + strings.Repeat("g", 3000)
	req, err = Request(context.Background(), "https://discord.com/api/webhooks/1/x", secret, long)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.NewDecoder(req.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if n := utf8.RuneCountInString(got.Content); n > 2000 {
		t.Errorf("content has %d runes", n)
	}
}

func TestRequestNtfy(t *testing.T) {
	ev := event
	ev.Title = "Cacao: نوبت شماست"
	req, err := Request(context.Background(), "https://ntfy.sh/cacao-topic", secret, ev)
	if err != nil {
		t.Fatal(err)
	}
	if body := check(t, req, "text/plain; charset=utf-8"); string(body) != ev.Text {
		t.Errorf("body %q", body)
	}
	title := req.Header.Get("Title")
	if !strings.HasPrefix(title, "=?utf-8?q?") {
		t.Errorf("Title %q is not Q-encoded", title)
	}
	if got, err := new(mime.WordDecoder).DecodeHeader(title); err != nil || got != ev.Title {
		t.Errorf("Title decodes to %q, %v", got, err)
	}
	if got := req.Header.Get("Click"); got != ev.URL {
		t.Errorf("Click %q", got)
	}
	if got := req.Header.Get("Tags"); got != "game_die" {
		t.Errorf("Tags %q", got)
	}

	ev.Title = "Cacao: your turn\r\nX-Evil: 1"
	req, err = Request(context.Background(), "https://ntfy.example.org/t", secret, ev)
	if err != nil {
		t.Fatal(err)
	}
	if got := req.Header.Get("Title"); strings.ContainsAny(got, "\r\n") || !strings.HasPrefix(got, "Cacao: your turn") {
		t.Errorf("ASCII Title %q", got)
	}
}

func TestRequestBadTarget(t *testing.T) {
	for _, target := range []string{"", "ftp://example.org/x", "/relative", "https:///nohost", "http://[::1"} {
		_, err := Request(context.Background(), target, secret, event)
		if err == nil || !Permanent(err) {
			t.Errorf("Request(%q): %v, want a permanent error", target, err)
		}
	}
}

func TestPublic(t *testing.T) {
	for s, want := range map[string]bool{
		"127.0.0.1": false, "::1": false, "10.1.2.3": false, "172.16.0.1": false,
		"172.31.255.255": false, "192.168.1.1": false, "169.254.169.254": false,
		"100.64.0.1": false, "0.0.0.0": false, "0.1.2.3": false, "::": false,
		"::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false, "fe80::1": false,
		"fe80::1%eth0": false, "2606:4700::1111%eth0": false, "fc00::1": false, "fd12:3456::1": false,
		"224.0.0.1": false, "ff02::1": false, "255.255.255.255": false,
		"198.18.0.1": false, "192.0.2.1": false, "203.0.113.9": false,
		"2001:db8::1": false, "2002:7f00:1::1": false, "2002:c0a8:101::1": false,
		"64:ff9b::10.0.0.1": false, "::127.0.0.1": false, "2001::1": false,

		"8.8.8.8": true, "1.1.1.1": true, "2606:4700::1111": true,
		"172.32.0.1": true, "::ffff:8.8.8.8": true, "2002:808:808::1": true,
		"64:ff9b::8.8.8.8": true,
	} {
		if got := Public(netip.MustParseAddr(s)); got != want {
			t.Errorf("Public(%s) = %v, want %v", s, got, want)
		}
	}
	if Public(netip.Addr{}) {
		t.Error("the zero Addr is public")
	}
}

// server counts hits and answers each path's status code ("/204", "/404", …),
// checking the signature.
func server(t *testing.T) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		body, _ := io.ReadAll(r.Body)
		if r.Header.Get("X-Cacao-Signature") != Sign(secret, r.Header.Get("X-Cacao-Timestamp"), body) {
			t.Errorf("%s: bad signature", r.URL.Path)
		}
		if r.URL.Path == "/302" {
			http.Redirect(w, r, "/204", http.StatusFound)
			return
		}
		code, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/"))
		if err != nil {
			code = http.StatusTeapot
		}
		w.WriteHeader(code)
		io.WriteString(w, strings.Repeat("x", 10000))
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestClientRefusesPrivate(t *testing.T) {
	srv, hits := server(t)
	_, port, _ := strings.Cut(strings.TrimPrefix(srv.URL, "http://"), ":")
	for _, target := range []string{srv.URL + "/204", "http://localhost:" + port + "/204"} {
		err := Post(context.Background(), Client(false), target, secret, event)
		if !errors.Is(err, ErrPrivate) || !Permanent(err) {
			t.Errorf("Post(%s) with Client(false): %v, want ErrPrivate, permanent", target, err)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the server was reached %d times", n)
	}
	if err := Post(context.Background(), Client(true), srv.URL+"/204", secret, event); err != nil {
		t.Errorf("Client(true): %v", err)
	}
	if tr := Client(false).Transport.(*http.Transport); tr.Proxy != nil {
		t.Error("the transport uses a proxy")
	}
}

func TestPost(t *testing.T) {
	srv, hits := server(t)
	c := Client(true)
	for _, tc := range []struct {
		path      string
		ok        bool
		permanent bool
	}{
		{"/200", true, false},
		{"/204", true, false},
		{"/302", false, true},
		{"/400", false, true},
		{"/404", false, true},
		{"/410", false, true},
		{"/408", false, false},
		{"/429", false, false},
		{"/500", false, false},
		{"/503", false, false},
	} {
		err := Post(context.Background(), c, srv.URL+tc.path, secret, event)
		if (err == nil) != tc.ok || Permanent(err) != tc.permanent {
			t.Errorf("Post %s: %v (permanent %v), want ok %v, permanent %v", tc.path, err, Permanent(err), tc.ok, tc.permanent)
		}
		if err != nil && !strings.Contains(err.Error(), tc.path[1:]) {
			t.Errorf("Post %s: error %q does not say the status", tc.path, err)
		}
	}
	if n := hits.Load(); n != 10 {
		t.Errorf("%d hits, want 10 (the 302 must not be followed)", n)
	}

	req, err := Request(context.Background(), srv.URL+"/302", secret, event)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Errorf("the client followed the redirect: %d", resp.StatusCode)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Post(ctx, c, srv.URL+"/204", secret, event); err == nil || Permanent(err) {
		t.Errorf("canceled: %v, want a temporary error", err)
	}
	if Permanent(nil) {
		t.Error("Permanent(nil)")
	}
}
