package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// fakeServerEnv, in the test binary's environment, makes it stand for the
// server that java and dynamoemu-conventions start (as itself, not by a
// tool's name): it writes its arguments as JSON to the file the variable
// names and exits 0.
const fakeServerEnv = "DYNAMOEMU_TOOLS_TEST_FAKE_SERVER"

// TestMain: the test binary is also the tools' binary when started by a
// tool's name (a link in a test's bin directory), as the image runs it.
func TestMain(m *testing.M) {
	if _, ok := byName()[commandName(os.Args[0])]; ok {
		os.Exit(Main(os.Args, os.Stdout, os.Stderr))
	}
	if out := os.Getenv(fakeServerEnv); out != "" {
		b, _ := json.Marshal(os.Args[1:])
		if err := os.WriteFile(out, b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// linkTools makes a directory of links to the test binary named as the
// tools names and returns it.
func linkTools(t *testing.T, names ...string) string {
	t.Helper()
	self, err := os.Executable()
	require.NoError(t, err)
	bin := t.TempDir()
	for _, n := range names {
		require.NoError(t, os.Symlink(self, filepath.Join(bin, n)))
	}
	return bin
}

// probeServer answers /ok and /shell/ 200 "fine" (echoing X-Probe), /chunked
// in chunks, anything else 400 "bad".
func probeServer(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok", "/shell/":
			w.Header().Set("X-Probe", r.Header.Get("X-Probe"))
			io.WriteString(w, "fine")
		case "/chunked":
			w.(http.Flusher).Flush() // no Content-Length: the body is chunked
			io.WriteString(w, "in ")
			w.(http.Flusher).Flush()
			io.WriteString(w, "chunks")
		case "/agent":
			io.WriteString(w, r.UserAgent())
		default:
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, "bad")
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestMainNames: the tool is chosen by the name the binary is started by,
// or by the first argument of dynamoemu-tools.
func TestMainNames(t *testing.T) {
	url := probeServer(t)
	var out, errb bytes.Buffer
	require.Equal(t, 0, Main([]string{"/usr/bin/curl", "-fsS", url + "/ok"}, &out, &errb), errb.String())
	require.Equal(t, "fine", out.String())
	out.Reset()
	require.Equal(t, 0, Main([]string{"/dynamoemu-tools", "wget", "-qO-", url + "/ok"}, &out, &errb), errb.String())
	require.Equal(t, "fine", out.String())
	require.Equal(t, 2, Main([]string{"dynamoemu-tools"}, io.Discard, &errb))
	require.Contains(t, errb.String(), "awslocal, bash, curl, dynamoemu-conventions, java, sh, wget")
	require.Equal(t, 127, Main([]string{"dynamoemu-tools", "python3"}, io.Discard, io.Discard))
	require.Equal(t, 127, Main([]string{"/usr/bin/python3"}, io.Discard, io.Discard))
}
