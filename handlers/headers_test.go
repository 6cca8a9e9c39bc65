package handlers_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestSecurityHeaders: every answer forbids framing and scripts from
// anywhere but the site (no inline script, no eval), does not let the
// browser guess types, keeps the address to the site, and carries a
// request id of the site's own making, not the client's.
func TestSecurityHeaders(t *testing.T) {
	s := newSite(t)
	ana := s.signup("ana")
	for _, path := range []string{"/", "/login", "/rules", "/nowhere"} {
		req, _ := http.NewRequest("GET", s.srv.URL+path, nil)
		req.Header.Set("X-Request-Id", "forged-id")
		res, err := ana.http.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		h := res.Header
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{"frame-ancestors 'none'", "script-src 'self'", "object-src 'none'", "base-uri 'none'"} {
			if !strings.Contains(csp, want) {
				t.Fatalf("%s: the policy %q lacks %q", path, csp, want)
			}
		}
		if script := csp[strings.Index(csp, "script-src"):]; strings.Contains(strings.SplitN(script, ";", 2)[0], "unsafe") {
			t.Fatalf("%s: scripts may run inline or from strings: %q", path, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "same-origin" {
			t.Fatalf("%s: nosniff %q, referrer policy %q", path, h.Get("X-Content-Type-Options"), h.Get("Referrer-Policy"))
		}
		if id := h.Get("X-Request-Id"); id == "" || id == "forged-id" {
			t.Fatalf("%s: request id %q", path, id)
		}
	}
}
