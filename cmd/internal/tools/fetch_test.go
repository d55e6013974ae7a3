package tools

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCurl: the forms of compose health checks, with curl's exit statuses.
func TestCurl(t *testing.T) {
	url := probeServer(t)
	tests := []struct {
		args []string
		want int
		out  string
	}{
		{[]string{"-f", url + "/ok"}, 0, "fine"},
		{[]string{"-fsS", url + "/ok"}, 0, "fine"},
		{[]string{"--fail", "--silent", "--show-error", url + "/ok"}, 0, "fine"},
		{[]string{"-f", url + "/bad"}, curlHTTP, ""},
		{[]string{url + "/bad"}, 0, "bad"},
		{[]string{"-s", "-o", "/dev/null", "-w", "%{http_code}", url + "/bad"}, 0, "400"},
		{[]string{"-sf", "-o/dev/null", url + "/ok"}, 0, ""},
		{[]string{"-f", "-m", "5", "-H", "X-Probe: 1", "-i", url + "/ok"}, 0, "X-Probe: 1\r\n"},
		{[]string{"-i", url + "/ok"}, 0, "HTTP/1.1 200 OK\r\n"},
		{[]string{"-I", url + "/ok"}, 0, "200 OK"},
		{[]string{"-s", url + "/chunked"}, 0, "in chunks"},
		{[]string{"-A", "probe/1", url + "/agent"}, 0, "probe/1"},
		{[]string{url + "/agent"}, 0, "dynamoemu-tools"},
		{[]string{strings.TrimPrefix(url, "http://") + "/ok"}, 0, "fine"},
		{[]string{"-fsS", "http://127.0.0.1:1/"}, curlConnect, ""},
		{[]string{"--data", "x", url}, curlUsage, ""},
		{[]string{"-f"}, curlUsage, ""},
		{[]string{"-f", "https://127.0.0.1:1/"}, curlProto, ""},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		got := runCurl(tt.args, &out, &errb)
		require.Equal(t, tt.want, got, "curl %v: %s", tt.args, errb.String())
		require.Contains(t, out.String(), tt.out, "curl %v", tt.args)
	}
	var errb bytes.Buffer
	require.Equal(t, curlHTTP, runCurl([]string{"-s", "-f", url + "/bad"}, io.Discard, &errb))
	require.Empty(t, errb.String(), "-s without -S is silent")
	require.Equal(t, curlHTTP, runCurl([]string{"-sS", "-f", url + "/bad"}, io.Discard, &errb))
	require.Contains(t, errb.String(), "returned error: 400")
}

// TestWget: the forms of compose health checks, with wget's exit statuses.
func TestWget(t *testing.T) {
	url := probeServer(t)
	dir := t.TempDir()
	tests := []struct {
		args []string
		want int
		out  string
	}{
		{[]string{"-q", "--spider", url + "/ok"}, 0, ""},
		{[]string{"--spider", "-q", url + "/bad"}, wgetServer, ""},
		{[]string{"-qO-", url + "/ok"}, 0, "fine"},
		{[]string{"-q", "-O", "-", url + "/ok"}, 0, "fine"},
		{[]string{"--quiet", "--output-document=-", "--tries=2", "--timeout=3", url + "/ok"}, 0, "fine"},
		{[]string{"-qO-", url + "/bad"}, wgetServer, ""},
		{[]string{"-q", "--spider", "http://127.0.0.1:1/"}, wgetNetwork, ""},
		{[]string{"-q", "-O", filepath.Join(dir, "got"), url + "/ok"}, 0, ""},
		{[]string{"--post-data=x", url}, wgetUsage, ""},
		{[]string{"-q"}, wgetUsage, ""},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		got := runWget(tt.args, &out, io.Discard)
		require.Equal(t, tt.want, got, "wget %v", tt.args)
		require.Equal(t, tt.out, out.String(), "wget %v", tt.args)
	}
	b, err := os.ReadFile(filepath.Join(dir, "got"))
	require.NoError(t, err)
	require.Equal(t, "fine", string(b))

	t.Chdir(dir) // without -O: the URL's last segment names the file
	require.Equal(t, 0, runWget([]string{"-q", url + "/shell/"}, io.Discard, io.Discard))
	require.Equal(t, 0, runWget([]string{"-q", url + "/ok?x=1"}, io.Discard, io.Discard))
	for name, want := range map[string]string{"index.html": "fine", "ok": "fine"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err, name)
		require.Equal(t, want, string(b), name)
	}
}

