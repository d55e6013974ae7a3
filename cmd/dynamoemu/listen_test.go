package main

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"testing"
)

func ipv6Loopback(t *testing.T) {
	t.Helper()
	ln, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		t.Skip("no IPv6 loopback:", err)
	}
	ln.Close()
}

// TestListenBothLoopbacks: by default both 127.0.0.1 and ::1 listen on one
// port; with -host only that address does.
func TestListenBothLoopbacks(t *testing.T) {
	ipv6Loopback(t)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	lns, err := listen("127.0.0.1", 0, true, log)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	if len(lns) != 2 {
		t.Fatalf("got %d listeners, want 2", len(lns))
	}
	port := lns[0].Addr().(*net.TCPAddr).Port
	if got := lns[1].Addr().String(); got != "[::1]:"+strconv.Itoa(port) {
		t.Errorf("second listener on %s, want [::1]:%d", got, port)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})}
	for _, ln := range lns {
		go func() { _ = srv.Serve(ln) }()
	}
	defer srv.Close()
	for _, host := range []string{"127.0.0.1", "[::1]"} {
		res, err := http.Get("http://" + host + ":" + strconv.Itoa(port) + "/")
		if err != nil {
			t.Errorf("%s: %v", host, err)
			continue
		}
		res.Body.Close()
	}

	one, err := listen("127.0.0.1", 0, false, log)
	if err != nil {
		t.Fatal(err)
	}
	defer one[0].Close()
	if len(one) != 1 {
		t.Errorf("with -host: got %d listeners, want 1", len(one))
	}
}

func TestHostSet(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"-host", "127.0.0.1"}, true},
		{[]string{"-port", "1"}, false},
	} {
		c, err := parseFlags(tt.args, io.Discard)
		if err != nil || c.hostSet != tt.want {
			t.Errorf("%q: got hostSet %v (%v), want %v", tt.args, c.hostSet, err, tt.want)
		}
	}
}
