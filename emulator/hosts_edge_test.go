package emulator

import (
	"context"
	"mime"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/httpedge"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// TestNewRefusesAllowHostWithPort: New checks Options.AllowHosts with
// httpedge.ValidateAllowHost.
func TestNewRefusesAllowHostWithPort(t *testing.T) {
	if _, err := New(Options{AllowHosts: []string{"dynamodb:8000"}}); err == nil || !strings.Contains(err.Error(), "port") {
		t.Errorf("New with a port in AllowHosts: got %v, want an error about the port", err)
	}
}

// TestHostCheckedOnlyOverNetwork: the handler checks the Host of requests
// that came through a net/http server (they carry their connection's local
// address), by that address; in-process requests are not checked.
func TestHostCheckedOnlyOverNetwork(t *testing.T) {
	e := newTestEmulator(t, Options{})
	tests := []struct {
		name   string
		local  net.Addr
		host   string
		status int
	}{
		{"in-process", nil, "attacker.example", 200},
		{"loopback", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8000}, "attacker.example:8000", 403},
		{"loopback, service name", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8000}, "dynamodb:8000", 403},
		{"container, service name", &net.TCPAddr{IP: net.IPv4(172, 17, 0, 2), Port: 8000}, "dynamodb:8000", 200},
		{"container, public name", &net.TCPAddr{IP: net.IPv4(172, 17, 0, 2), Port: 8000}, "attacker.example:8000", 403},
		{"ipv4-mapped loopback", &net.TCPAddr{IP: net.ParseIP("::ffff:127.0.0.1"), Port: 8000}, "dynamodb", 403},
		{"unix socket", &net.UnixAddr{Name: "/tmp/s", Net: "unix"}, "dynamodb", 403},
	}
	for _, tt := range tests {
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{}`))
		if tt.local != nil {
			req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, tt.local))
		}
		req.Host = tt.host
		req.Header.Set("X-Amz-Target", echo)
		req.Header.Set("Authorization", testkit.DefaultAuth)
		rec := httptest.NewRecorder()
		e.Handler().ServeHTTP(rec, req)
		if rec.Code != tt.status {
			t.Errorf("%s: got %d %s, want %d", tt.name, rec.Code, rec.Body, tt.status)
		}
	}
}

// whatwgEssence is the essence of a MIME type as a browser parses a
// Content-Type value (the WHATWG MIME Sniffing "parse a MIME type"), or ""
// when the browser finds none. The browser's CORS safelist decides on it.
func whatwgEssence(v string) string {
	v = strings.Trim(v, " \t\r\n")
	typ, rest, ok := strings.Cut(v, "/")
	if !ok || typ == "" || !isToken(typ) {
		return ""
	}
	sub, _, _ := strings.Cut(rest, ";")
	sub = strings.TrimRight(sub, " \t\r\n")
	if sub == "" || !isToken(sub) {
		return ""
	}
	return strings.ToLower(typ + "/" + sub)
}

func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// FuzzAdminContentType: a Content-Type the admin endpoints accept is one a
// browser parses as application/json, so never one of the three it sends
// cross-site without a preflight.
func FuzzAdminContentType(f *testing.F) {
	for _, s := range []string{"application/json", "application/json; charset=utf-8", "text/plain", "text/plain; application/json",
		"application/json, text/plain", " application/json ", "APPLICATION/JSON", "application/json;", "multipart/form-data; boundary=x",
		"application/x-www-form-urlencoded", "text/plain;a=\"application/json\""} {
		f.Add(s)
	}
	safelisted := map[string]bool{"text/plain": true, "multipart/form-data": true, "application/x-www-form-urlencoded": true}
	f.Fuzz(func(t *testing.T, v string) {
		if !httpedge.IsJSONContentType([]string{v}) {
			return
		}
		if mt, _, _ := mime.ParseMediaType(v); mt != "application/json" {
			t.Fatalf("%q accepted as %q", v, mt)
		}
		if e := whatwgEssence(v); safelisted[e] || e != "application/json" {
			t.Fatalf("%q accepted, but a browser reads it as %q", v, e)
		}
	})
}

// FuzzAdminGuard: whatever the Origin and Content-Type, the guard answers
// without panicking, refuses every origin that is not loopback, the
// request's own (http://example.com, httptest's Host) or listed by -cors,
// and lets a POST through only with a JSON content type.
func FuzzAdminGuard(f *testing.F) {
	f.Add("http://evil.example", "text/plain", "POST")
	f.Add("", "application/json", "POST")
	f.Add("http://app.test", "application/json", "POST")
	f.Add("null", "", "GET")
	f.Add("http://localhost:3000", "application/json", "DELETE")
	f.Add("http://example.com", "application/json", "POST")
	f.Add("http://example.com.evil.example", "application/json", "POST")
	e := newTestEmulator(f, Options{CORSOrigins: []string{"http://app.test"}})
	f.Fuzz(func(t *testing.T, origin, ct, method string) {
		req := httptest.NewRequest(http.MethodGet, adminpath.Clock, nil)
		req.Method = method
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		err := httpedge.AdminGuard(&e.cors, req)
		allowed := origin == "http://app.test" || strings.EqualFold(origin, "http://example.com") || httpedge.IsLoopbackOrigin(origin)
		if origin != "" && !allowed && err == nil {
			t.Fatalf("origin %q allowed", origin)
		}
		safe := method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions
		if err == nil && !safe && !httpedge.IsJSONContentType(req.Header.Values("Content-Type")) {
			t.Fatalf("%s with Content-Type %q allowed", method, ct)
		}
	})
}

// BenchmarkHostAllowed is the edge's Host check of one API request over
// HTTP, for the Hosts SDKs send.
func BenchmarkHostAllowed(b *testing.B) {
	e := newTestEmulator(b, Options{AllowHosts: []string{"dynamodb.ci.example"}})
	for _, host := range []string{"localhost:8000", "127.0.0.1:8000", "[::1]:8000", "dynamodb.ci.example:8000"} {
		b.Run(host, func(b *testing.B) {
			req := httptest.NewRequest(http.MethodPost, "/", nil)
			req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8000}))
			req.Host = host
			b.ReportAllocs()
			for b.Loop() {
				if !e.hostAllowed(req) {
					b.Fatal("refused")
				}
			}
		})
	}
}
