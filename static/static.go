// Package static holds the site's CSS and vendored scripts (htmx 2.0.11 and
// htmx-ext-sse 2.2.4 from npm, under their licences in vendor/), embedded in
// the binary: no CDN, no build step.
//
// Each file is also served under a name with a hash of its content
// ("app.3f9c1a2b7d.css"), which may be cached for a year: a changed file gets
// a new name. Pages link to files by Path.
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
	"time"
)

// FS is the static files, served under /static/.
//
//go:embed app.css app.js vendor
var FS embed.FS

// Prefix is where the files are served.
const Prefix = "/static/"

// files maps a served name (plain or hashed) to its file.
var (
	files  = map[string]file{}
	hashed = map[string]string{} // plain name → hashed name
)

type file struct {
	data, gz  []byte // gz: compressed once, at the best level
	immutable bool
}

func init() {
	err := fs.WalkDir(FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := FS.ReadFile(name)
		if err != nil {
			return err
		}
		Add(name, data)
		return nil
	})
	if err != nil {
		panic(err)
	}
}

// hashBytes is how much of a file's SHA-256 its hashed name carries, in
// hex (twice as many digits).
const hashBytes = 5

// Add serves data as the static file name, like the embedded ones: for
// files another package makes from its own data when it starts (views
// draws the hand's tiles once, from the engine's). Only from an init
// function: the files are read without a lock once the site serves.
func Add(name string, data []byte) {
	if _, ok := hashed[name]; ok {
		panic("static: " + name + " added twice")
	}
	sum := sha256.Sum256(data)
	ext := path.Ext(name)
	h := strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:hashBytes]) + ext
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(data)
	zw.Close()
	files[name] = file{data: data, gz: gz.Bytes()}
	files[h] = file{data: data, gz: gz.Bytes(), immutable: true}
	hashed[name] = h
}

// outdated says whether name is a file's name with a hash that is not its
// content's now ("app.0123456789.css" when app.css hashes otherwise), and
// returns the file's plain name.
func outdated(name string) (string, bool) {
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
	_, ok := hashed[plain]
	return plain, ok
}

// Path returns the URL of the static file name (e.g. "app.css"), with its
// content hash in it. It panics for a file that does not exist, so that a
// page cannot link to nothing.
func Path(name string) string {
	h, ok := hashed[name]
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
		f, ok := files[r.URL.Path]
		if !ok {
			plain, stale := outdated(r.URL.Path)
			if !stale {
				http.NotFound(w, r)
				return
			}
			f = files[plain]
		}
		h := w.Header()
		if f.immutable {
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			h.Set("Cache-Control", "public, no-cache")
		}
		h.Set("Vary", "Accept-Encoding")
		data := f.data
		if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			data = f.gz
			h.Set("Content-Encoding", "gzip")
			if ct := mime.TypeByExtension(path.Ext(r.URL.Path)); ct != "" {
				h.Set("Content-Type", ct)
			}
		}
		http.ServeContent(w, r, r.URL.Path, start, bytes.NewReader(data))
	}))
}
