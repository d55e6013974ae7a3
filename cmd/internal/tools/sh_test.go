package tools

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

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
		{"/usr/bin/curl -fsS $PROBE_URL/shell/", 0, "fine"},
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
		got := runShell([]string{"-c", tt.cmd}, &out, io.Discard)
		require.Equal(t, tt.want, got, "sh -c %q", tt.cmd)
		require.Equal(t, tt.out, out.String(), "sh -c %q", tt.cmd)
	}
	script := filepath.Join(t.TempDir(), "s.sh")
	out := filepath.Join(filepath.Dir(script), "out")
	require.NoError(t, os.WriteFile(script, []byte("#!/bin/sh\n# probe\ncurl -fsS \\\n  $PROBE_URL/ok > "+out+"\necho more >> "+out+"\n"), 0o644))
	require.Equal(t, 0, runShell([]string{script}, io.Discard, io.Discard))
	b, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Equal(t, "finemore\n", string(b))
	require.Equal(t, 2, runShell([]string{"-e"}, io.Discard, io.Discard))
}

// TestShellRunsPrograms: a command not built in runs from PATH with the
// script's redirections, and its exit status is the line's: a tool of
// this binary (a link named awslocal, as in the image) as well as any
// program.
func TestShellRunsPrograms(t *testing.T) {
	bin := linkTools(t, "sh", "bash")
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	var out bytes.Buffer
	require.Equal(t, 7, runShell([]string{"-c", "bash -c 'echo nested; exit 7'"}, &out, io.Discard))
	require.Equal(t, "nested\n", out.String())
	dir := t.TempDir()
	require.Equal(t, 0, runShell([]string{"-c", "sh -c 'echo to-file' > " + filepath.Join(dir, "f") + " 2>&1"}, io.Discard, io.Discard))
	b, err := os.ReadFile(filepath.Join(dir, "f"))
	require.NoError(t, err)
	require.Equal(t, "to-file\n", string(b))
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
