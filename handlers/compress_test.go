package handlers_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"testing"
)

// TestCompressOnlyWhereItPays: a browser that takes gzip gets the game
// area gzipped, the same page once unzipped and a fraction of its size; an
// answer under a kilobyte (an htmx request's error) is sent as it is.
func TestCompressOnlyWhereItPays(t *testing.T) {
	s := newSite(t)
	id, ana, _ := s.midGame()
	fetch := func(path string, gz bool) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", s.srv.URL+path, nil)
		req.Header.Set("HX-Request", "true")
		if gz {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		for _, ck := range ana.http.Jar.Cookies(req.URL) {
			req.AddCookie(ck)
		}
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, b
	}
	path := fmt.Sprintf("/games/%d", id)
	fetch(path, false) // the news since ana's last look is read: the next answers are alike
	_, plain := fetch(path, false)
	res, wire := fetch(path, true)
	if res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("the game area for a browser taking gzip: Content-Encoding %q", res.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(wire))
	if err != nil {
		t.Fatal(err)
	}
	unzipped, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	if string(unzipped) != string(plain) || len(wire)*3 > len(plain) {
		t.Fatalf("the game area gzipped: %d bytes on the wire, %d unzipped, the same as sent plain (%d bytes): %v; want a third or less", len(wire), len(unzipped), len(plain), string(unzipped) == string(plain))
	}
	res, small := fetch("/games/999999", true)
	if res.StatusCode != http.StatusNotFound || len(small) >= 1024 || res.Header.Get("Content-Encoding") != "" {
		t.Fatalf("a small answer: %d, %d bytes, Content-Encoding %q; want 404, under 1 KB, not gzipped", res.StatusCode, len(small), res.Header.Get("Content-Encoding"))
	}
}
