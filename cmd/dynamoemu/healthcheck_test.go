package main

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
)

func TestHealthcheckURL(t *testing.T) {
	tests := []struct {
		host string
		port int
		want string
	}{
		{"127.0.0.1", 8000, "http://127.0.0.1:8000/"},
		{"0.0.0.0", 8000, "http://127.0.0.1:8000/"},
		{"", 9000, "http://127.0.0.1:9000/"},
		{"::", 8000, "http://127.0.0.1:8000/"},
		{"[::]", 8000, "http://127.0.0.1:8000/"},
		{"localhost", 8000, "http://127.0.0.1:8000/"},
		{"::1", 8000, "http://[::1]:8000/"},
		{"[::1]", 8000, "http://[::1]:8000/"},
		{"10.1.2.3", 8001, "http://10.1.2.3:8001/"},
	}
	for _, tt := range tests {
		if got := healthcheckURL(config{host: tt.host, port: tt.port}); got != tt.want {
			t.Errorf("host %q port %d: got %s, want %s", tt.host, tt.port, got, tt.want)
		}
	}
}

// configFor is the -host and -port of a server listening at url.
func configFor(t *testing.T, url string) config {
	t.Helper()
	addr := url[len("http://"):]
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		t.Fatal(err)
	}
	return config{host: host, port: p}
}

func TestHealthcheck(t *testing.T) {
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	healthy := httptest.NewServer(emu.Handler())
	defer healthy.Close()
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusInternalServerError)
	}))
	defer failing.Close()
	notDynamo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"ok":true}`)
	}))
	defer notDynamo.Close()
	// A port nothing listens on: one that was just free.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()

	tests := []struct {
		name    string
		url     string
		healthy bool
	}{
		{"emulator", healthy.URL, true},
		{"server error", failing.URL, false},
		{"not DynamoDB", notDynamo.URL, false},
		{"nothing listening", closed, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := healthcheck(configFor(t, tt.url))
			if got := err == nil; got != tt.healthy {
				t.Fatalf("got healthy %v (%v), want %v", got, err, tt.healthy)
			}
			if err != nil && !errors.Is(err, errUnhealthy) {
				t.Fatalf("got %v, want errUnhealthy", err)
			}
		})
	}
}

// TestRunHealthcheck: -healthcheck with the server's flags probes instead of
// serving.
func TestRunHealthcheck(t *testing.T) {
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu.Handler())
	c := configFor(t, srv.URL)
	args := []string{"-healthcheck", "-host", c.host, "-port", strconv.Itoa(c.port)}
	if err := run(args, io.Discard, io.Discard, nil); err != nil {
		t.Fatalf("server up: got %v, want nil", err)
	}
	srv.Close()
	if err := run(args, io.Discard, io.Discard, nil); !errors.Is(err, errUnhealthy) {
		t.Fatalf("server down: got %v, want errUnhealthy", err)
	}
}

// TestHealthcheckSubcommand: "dynamoemu healthcheck" with a URL (healthy
// below 400) and without (ListTables).
func TestHealthcheckSubcommand(t *testing.T) {
	probe := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ok" {
			w.WriteHeader(http.StatusBadRequest)
		}
	}))
	t.Cleanup(probe.Close)
	require.NoError(t, run([]string{"healthcheck", probe.URL + "/ok"}, io.Discard, io.Discard, nil))
	require.ErrorIs(t, run([]string{"healthcheck", probe.URL + "/bad"}, io.Discard, io.Discard, nil), errUnhealthy)
	require.ErrorIs(t, run([]string{"healthcheck", "https://127.0.0.1:1/"}, io.Discard, io.Discard, nil), errUnhealthy)

	addr, _ := startServer(t)
	_, port, _ := strings.Cut(addr, ":")
	require.NoError(t, run([]string{"healthcheck", "-port", port}, io.Discard, io.Discard, nil))
	require.NoError(t, run([]string{"healthcheck", "http://localhost:" + port + "/"}, io.Discard, io.Discard, nil))
	require.NoError(t, run([]string{"-host", "0.0.0.0", "healthcheck", "-port", port}, io.Discard, io.Discard, nil), "after the image's entrypoint flags")
	require.ErrorIs(t, run([]string{"healthcheck", "-port", "1"}, io.Discard, io.Discard, nil), errUnhealthy)

	// DynamoDB Local's /shell/, which the server's own mode does not serve
	// (404): the check asks the same address for ListTables instead.
	res, err := http.Get("http://" + addr + "/shell/")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusNotFound, res.StatusCode, "the server's own mode has no /shell/")
	require.NoError(t, run([]string{"healthcheck", "http://localhost:" + port + "/shell/"}, io.Discard, io.Discard, nil))
	require.NoError(t, run([]string{"healthcheck", "localhost:" + port + "/shell"}, io.Discard, io.Discard, nil))
	// A server that is not DynamoDB and has no /shell/: unhealthy, and the
	// error says what /shell/ is and what was asked.
	none := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(none.Close)
	err = run([]string{"healthcheck", none.URL + "/shell/"}, io.Discard, io.Discard, nil)
	require.ErrorIs(t, err, errUnhealthy)
	require.ErrorContains(t, err, "/shell/ is DynamoDB Local's page")
	require.ErrorContains(t, err, "ListTables")
}
