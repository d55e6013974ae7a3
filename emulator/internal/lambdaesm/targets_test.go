package lambdaesm

import (
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzTargets: whatever a mapping's Endpoint or destination is, the
// check answers without panicking, an http(s) URL it lets through
// without Remote is one whose request goes to a loopback host (as
// net/http parses it), and a file:// destination it lets through names
// a path inside the directory.
func FuzzTargets(f *testing.F) {
	for _, s := range []string{"http://127.0.0.1:3002", "http://localhost", "http://[::1]:9/x", "https://a.localhost/",
		"http://127.0.0.1@evil.example", "http://evil.example#@127.0.0.1", "http://evil.example\\@127.0.0.1", "http://0.0.0.0",
		"file:///srv/fail/a.jsonl", "file:///srv/fail/../etc/x", "file:///srv/fail", "file://rel", "file:///srv/failx/a",
		"http://[::ffff:127.0.0.1]", "http://127.1", "HTTP://LOCALHOST", "http://%6cocalhost"} {
		f.Add(s)
	}
	dir := filepath.FromSlash("/srv/fail")
	t := Targets{FileDir: dir}
	f.Fuzz(func(tt *testing.T, s string) {
		if strings.HasPrefix(s, "file://") {
			rel, err := t.fileOf(s)
			if err == nil {
				require.True(tt, filepath.IsLocal(rel), "%q: %q", s, rel)
				p := filepath.Clean(strings.TrimPrefix(s, "file://"))
				require.True(tt, strings.HasPrefix(p, dir+string(filepath.Separator)), "%q is outside %s", s, dir)
			}
			return
		}
		if t.checkURL(s, "Endpoint") != nil {
			return
		}
		u, err := url.Parse(s + "/2015-03-31/functions/f/invocations") // as invokeHTTP calls it
		require.NoError(tt, err, s)
		h := u.Hostname()
		ip := net.ParseIP(h)
		require.True(tt, h == "localhost" || strings.HasSuffix(strings.ToLower(h), ".localhost") || strings.EqualFold(h, "localhost") ||
			ip != nil && ip.IsLoopback(), "%q reaches %q", s, h)
	})
}

// TestLoopbackHosts: the names and addresses taken for loopback.
func TestLoopbackHosts(t *testing.T) {
	for _, h := range []string{"localhost", "LOCALHOST", "fn.localhost", "127.0.0.1", "127.255.0.9", "::1"} {
		require.True(t, isLoopbackHost(h), h)
	}
	for _, h := range []string{"", "0.0.0.0", "::", "10.0.0.1", "localhost.example", "localhostx", "169.254.169.254", "example.com"} {
		require.False(t, isLoopbackHost(h), h)
	}
}
