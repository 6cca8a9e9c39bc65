// Package static holds the site's CSS, script, icons, the tiles' sprite
// (tiles.svg, which views draws from the engine's tiles), web app manifest and
// vendored scripts (htmx 2.0.11 and htmx-ext-sse 2.2.4 from npm, under
// their licences in vendor/), embedded in the binary: no CDN, no build
// step.
//
// Each file is also served under a name with a hash of its content
// ("app.3f9c1a2b7d.css"), which may be cached for a year: a changed file gets
// a new name. Pages link to files by Path.
//
// Nothing is done when the package loads: the names and hashes are worked
// out at the first Path or Handler request, and each file is gzipped
// (at the best level) at its first request that accepts gzip. A command
// that serves nothing, such as `cacao replay`, pays for neither.
package static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"
)

// FS is the static files, served under /static/.
//
//go:embed app.css app.js sw.js favicon.svg icon.svg icon-180.png icon-192.png icon-512.png manifest.webmanifest tiles.svg vendor
var FS embed.FS

// Prefix is where the files are served.
const Prefix = "/static/"

// table is the files served. Its maps are never changed once made, so
// that Path and Handler read them without a lock.
type table struct {
	files  map[string]file   // served name (plain or hashed) → file
	hashed map[string]string // plain name → hashed name
}

type file struct {
	c         *content // shared by the file's plain and hashed names
	immutable bool
}

// content is a file's bytes and, from its first request that accepts
// gzip, their gzipped form.
type content struct {
	data   []byte
	gzOnce sync.Once
	gz     []byte
}

func (c *content) gzipped() []byte {
	c.gzOnce.Do(func() {
		var b bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
		zw.Write(c.data)
		zw.Close()
		c.gz = b.Bytes()
	})
	return c.gz
}

// files returns the files served, listing them at the first call.
var files = sync.OnceValue(func() *table {
	// Not in every system's list, and browsers want it said.
	if err := mime.AddExtensionType(".webmanifest", "application/manifest+json"); err != nil {
		panic(err)
	}
	t := &table{files: map[string]file{}, hashed: map[string]string{}}
	err := fs.WalkDir(FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := FS.ReadFile(name)
		if err != nil {
			return err
		}
		t.put(name, data)
		return nil
	})
	if err != nil {
		panic(err) // the embedded files are part of the binary
	}
	return t
})

// hashBytes is how much of a file's SHA-256 its hashed name carries, in
// hex (twice as many digits).
const hashBytes = 5

// put serves data as name in t, which is being made.
func (t *table) put(name string, data []byte) {
	sum := sha256.Sum256(data)
	ext := path.Ext(name)
	h := strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:hashBytes]) + ext
	c := &content{data: data}
	t.files[name] = file{c: c}
	t.files[h] = file{c: c, immutable: true}
	t.hashed[name] = h
}

// outdated says whether name is a file's name with a hash that is not its
// content's now ("app.0123456789.css" when app.css hashes otherwise), and
// returns the file's plain name.
func (t *table) outdated(name string) (string, bool) {
	ext := path.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	i := strings.LastIndexByte(stem, '.')
	if i < 0 || len(stem)-i-1 != 2*hashBytes {
		return "", false
	}
	for _, c := range stem[i+1:] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return "", false
		}
	}
	plain := stem[:i] + ext
	_, ok := t.hashed[plain]
	return plain, ok
}

// Path returns the URL of the static file name (e.g. "app.css"), with its
// content hash in it. It panics for a file that does not exist, so that a
// page cannot link to nothing.
func Path(name string) string {
	h, ok := files().hashed[name]
	if !ok {
		panic("static: no file " + name)
	}
	return Prefix + h
}

// Handler serves the files under Prefix: hashed names with a year's cache,
// plain names with revalidation. A hashed name of a file whose content has
// changed since (a page, or htmx's snapshot of one, from before the site was
// updated) gets the file as it is now, with revalidation: a sprite's icons
// drawn from newer symbols are better than none.
func Handler() http.Handler {
	start := time.Now()
	return http.StripPrefix(Prefix, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t := files()
		f, ok := t.files[r.URL.Path]
		if !ok {
			plain, stale := t.outdated(r.URL.Path)
			if !stale {
				http.NotFound(w, r)
				return
			}
			f = t.files[plain]
		}
		h := w.Header()
		if f.immutable {
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			h.Set("Cache-Control", "public, no-cache")
		}
		h.Set("Vary", "Accept-Encoding")
		data := f.c.data
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			data = f.c.gzipped()
			h.Set("Content-Encoding", "gzip")
			if ct := mime.TypeByExtension(path.Ext(r.URL.Path)); ct != "" {
				h.Set("Content-Type", ct)
			}
		}
		http.ServeContent(w, r, r.URL.Path, start, bytes.NewReader(data))
	}))
}