// TestReadResponse: the answers the client reads (a length, chunks, the
// connection's end, a HEAD's) and those it refuses.
func TestReadResponse(t *testing.T) {
	read := func(s string, head bool) (response, error) {
		return readResponse(bufio.NewReader(strings.NewReader(s)), head)
	}
	res, err := read("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: b\r\n\r\nhelloXX", false)
	require.NoError(t, err)
	require.Equal(t, response{proto: "HTTP/1.1", status: 200, reason: "OK", header: []string{"Content-Length: 5", "X-A: b"}, body: []byte("hello")}, res)
	res, err = read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: t\r\n\r\n", false)
	require.NoError(t, err)
	require.Equal(t, "abcde", string(res.body))
	res, err = read("HTTP/1.0 404 Not Found\n\nto the end", false)
	require.NoError(t, err)
	require.Equal(t, 404, res.status)
	require.Equal(t, "to the end", string(res.body))
	res, err = read("HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n", true)
	require.NoError(t, err)
	require.Empty(t, res.body, "a HEAD's answer has no body")
	res, err = read("HTTP/1.1 204 No Content\r\n\r\n", false)
	require.NoError(t, err)
	require.Empty(t, res.body)
	for _, bad := range []string{
		"", "SSH-2.0-x\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort", "HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "HTTP/1.1 200 OK\r\nX: " + strings.Repeat("a", 5000) + "\r\n\r\n",
	} {
		_, err := read(bad, false)
		require.Error(t, err, "%.60q", bad)
	}
}

// TestParseTarget: the URLs the tools fetch and those they refuse.
func TestParseTarget(t *testing.T) {
	tests := []struct {
		url  string
		want target
	}{
		{"http://localhost:8000/shell/", target{"localhost:8000", "127.0.0.1:8000", "/shell/"}},
		{"localhost:4566/_localstack/health", target{"localhost:4566", "127.0.0.1:4566", "/_localstack/health"}},
		{"HTTP://dynamodb", target{"dynamodb", "dynamodb:80", "/"}},
		{"http://[::1]:8000?x=1#frag", target{"[::1]:8000", "[::1]:8000", "/?x=1"}},
		{"http://[::1]/", target{"[::1]", "[::1]:80", "/"}},
	}
	for _, tt := range tests {
		got, err := parseTarget(tt.url)
		require.NoError(t, err, tt.url)
		require.Equal(t, tt.want, got, tt.url)
	}
	for _, bad := range []string{"https://x/", "ftp://x", "http://", "http://u:p@x/", "http://x:99999/", "http://x/a b", "http://:80/"} {
		_, err := parseTarget(bad)
		require.Error(t, err, bad)
	}
}

// FuzzReadResponse: any bytes read as an answer give one or an error,
// never a panic, and never a body over the bound.
func FuzzReadResponse(f *testing.F) {
	for _, s := range []string{"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n\r\n",
		"HTTP/1.0 500 x\n\nbody", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, head bool) {
		res, err := readResponse(bufio.NewReader(strings.NewReader(s)), head)
		if err == nil {
			require.LessOrEqual(t, len(res.body), maxBodyBytes)
			require.True(t, strings.HasPrefix(res.proto, "HTTP/"))
		}
	})
}

// FuzzParseTarget: any URL is split or refused, never a panic; what is
// split dials a host and port and asks for a path.
func FuzzParseTarget(f *testing.F) {
	for _, s := range []string{"http://localhost:8000/shell/", "[::1]:1?x", "http://a@b", "x:y:z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tg, err := parseTarget(s)
		if err == nil {
			require.True(t, strings.HasPrefix(tg.path, "/"), "%q", tg.path)
			require.NotEmpty(t, tg.dial)
		}
	})
}
