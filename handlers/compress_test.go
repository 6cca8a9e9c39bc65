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
	fetch := func(path string, gz bool) (http.Header, []byte) {
		t.Helper()
		h := map[string]string{"HX-Request": "true"}
		if gz {
			h["Accept-Encoding"] = "gzip" // set by hand: the client leaves the body as sent
		}
		_, body, header := ana.ask(t, "GET", path, "", h)
		return header, []byte(body)
	}
	path := fmt.Sprintf("/games/%d", id)
	fetch(path, false) // the news since ana's last look is read: the next answers are alike
	_, plain := fetch(path, false)
	header, wire := fetch(path, true)
	if header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("the game area for a browser taking gzip: Content-Encoding %q", header.Get("Content-Encoding"))
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
	code, small, header := ana.ask(t, "GET", "/games/999999", "", map[string]string{"HX-Request": "true", "Accept-Encoding": "gzip"})
	if code != http.StatusNotFound || len(small) >= 1024 || header.Get("Content-Encoding") != "" {
		t.Fatalf("a small answer: %d, %d bytes, Content-Encoding %q; want 404, under 1 KB, not gzipped", code, len(small), header.Get("Content-Encoding"))
	}
}
