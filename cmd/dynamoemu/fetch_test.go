package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// probeServer answers /ok 200 "fine", /bad 400, /slow never before the
// client gives up, and counts requests by path.
func probeServer(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok", "/shell/":
			w.Header().Set("X-Probe", r.Header.Get("X-Probe"))
			io.WriteString(w, "fine")
		default:
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, "bad")
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestCurl: the forms of compose health checks, with curl's exit statuses.
func TestCurl(t *testing.T) {
	url := probeServer(t)
	tests := []struct {
		args       []string
		want       int
		out, noErr string
	}{
		{[]string{"-f", url + "/ok"}, 0, "fine", ""},
		{[]string{"-fsS", url + "/ok"}, 0, "fine", ""},
		{[]string{"--fail", "--silent", "--show-error", url + "/ok"}, 0, "fine", ""},
		{[]string{"-f", url + "/bad"}, curlHTTP, "", ""},
		{[]string{url + "/bad"}, 0, "bad", ""},
		{[]string{"-s", "-o", "/dev/null", "-w", "%{http_code}", url + "/bad"}, 0, "400", ""},
		{[]string{"-sf", "-o/dev/null", url + "/ok"}, 0, "", ""},
		{[]string{"-f", "-m", "5", "-H", "X-Probe: 1", "-i", url + "/ok"}, 0, "X-Probe: 1", ""},
		{[]string{"-I", url + "/ok"}, 0, "200 OK", ""},
		{[]string{"-fsS", "http://127.0.0.1:1/"}, curlConnect, "", ""},
		{[]string{"--data", "x", url}, curlUsage, "", ""},
		{[]string{"-f"}, curlUsage, "", ""},
		{[]string{"-f", "https://127.0.0.1:1/"}, curlProto, "", ""},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		got := runFetchTool("curl", tt.args, &out, &errb)
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
		got := runFetchTool("wget", tt.args, &out, io.Discard)
		require.Equal(t, tt.want, got, "wget %v", tt.args)
		require.Equal(t, tt.out, out.String(), "wget %v", tt.args)
	}
	b, err := os.ReadFile(filepath.Join(dir, "got"))
	require.NoError(t, err)
	require.Equal(t, "fine", string(b))
}

// TestShell: "sh -c" health checks and their exit statuses.
func TestShell(t *testing.T) {
	url := probeServer(t)
	t.Setenv("PROBE_URL", url)
	t.Setenv("EMPTY", "")
	tests := []struct {
		cmd  string
		want int
		out  string
	}{
		{"curl -f $PROBE_URL/ok || exit 1", 0, "fine"},
		{"curl -f ${PROBE_URL}/bad || exit 1", 1, ""},
		{`curl -fsS "${PROBE_URL}/ok" > /dev/null 2>&1 || exit 1`, 0, ""},
		{"wget -q --spider ${PROBE_URL}/ok && echo up", 0, "up\n"},
		{"wget -q --spider ${PROBE_URL}/bad && echo up", wgetServer, ""},
		{"false || true; echo 'a b' \"c $EMPTY\"", 0, "a b c \n"},
		{"echo ${NOT_SET_ANYWHERE:-fallback}", 0, "fallback\n"},
		{"exit 3; echo never", 3, ""},
		{"true && exit 4", 4, ""},
		{"no-such-command-here", 127, ""},
		{"curl -f $PROBE_URL/ok | grep fine", shellCannotRun, ""},
		{"echo 'unterminated", shellCannotRun, ""},
		// testcontainers-go's wait.ForListeningPort probe from inside the
		// container (wait/host_port.go, v0.45.0): a subshell of pipes.
		{"true && (\n\t\t\t\t\tcat /proc/net/tcp* | awk '{print $2}' | grep -i :1f40 ||\n\t\t\t\t\tnc -vz -w 1 localhost 8000 ||\n\t\t\t\t\t/bin/sh -c '</dev/tcp/localhost/8000'\n\t\t\t\t)\n\t\t\t\t", shellCannotRun, ""},
		{"# a comment only", 0, ""},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		got := runFetchTool("sh", []string{"-c", tt.cmd}, &out, io.Discard)
		require.Equal(t, tt.want, got, "sh -c %q", tt.cmd)
		require.Equal(t, tt.out, out.String(), "sh -c %q", tt.cmd)
	}
	script := filepath.Join(t.TempDir(), "s.sh")
	out := filepath.Join(filepath.Dir(script), "out")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\n# probe\ncurl -fsS \\\n  $PROBE_URL/ok > "+out+"\necho more >> "+out+"\n"), 0o644))
	require.Equal(t, 0, runFetchTool("sh", []string{script}, io.Discard, io.Discard))
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, "finemore\n", string(b))
	require.Equal(t, 2, runFetchTool("sh", []string{"-e"}, io.Discard, io.Discard))
}

// TestHealthcheckSubcommand: "dynamoemu healthcheck" with a URL and
// without (ListTables).
func TestHealthcheckSubcommand(t *testing.T) {
	url := probeServer(t)
	require.NoError(t, run([]string{"healthcheck", url + "/ok"}, io.Discard, io.Discard, nil))
	err := run([]string{"healthcheck", url + "/bad"}, io.Discard, io.Discard, nil)
	require.ErrorIs(t, err, errUnhealthy)

	addr, _ := startServer(t)
	_, port, _ := strings.Cut(addr, ":")
	require.NoError(t, run([]string{"healthcheck", "-port", port}, io.Discard, io.Discard, nil))
	require.NoError(t, run([]string{"healthcheck", "http://localhost:" + port + "/"}, io.Discard, io.Discard, nil))
	require.ErrorIs(t, run([]string{"healthcheck", "-port", "1"}, io.Discard, io.Discard, nil), errUnhealthy)
}

// FuzzShellTokens: any line tokenizes or is refused, never a panic, and
// runs of plain words come back as they were.
func FuzzShellTokens(f *testing.F) {
	for _, s := range []string{"curl -f http://x/ || exit 1", `a "b c" 'd' \e ${X:-y} 2>&1 >/dev/null`, "a;b&&c", "$", "${", `"\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		toks, err := shellTokens(line, func(string) string { return "" })
		if err != nil {
			return
		}
		plain := !strings.ContainsAny(line, "'\"\\$#;&|<>()`")
		for _, r := range line {
			plain = plain && (r == ' ' || r > ' ' && r < 0x7f)
		}
		if plain {
			var words []string
			for _, tk := range toks {
				words = append(words, tk.text)
			}
			require.Equal(t, strings.Fields(line), words)
		}
	})
}
