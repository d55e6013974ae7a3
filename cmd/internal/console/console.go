package console

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// DefaultPrefix is where the console is served unless Options.Prefix
// says otherwise.
const DefaultPrefix = "/dynamoemu/console/"

// Options configure the console's handler. The zero value serves the
// console at DefaultPrefix.
type Options struct {
	// Prefix is the path the console is served under: it starts and ends
	// with "/" ("/dynamoemu/console/"). Empty means DefaultPrefix. The
	// prefix without its final slash redirects to the prefix.
	Prefix string
	// SharedDB tells the page that the server gives every access key and
	// region one database (-sharedDb), so it says so instead of offering
	// namespaces that would all show the same tables.
	SharedDB bool
	// Version is the server's version, shown in the page's footer; empty
	// shows none.
	Version string
	// APIPath is where the page sends DynamoDB API calls (POST with
	// X-Amz-Target). Empty means "/". It is the path of the same origin
	// as the console.
	APIPath string
	// AdminPath is the path under which the emulator serves its admin
	// endpoints (clock, ttl/sweep, conventions), with no final slash.
	// Empty means "/dynamoemu".
	AdminPath string
	// Signatures tells the page that the server verifies SigV4
	// signatures (-credentials): it asks for the secret access key of the
	// namespace's key and signs every call (api.js, sigv4.js).
	Signatures bool
}

// Validate reports whether the options are usable.
func (o Options) Validate() error {
	if o.Prefix != "" && (!strings.HasPrefix(o.Prefix, "/") || !strings.HasSuffix(o.Prefix, "/") || o.Prefix == "/") {
		return fmt.Errorf("console: prefix %q must start and end with \"/\" and not be \"/\"", o.Prefix)
	}
	if strings.ContainsAny(o.Prefix, "?#") || strings.Contains(o.Prefix, "//") || strings.Contains(o.Prefix, "/../") || strings.Contains(o.Prefix, "/./") {
		return fmt.Errorf("console: prefix %q is not a clean path", o.Prefix)
	}
	if o.APIPath != "" && !strings.HasPrefix(o.APIPath, "/") {
		return fmt.Errorf("console: API path %q must start with \"/\"", o.APIPath)
	}
	if o.AdminPath != "" && (!strings.HasPrefix(o.AdminPath, "/") || strings.HasSuffix(o.AdminPath, "/")) {
		return fmt.Errorf("console: admin path %q must start with \"/\" and not end with it", o.AdminPath)
	}
	return nil
}

// withDefaults returns o with its empty fields set to their defaults.
func (o Options) withDefaults() Options {
	if o.Prefix == "" {
		o.Prefix = DefaultPrefix
	}
	if o.APIPath == "" {
		o.APIPath = "/"
	}
	if o.AdminPath == "" {
		o.AdminPath = "/dynamoemu"
	}
	return o
}

// pageConfig is config.json: what the page needs to know of its server.
type pageConfig struct {
	Prefix     string `json:"prefix"`
	APIPath    string `json:"apiPath"`
	AdminPath  string `json:"adminPath"`
	SharedDB   bool   `json:"sharedDb"`
	Version    string `json:"version"`
	Signatures bool   `json:"signatures"`
}

// Handler returns the http.Handler of the console: the embedded files
// under opts.Prefix (GET and HEAD), the page's config.json, and a redirect
// from the prefix without its final slash. Anything else it is given is
// 404 (a path outside the prefix, a file that does not exist, a directory)
// or 405 (another method). Mount it at the prefix and at the prefix
// without its slash: mux.PathPrefix(strings.TrimSuffix(prefix, "/")).
func Handler(opts Options) (http.Handler, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	opts = opts.withDefaults()
	cfg := pageConfig{
		Prefix: opts.Prefix, APIPath: opts.APIPath, AdminPath: opts.AdminPath,
		SharedDB: opts.SharedDB, Version: opts.Version, Signatures: opts.Signatures,
	}
	// The table of files is built at the console's first request, not at
	// the server's start (walking the embedded directory was
	// about 0.2 ms of every start-up, for a page most runs never open).
	// Its errors are those of a broken build, which TestImportsResolve and
	// TestEveryFileServed catch.
	files := sync.OnceValues(func() (map[string]*file, error) {
		files, err := loadFiles()
		if err != nil {
			return nil, err
		}
		// Encoded when first asked for, as the files are read (files.go).
		files["config.json"] = lazyFile("config.json", func() ([]byte, error) { return json.Marshal(cfg) })
		return files, nil
	})
	return &handler{prefix: opts.Prefix, files: files}, nil
}

// handler serves the console. Its fields are set by Handler and read-only
// after, so it is safe for concurrent use.
type handler struct {
	prefix string
	// files is the table of files by path below the prefix ("" is
	// index.html), built once, at the first request that needs it.
	files func() (map[string]*file, error)
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	setSecurityHeaders(w)
	p := r.URL.Path
	if p == strings.TrimSuffix(h.prefix, "/") {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			methodNotAllowed(w)
			return
		}
		// Relative URLs in the page need the final slash.
		target := h.prefix
		if r.URL.RawQuery != "" {
			target += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, target, http.StatusMovedPermanently)
		return
	}
	files, err := h.files()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	rest, ok := strings.CutPrefix(p, h.prefix)
	f := files[rest]
	if !ok || f == nil {
		notFound(w)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		methodNotAllowed(w)
		return
	}
	f.serve(w, r)
}

// securityHeaders are set on every answer: the page loads nothing from
// elsewhere, runs no inline script and may not be framed (it can delete
// tables: no clickjacking), and no type is sniffed. Built at the first
// request, not at the server's start.
var securityHeaders = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
			"connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
		"X-Content-Type-Options": "nosniff",
		"X-Frame-Options":        "DENY",
		"Referrer-Policy":        "no-referrer",
	}
})

func setSecurityHeaders(w http.ResponseWriter) {
	h := w.Header()
	for k, v := range securityHeaders() {
		h.Set(k, v)
	}
}

func notFound(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	http.Error(w, "404 page not found", http.StatusNotFound)
}

func methodNotAllowed(w http.ResponseWriter) {
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
}
