package console

import (
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"strings"
	"testing"
)

func mustHandler(t *testing.T, opts Options) http.Handler {
	t.Helper()
	h, err := Handler(opts)
	if err != nil {
		t.Fatalf("Handler(%+v): %v", opts, err)
	}
	return h
}

func do(h http.Handler, method, target string, header http.Header) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		r.Header[k] = v
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestPaths(t *testing.T) {
	h := mustHandler(t, Options{})
	tests := []struct {
		name, method, target string
		status               int
		contentType          string // "" for error answers
		bodyHas              string
		location             string
	}{
		{"the page", "GET", "/dynamoemu/console/", 200, "text/html; charset=utf-8", "<title>dynamoemu console</title>", ""},
		{"index.html by name", "GET", "/dynamoemu/console/index.html", 200, "text/html; charset=utf-8", "<title>dynamoemu console</title>", ""},
		{"a query string", "GET", "/dynamoemu/console/?x=1", 200, "text/html; charset=utf-8", "<title>", ""},
		{"stylesheet", "GET", "/dynamoemu/console/app.css", 200, "text/css; charset=utf-8", "--accent", ""},
		{"module", "GET", "/dynamoemu/console/js/app.js", 200, "text/javascript; charset=utf-8", "import", ""},
		{"nested module", "GET", "/dynamoemu/console/js/views/query.js", 200, "text/javascript; charset=utf-8", "export async function queryTab", ""},
		{"icon", "GET", "/dynamoemu/console/icon.svg", 200, "image/svg+xml", "<svg", ""},
		{"config", "GET", "/dynamoemu/console/config.json", 200, "application/json", `"apiPath":"/"`, ""},
		{"HEAD", "HEAD", "/dynamoemu/console/js/app.js", 200, "text/javascript; charset=utf-8", "", ""},
		{"no final slash redirects", "GET", "/dynamoemu/console", 301, "", "", "/dynamoemu/console/"},
		{"redirect keeps the query", "GET", "/dynamoemu/console?a=b", 301, "", "", "/dynamoemu/console/?a=b"},
		{"a directory is no listing", "GET", "/dynamoemu/console/js/", 404, "", "404 page not found", ""},
		{"a directory without slash", "GET", "/dynamoemu/console/js", 404, "", "404 page not found", ""},
		{"a nested directory", "GET", "/dynamoemu/console/js/views/", 404, "", "404 page not found", ""},
		{"the embed root is not a path", "GET", "/dynamoemu/console/static/index.html", 404, "", "", ""},
		{"no such file", "GET", "/dynamoemu/console/nope.js", 404, "", "", ""},
		{"dot-dot", "GET", "/dynamoemu/console/../console/index.html", 404, "", "", ""},
		{"encoded dot-dot", "GET", "/dynamoemu/console/js/%2e%2e/index.html", 404, "", "", ""},
		{"outside the prefix", "GET", "/dynamoemu/clock", 404, "", "", ""},
		{"the root", "GET", "/", 404, "", "", ""},
		{"a prefix of the prefix", "GET", "/dynamoemu/consol", 404, "", "", ""},
		{"POST a file", "POST", "/dynamoemu/console/js/app.js", 405, "", "", ""},
		{"DELETE the page", "DELETE", "/dynamoemu/console/", 405, "", "", ""},
		{"POST the bare prefix", "POST", "/dynamoemu/console", 405, "", "", ""},
		{"POST a missing file", "POST", "/dynamoemu/console/nope", 404, "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := do(h, tc.method, tc.target, nil)
			if w.Code != tc.status {
				t.Fatalf("%s %s: got status %d, want %d (body %q)", tc.method, tc.target, w.Code, tc.status, w.Body.String())
			}
			if tc.contentType != "" {
				if got := w.Header().Get("Content-Type"); got != tc.contentType {
					t.Errorf("got Content-Type %q, want %q", got, tc.contentType)
				}
			}
			if tc.bodyHas != "" && !strings.Contains(w.Body.String(), tc.bodyHas) {
				t.Errorf("got body %.200q, want it to contain %q", w.Body.String(), tc.bodyHas)
			}
			if tc.location != "" {
				if got := w.Header().Get("Location"); got != tc.location {
					t.Errorf("got Location %q, want %q", got, tc.location)
				}
			}
			if tc.status == 405 {
				if got := w.Header().Get("Allow"); got != "GET, HEAD" {
					t.Errorf("got Allow %q, want %q", got, "GET, HEAD")
				}
			}
			if tc.method == "HEAD" && w.Body.Len() != 0 {
				t.Errorf("HEAD: got a body of %d bytes, want none", w.Body.Len())
			}
			for k, want := range securityHeaders() {
				if got := w.Header().Get(k); got != want {
					t.Errorf("got %s %q, want %q", k, got, want)
				}
			}
		})
	}
}

