package emulator

import (
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"testing"
)

// The edge's tests send their requests (do, harness_test.go) over a real
// connection to a Server of the emulator under test, with the connection
// loop (internal/httploop) unless DYNAMOEMU_HTTP_LOOP=std: both paths run the
// same tests.

// testServers are the Servers started for emulators under test.
var testServers struct {
	mu   sync.Mutex // guards urls
	urls map[*Emulator]string
}

// overServer returns a handler that forwards each request to a Server of
// e (started on first use, closed with the test, its timeouts
// hangBounds') and copies its answer.
func overServer(t testing.TB, e *Emulator) http.Handler {
	t.Helper()
	testServers.mu.Lock()
	defer testServers.mu.Unlock()
	url, ok := testServers.urls[e]
	if !ok {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		srv := e.NewServer(hangBounds(ServerOptions{Loop: HTTPLoop(os.Getenv("DYNAMOEMU_HTTP_LOOP"))}))
		go func() { _ = srv.Serve(ln) }()
		url = "http://" + ln.Addr().String()
		if testServers.urls == nil {
			testServers.urls = map[*Emulator]string{}
		}
		testServers.urls[e] = url
		t.Cleanup(func() {
			_ = srv.Close()
			testServers.mu.Lock()
			delete(testServers.urls, e)
			testServers.mu.Unlock()
		})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req, err := http.NewRequest(r.Method, url+r.URL.RequestURI(), r.Body)
		if err != nil {
			t.Fatal(err)
		}
		req.Header = r.Header.Clone()
		req.ContentLength = r.ContentLength
		res, err := testClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		for k, v := range res.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(res.StatusCode)
		_, _ = io.Copy(w, res.Body)
	})
}

// testClient is the client of overServer: no compression asked for (the
// answers are compared as the emulator wrote them).
var testClient = &http.Client{Transport: &http.Transport{DisableCompression: true}}
