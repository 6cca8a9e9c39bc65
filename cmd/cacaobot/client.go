package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"cacao/handlers/api"
)

// client calls the site's API with a token.
type client struct {
	site  string // the site's address, without a trailing slash
	token string
	http  *http.Client
}

// refusal is an answer other than 2xx: its status and the site's sentence.
type refusal struct {
	status int
	text   string
}

func (e *refusal) Error() string { return fmt.Sprintf("the site says: %s (%d)", e.text, e.status) }

// movedOn reports whether err is the site's 409: the game moved on since
// the version the request was chosen on.
func movedOn(err error) bool {
	var e *refusal
	return errors.As(err, &e) && e.status == http.StatusConflict
}

// do sends method path (under /api/v1) with body as JSON (nil: none) and
// reads the answer into out. A 429 is waited out as Retry-After says and
// the request sent again; any other refusal is a *refusal.
func (c *client) do(ctx context.Context, method, path string, body, out any) error {
	var data []byte
	if body != nil {
		var err error
		if data, err = json.Marshal(body); err != nil {
			return err
		}
	}
	for {
		var rd io.Reader
		if data != nil {
			rd = bytes.NewReader(data)
		}
		req, err := http.NewRequestWithContext(ctx, method, c.site+"/api/v1"+path, rd)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+c.token)
		req.Header.Set("Accept", "application/json")
		if data != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := c.http.Do(req)
		if err != nil {
			return err
		}
		answer, err := io.ReadAll(io.LimitReader(res.Body, 8<<20))
		res.Body.Close()
		if err != nil {
			return err
		}
		switch {
		case res.StatusCode == http.StatusTooManyRequests:
			if err := wait(ctx, retryAfter(res.Header)); err != nil {
				return err
			}
			continue
		case res.StatusCode/100 != 2:
			var e api.Error
			if json.Unmarshal(answer, &e) != nil || e.Error == "" {
				e.Error = http.StatusText(res.StatusCode)
			}
			return &refusal{status: res.StatusCode, text: e.Error}
		}
		if err := json.Unmarshal(answer, out); err != nil {
			return fmt.Errorf("%s %s: %w", method, path, err)
		}
		return nil
	}
}

// call is do with an answer of type T, read into a fresh value: JSON
// read over an earlier answer would keep what the new one omits.
func call[T any](ctx context.Context, c *client, method, path string, body any) (T, error) {
	var out T
	err := c.do(ctx, method, path, body, &out)
	return out, err
}

// retryAfter is how long a 429 asks to wait: Retry-After in seconds, or
// a second when it says nothing readable.
func retryAfter(h http.Header) time.Duration {
	if s, err := strconv.Atoi(strings.TrimSpace(h.Get("Retry-After"))); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	return time.Second
}

// wait waits d, or less if ctx ends first.
func wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
