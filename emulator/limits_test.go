package emulator

import (
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestTricklingBodiesDoNotThrottle (issue 16): more connections than
// MaxInFlight, each trickling a body, do not take the in-flight slots, so
// well-behaved clients are all served meanwhile (they used to get
// ThrottlingException until the read timeout cut the trickles off). At
// full size, 1,100 connections against the default limit of 1,024; under
// the race detector 100 against 16 unless DYNAMOEMU_FULLSIZE=1.
func TestTricklingBodiesDoNotThrottle(t *testing.T) {
	limit, conns := DefaultMaxInFlight, 1100
	if !testkit.FullSize() {
		limit, conns = 16, 100
	}
	h := newHardServer(t, Options{MaxInFlight: limit}, ServerOptions{})
	// Each trickle announces 1 MB and sends its head and first bytes, then
	// one more byte per round until the test ends.
	trickles := make([]net.Conn, conns)
	for i := range trickles {
		trickles[i] = h.dial(t)
		if _, err := io.WriteString(trickles[i], rawRequest("PutItem", testkit.DefaultAuth, 1<<20, `{"TableName":"trk","Item":{"pk":{"S":"`)); err != nil {
			t.Fatal(err)
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			for _, c := range trickles {
				select {
				case <-stop:
					return
				default:
				}
				_, _ = c.Write([]byte("x"))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	defer func() { close(stop); wg.Wait() }()
	h.waitReading(t, int64(conns))

	// Well-behaved clients: 8 keep-alive clients, 20 requests each.
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	defer client.CloseIdleConnections()
	call := func(op, body string) (int, string, error) {
		req, err := http.NewRequest(http.MethodPost, "http://"+h.addr+"/", strings.NewReader(body))
		if err != nil {
			return 0, "", err
		}
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("Authorization", testkit.DefaultAuth)
		res, err := client.Do(req)
		if err != nil {
			return 0, "", err
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		return res.StatusCode, string(b), err
	}
	if status, body, err := call("CreateTable", `{"TableName":"trk","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`); err != nil || status != 200 {
		t.Fatalf("CreateTable: %d %s %v", status, body, err)
	}
	var failed sync.Map
	var clients sync.WaitGroup
	for i := range 8 {
		clients.Add(1)
		go func() {
			defer clients.Done()
			for j := range 20 {
				op, body := "PutItem", `{"TableName":"trk","Item":{"pk":{"S":"c`+string(rune('a'+i))+string(rune('a'+j))+`"}}}`
				if j%2 == 1 {
					op, body = "GetItem", `{"TableName":"trk","Key":{"pk":{"S":"c`+string(rune('a'+i))+string(rune('a'+j-1))+`"}}}`
				}
				if status, answer, err := call(op, body); err != nil || status != 200 {
					failed.Store(op+" "+body, answer)
				}
			}
		}()
	}
	clients.Wait()
	failed.Range(func(k, v any) bool {
		t.Errorf("%s: got %v, want 200", k, v)
		return true
	})
	if got := h.e.limit.reading.Load(); got != int64(conns) {
		t.Errorf("trickling bodies still being read: got %d, want %d", got, conns)
	}
}