func TestCaching(t *testing.T) {
	h := mustHandler(t, Options{})
	for _, p := range []string{"/dynamoemu/console/", "/dynamoemu/console/js/api.js", "/dynamoemu/console/config.json"} {
		w := do(h, "GET", p, nil)
		if got := w.Header().Get("Cache-Control"); got != "no-cache" {
			t.Errorf("GET %s: got Cache-Control %q, want no-cache (revalidate: file names carry no version)", p, got)
		}
		etag := w.Header().Get("ETag")
		if !regexp.MustCompile(`^"[A-Za-z0-9_-]{16}"$`).MatchString(etag) {
			t.Fatalf("GET %s: got ETag %q, want a quoted strong validator", p, etag)
		}
		again := do(h, "GET", p, http.Header{"If-None-Match": {etag}})
		if again.Code != http.StatusNotModified || again.Body.Len() != 0 {
			t.Errorf("GET %s If-None-Match %s: got %d with %d bytes, want 304 and none", p, etag, again.Code, again.Body.Len())
		}
		stale := do(h, "GET", p, http.Header{"If-None-Match": {`"old"`}})
		if stale.Code != http.StatusOK {
			t.Errorf("GET %s with a stale ETag: got %d, want 200", p, stale.Code)
		}
	}
	if w := do(h, "GET", "/dynamoemu/console/nope", nil); w.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("404: got Cache-Control %q, want no-store", w.Header().Get("Cache-Control"))
	}
	a := do(h, "GET", "/dynamoemu/console/js/api.js", nil).Header().Get("ETag")
	b := do(h, "GET", "/dynamoemu/console/js/ui.js", nil).Header().Get("ETag")
	if a == b {
		t.Errorf("two files have one ETag %s", a)
	}
}

// TestEveryFileServed: each embedded file is served at its path with its type.
func TestEveryFileServed(t *testing.T) {
	h := mustHandler(t, Options{})
	n := 0
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		rel := strings.TrimPrefix(p, "static/")
		want := contentTypes()[path.Ext(rel)]
		if want == "" {
			t.Errorf("%s: no content type for %q in contentTypes", rel, path.Ext(rel))
			return nil
		}
		w := do(h, "GET", DefaultPrefix+rel, nil)
		body, _ := static.ReadFile(p)
		if w.Code != 200 || w.Header().Get("Content-Type") != want || w.Body.String() != string(body) {
			t.Errorf("GET %s: got %d %q (%d bytes), want 200 %q (%d bytes)", rel, w.Code, w.Header().Get("Content-Type"), w.Body.Len(), want, len(body))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Errorf("got %d embedded files, want the whole console", n)
	}
}

// TestImportsResolve: every module a module imports, and every file the
// page names, is embedded (a typo would otherwise show only in a browser).
func TestImportsResolve(t *testing.T) {
	imports := regexp.MustCompile(`(?m)^(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"`)
	refs := regexp.MustCompile(`(?:src|href)="([^"#:]+)"`)
	files, err := loadFiles()
	if err != nil {
		t.Fatal(err)
	}
	for name, f := range files {
		var re *regexp.Regexp
		switch path.Ext(name) {
		case ".js":
			re = imports
		case ".html":
			re = refs
		default:
			continue
		}
		for _, m := range re.FindAllStringSubmatch(string(f.content()), -1) {
			target := path.Join(path.Dir(name), m[1])
			if files[target] == nil {
				t.Errorf("%s refers to %s (%s), which is not embedded", name, m[1], target)
			}
		}
	}
}

// maxEmbeddedBytes bounds the console's size: it ships inside every
// binary. It was 256 KB until the branches and stream handlers screens,
// the attribute form and CSV took the console to 270 KB (November 2026).
const maxEmbeddedBytes = 320 << 10

func TestSize(t *testing.T) {
	files, err := loadFiles()
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for name, f := range files {
		if name != "" {
			total += len(f.content())
		}
	}
	t.Logf("embedded console: %d files, %d bytes", len(files)-1, total)
	if total > maxEmbeddedBytes {
		t.Errorf("the embedded console is %d bytes, over the budget of %d: keep it small", total, maxEmbeddedBytes)
	}
}

func TestConfig(t *testing.T) {
	h := mustHandler(t, Options{Prefix: "/admin/ui/", SharedDB: true, Version: "v1.2.3", APIPath: "/api", AdminPath: "/x/admin"})
	w := do(h, "GET", "/admin/ui/config.json", nil)
	var got pageConfig
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatalf("config.json %q: %v", w.Body.String(), err)
	}
	want := pageConfig{Prefix: "/admin/ui/", APIPath: "/api", AdminPath: "/x/admin", SharedDB: true, Version: "v1.2.3"}
	if got != want {
		t.Errorf("got config %+v, want %+v", got, want)
	}
	if w := do(h, "GET", "/admin/ui/", nil); w.Code != 200 {
		t.Errorf("GET /admin/ui/: got %d, want 200", w.Code)
	}
	if w := do(h, "GET", "/dynamoemu/console/", nil); w.Code != 404 {
		t.Errorf("GET the default prefix under another: got %d, want 404", w.Code)
	}
	if w := do(h, "GET", "/admin/ui", nil); w.Code != 301 || w.Header().Get("Location") != "/admin/ui/" {
		t.Errorf("GET /admin/ui: got %d to %q, want 301 to /admin/ui/", w.Code, w.Header().Get("Location"))
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		opts Options
		ok   bool
	}{
		{Options{}, true},
		{Options{Prefix: "/c/"}, true},
		{Options{Prefix: "/a/b/"}, true},
		{Options{Prefix: "/"}, false},
		{Options{Prefix: "c/"}, false},
		{Options{Prefix: "/c"}, false},
		{Options{Prefix: "/a//b/"}, false},
		{Options{Prefix: "/a/../b/"}, false},
		{Options{Prefix: "/a?b/"}, false},
		{Options{APIPath: "api"}, false},
		{Options{AdminPath: "/dynamoemu/"}, false},
		{Options{AdminPath: "dynamoemu"}, false},
	}
	for _, tc := range tests {
		err := tc.opts.Validate()
		if (err == nil) != tc.ok {
			t.Errorf("Validate(%+v) = %v, want ok %v", tc.opts, err, tc.ok)
		}
		if _, herr := Handler(tc.opts); (herr == nil) != tc.ok {
			t.Errorf("Handler(%+v) error %v, want ok %v", tc.opts, herr, tc.ok)
		}
	}
}
