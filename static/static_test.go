package static

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

func get(t *testing.T, url string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	Handler().ServeHTTP(w, httptest.NewRequest("GET", url, nil))
	return w
}

// TestOutdatedHashGetsTheFileNow: a page from before an update names the
// files by their old hashes; they are served as they are now, revalidated,
// never cached for a year. Names that are no file's stay 404.
func TestOutdatedHashGetsTheFileNow(t *testing.T) {
	cur := Path("app.css")
	fresh := get(t, cur)
	if fresh.Code != 200 || !strings.Contains(fresh.Header().Get("Cache-Control"), "immutable") {
		t.Fatalf("%s: %d, Cache-Control %q", cur, fresh.Code, fresh.Header().Get("Cache-Control"))
	}
	old := Prefix + "app.0123456789.css"
	if old == cur {
		t.Skip("the content hashes to the test's old name")
	}
	w := get(t, old)
	if w.Code != 200 || w.Body.String() != fresh.Body.String() {
		t.Fatalf("%s: %d, %d bytes; want app.css as it is now (%d bytes)", old, w.Code, w.Body.Len(), fresh.Body.Len())
	}
	if cc := w.Header().Get("Cache-Control"); cc != "public, no-cache" {
		t.Fatalf("%s: Cache-Control %q, want revalidation", old, cc)
	}
	if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/css") {
		t.Fatalf("%s: Content-Type %q", old, ct)
	}
	if w := get(t, Prefix+"vendor/htmx-2.0.11.min.0123456789.js"); w.Code != 200 || !strings.Contains(w.Header().Get("Content-Type"), "javascript") {
		t.Fatalf("an outdated vendored script: %d, %q", w.Code, w.Header().Get("Content-Type"))
	}
	for _, name := range []string{"nope.0123456789.css", "app.012345678.css", "app.0123456789a.css", "app.012345678g.css", "app.css.0123456789", "0123456789.css", "app.0123456789.svg", "vendor/app.0123456789.css"} {
		if w := get(t, Prefix+name); w.Code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", name, w.Code)
		}
	}
}

// TestGzipOnFirstAsk: a file is gzipped when a request first accepts gzip,
// once for its plain and hashed names, also under concurrent requests, and
// the gzipped answer is the file.
func TestGzipOnFirstAsk(t *testing.T) {
	name := "vendor/htmx-ext-sse-2.2.4.js"
	want, err := FS.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	c := files().files[name].c
	if w := get(t, Path(name)); w.Code != 200 || w.Body.String() != string(want) || c.gz != nil {
		t.Fatalf("a request without gzip: %d, %d bytes, gzipped already: %v", w.Code, w.Body.Len(), c.gz != nil)
	}
	var wg sync.WaitGroup
	bodies := make([][]byte, 8)
	for i := range bodies {
		wg.Go(func() {
			u := Prefix + name
			if i%2 == 1 {
				u = Path(name)
			}
			r := httptest.NewRequest("GET", u, nil)
			r.Header.Set("Accept-Encoding", "gzip, deflate")
			w := httptest.NewRecorder()
			Handler().ServeHTTP(w, r)
			if w.Code != 200 || w.Header().Get("Content-Encoding") != "gzip" || !strings.Contains(w.Header().Get("Content-Type"), "javascript") {
				t.Errorf("%s: %d, %v", u, w.Code, w.Header())
				return
			}
			zr, err := gzip.NewReader(w.Body)
			if err != nil {
				t.Error(err)
				return
			}
			bodies[i], err = io.ReadAll(zr)
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i, b := range bodies {
		if !bytes.Equal(b, want) {
			t.Fatalf("answer %d: %d bytes unzipped, want the file's %d", i, len(b), len(want))
		}
	}
}
