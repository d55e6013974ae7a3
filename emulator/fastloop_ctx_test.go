package emulator

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestLoopDelayEndsWhenClientLeaves: a request held by an injected delay
// ends when its client closes the connection, on the loop as on net/http
// (whose request context is cancelled then), instead of holding its
// in-flight slot for the whole delay.
func TestLoopDelayEndsWhenClientLeaves(t *testing.T) {
	for _, loop := range []HTTPLoop{LoopOwn, LoopStd} {
		t.Run(string(loop), func(t *testing.T) {
			e, addr := serveWithDelay(t, loop, FaultRule{Operations: []string{"ListTables"}, Fault: FaultDelay, Delay: time.Minute})
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.WriteString(c, rawRequest("ListTables", testkit.DefaultAuth, 2, "{}")); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the request to be in flight", func() bool { return e.serve.Limit.InFlight.Load() == 1 })
			c.Close()
			waitFor(t, "the request to end after its client left", func() bool { return e.serve.Limit.InFlight.Load() == 0 })
		})
	}
}

// TestLoopDelayKeepsPipelinedRequest: while a delayed request waits, the
// next request pipelined behind it arrives; the watch for the client
// leaving sees its bytes and leaves them, and both are answered in order.
func TestLoopDelayKeepsPipelinedRequest(t *testing.T) {
	for _, loop := range []HTTPLoop{LoopOwn, LoopStd} {
		t.Run(string(loop), func(t *testing.T) {
			_, addr := serveWithDelay(t, loop, FaultRule{Operations: []string{"ListTables"}, Fault: FaultDelay, Delay: 300 * time.Millisecond, Count: 1})
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			first := rawRequest("ListTables", testkit.DefaultAuth, 2, "{}")
			second := rawRequest("ListTables", testkit.DefaultAuth, 15, `{"Limit":   5 }`)
			if _, err := io.WriteString(c, first); err != nil {
				t.Fatal(err)
			}
			// The second request's head arrives in two parts while the
			// first is held.
			time.Sleep(50 * time.Millisecond)
			if _, err := io.WriteString(c, second[:10]); err != nil {
				t.Fatal(err)
			}
			time.Sleep(50 * time.Millisecond)
			if _, err := io.WriteString(c, second[10:]); err != nil {
				t.Fatal(err)
			}
			br := bufio.NewReader(c)
			for i := range 2 {
				res, err := http.ReadResponse(br, nil)
				if err != nil {
					t.Fatalf("answer %d: %v", i+1, err)
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != 200 || !strings.Contains(string(body), `"TableNames"`) {
					t.Fatalf("answer %d: %d %s", i+1, res.StatusCode, body)
				}
			}
		})
	}
}

// serveWithDelay serves a test emulator with rule set, on a loopback
// listener with loop, and returns it and its address.
func serveWithDelay(t *testing.T, loop HTTPLoop, rule FaultRule) (*Emulator, string) {
	t.Helper()
	e := newTestEmulator(t, Options{})
	if err := e.Faults().SetRules(1, []FaultRule{rule}); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := e.NewServer(ServerOptions{Loop: loop})
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })
	return e, ln.Addr().String()
}

// waitFor polls cond until it holds, failing the test after 20 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("waited 20s for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
