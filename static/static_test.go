package static

import (
	"net/http"
	"net/http/httptest"
	"strings"
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
