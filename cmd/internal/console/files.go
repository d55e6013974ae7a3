package console

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"sync"
	"time"
)

// static is the console: hand-written HTML, CSS and JavaScript modules,
// served as they are (no build step).
//
//go:embed static
var static embed.FS

// contentTypes are the types of the files the console has, by extension;
// a file of another extension is not served (loadFiles fails, and
// TestEveryFileHasAType says which). Built at the console's first
// request, not at the server's start.
var contentTypes = sync.OnceValue(func() map[string]string {
	return map[string]string{
		".html": "text/html; charset=utf-8",
		".css":  "text/css; charset=utf-8",
		".js":   "text/javascript; charset=utf-8",
		".json": "application/json",
		".svg":  "image/svg+xml",
	}
})

// file is one file the handler serves, with what its answer needs. Its
// body and validator are made by the first request for it (content), not
// at start-up: copying and hashing the whole console would cost every
// server start for a page most runs never open.
type file struct {
	name        string
	contentType string
	load        func() ([]byte, error) // makes the body

	once sync.Once
	body []byte
	etag string // a strong validator: the hash of body
}

// lazyFile is a file whose body load makes when first asked for.
func lazyFile(name string, load func() ([]byte, error)) *file {
	return &file{name: name, contentType: contentTypes()[path.Ext(name)], load: load}
}

// staticFile is the embedded file at src, read when first served.
func staticFile(name, src string) *file {
	return lazyFile(name, func() ([]byte, error) { return static.ReadFile(src) })
}

// content returns the file's body, making and hashing it on first use.
// Neither an embedded file loadFiles listed nor the page's configuration
// can fail to load: a failure is a broken binary, and panics.
func (f *file) content() []byte {
	f.once.Do(func() {
		body, err := f.load()
		if err != nil {
			panic("console: " + f.name + ": " + err.Error())
		}
		sum := sha256.Sum256(body)
		f.body, f.etag = body, `"`+base64.RawURLEncoding.EncodeToString(sum[:12])+`"`
	})
	return f.body
}

// loadFiles returns the embedded files by their path below static/, and
// index.html also under "" (the prefix itself). Directories are not
// entries: a path naming one is 404, never a listing.
func loadFiles() (map[string]*file, error) {
	files := map[string]*file{}
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := p[len("static/"):]
		if contentTypes()[path.Ext(rel)] == "" {
			return fmt.Errorf("console: embedded file %s has no content type (console/files.go contentTypes)", rel)
		}
		files[rel] = staticFile(rel, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	files[""] = files["index.html"]
	if files[""] == nil {
		return nil, fmt.Errorf("console: no embedded index.html")
	}
	return files, nil
}

// serve answers a GET or HEAD of f. The files have no version in their
// names (ES modules import each other by plain relative paths), so a
// browser revalidates every one each time (no-cache) and gets 304 Not
// Modified while its ETag still matches: a new server version is seen at
// once, an unchanged one costs no bytes.
func (f *file) serve(w http.ResponseWriter, r *http.Request) {
	body := f.content()
	h := w.Header()
	h.Set("Content-Type", f.contentType)
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", f.etag)
	http.ServeContent(w, r, f.name, time.Time{}, bytes.NewReader(body))
}
