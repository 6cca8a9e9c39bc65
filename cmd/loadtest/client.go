package main

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"
)

var csrfRE = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)

// errStop ends a user's loop when the measured time is over.
var errStop = errors.New("stop")

// do sends one request and, when it is sent in the measured time, times it
// under kind. htmx requests carry the headers htmx sends: HX-Request and
// the CSRF token (the page's hx-headers), nothing else of the page.
func (u *vuser) do(ctx context.Context, kind, method, path string, form url.Values, htmx bool) (*http.Response, string, error) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, u.base+path, body)
	if err != nil {
		return nil, "", err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if htmx {
		req.Header.Set("HX-Request", "true")
		req.Header.Set("X-CSRF-Token", u.csrf)
	}
	req.Header.Set("Accept-Encoding", "gzip")
	req.Header.Set("X-Forwarded-For", u.addr)
	start := time.Now()
	res, err := u.http.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", errStop
		}
		u.fail(fmt.Errorf("%s %s: %w", method, path, err))
		return nil, "", err
	}
	b, wire, err := readBody(res)
	res.Body.Close()
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", errStop
		}
		u.fail(fmt.Errorf("%s %s: reading: %w", method, path, err))
		return nil, "", err
	}
	if u.win.has(start) {
		u.st.Lat[kind] = append(u.st.Lat[kind], time.Since(start))
		u.st.addBytes(kind, Size{Wire: wire, Body: int64(len(b))})
		if u.sample != nil && res.StatusCode == http.StatusOK {
			u.sample.add(kind, b)
		}
	}
	if res.StatusCode >= 300 {
		err := fmt.Errorf("%s %s: status %d: %.200s", method, path, res.StatusCode, b)
		u.fail(err)
		return res, b, err
	}
	return res, b, nil
}

func (u *vuser) fail(err error) {
	u.st.Errors++
	if len(u.st.ErrorSamples) < 3 {
		u.st.ErrorSamples = append(u.st.ErrorSamples, u.name+": "+err.Error())
	}
}

func (u *vuser) signup(ctx context.Context) error {
	_, page, err := u.do(ctx, "signup", "GET", "/signup", nil, false)
	if err != nil {
		return err
	}
	m := csrfRE.FindStringSubmatch(page)
	if m == nil {
		return fmt.Errorf("no CSRF token on the sign-up page")
	}
	u.csrf = html.UnescapeString(m[1])
	_, _, err = u.do(ctx, "signup", "POST", "/signup", url.Values{"_csrf": {u.csrf}, "username": {u.name}, "password": {"load-" + u.name}}, false)
	return err
}

// gunzips keeps decompressors for reuse: each holds a 32 KB window.
var gunzips sync.Pool

// readBody reads a response, gunzipping it when the server compressed it,
// and says how many bytes came over the wire.
func readBody(res *http.Response) (string, int64, error) {
	wire := &countReader{r: res.Body}
	var r io.Reader = wire
	if res.Header.Get("Content-Encoding") == "gzip" {
		zr, _ := gunzips.Get().(*gzip.Reader)
		var err error
		if zr == nil {
			zr, err = gzip.NewReader(wire)
		} else {
			err = zr.Reset(wire)
		}
		if err != nil {
			return "", wire.n, err
		}
		defer gunzips.Put(zr)
		r = zr
	}
	var b strings.Builder
	if n := res.ContentLength; n > 0 && n < 1<<20 {
		b.Grow(int(n) * 4) // compressed pages grow about fourfold
	}
	_, err := io.Copy(&b, r)
	return b.String(), wire.n, err
}

// countReader counts the bytes read through it.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
