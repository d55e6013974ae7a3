package emulator

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestTricklingBodiesDoNotThrottle: more connections than
// MaxInFlight, each trickling a body, do not take the in-flight slots, so
// well-behaved clients are all served meanwhile (they used to get
// ThrottlingException until the read timeout cut the trickles off). At
// full size, 1,100 connections against the default limit of 1,024; under
// the race detector 100 against 16 unless DYNAMOEMU_FULLSIZE=1.
func TestTricklingBodiesDoNotThrottle(t *testing.T) {
	limit, conns := 1024, 1100 // cmd/dynamoemu's -maxInFlight
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
	if got := h.e.serve.Limit.Reading.Load(); got != int64(conns) {
		t.Errorf("trickling bodies still being read: got %d, want %d", got, conns)
	}
}

// TestInFlightLimit: past the limit, requests are answered with
// ThrottlingException instead of queueing.
func TestInFlightLimit(t *testing.T) {
	h := newHardServer(t, Options{MaxInFlight: 2}, ServerOptions{})
	gate := newTestGate()
	var held []net.Conn
	for range 2 {
		c := h.dial(t)
		if _, err := io.WriteString(c, rawRequest("TestBlock", testkit.DefaultAuth, len(gate.body), gate.body)); err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	h.waitInFlight(t, 2)
	call := func() (int, string) {
		c := h.dial(t)
		defer c.Close()
		if _, err := io.WriteString(c, rawRequest("ListTables", testkit.DefaultAuth, 2, `{}`)); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	status, body := call()
	if want := `{"__type":"com.amazon.coral.availability#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}`; status != 400 || body != want {
		t.Fatalf("over the limit: got %d %s, want 400 %s", status, body, want)
	}
	gate.open()
	for _, c := range held {
		if res, err := http.ReadResponse(bufio.NewReader(c), nil); err != nil || res.StatusCode != 200 {
			t.Fatalf("held request: %v, %v", res, err)
		}
	}
	h.waitInFlight(t, 0)
	if status, body := call(); status != 200 {
		t.Fatalf("under the limit again: got %d %s", status, body)
	}
}

// TestDeleteTableReturnsMemory: after DeleteTable of a large table the
// heap it held is returned to the operating system.
func TestDeleteTableReturnsMemory(t *testing.T) {
	e := newTestEmulator(t, Options{})
	released := make(chan struct{}, 1)
	e.serve.Release.Done = func() { released <- struct{}{} }
	if res, body := do(t, e, "DynamoDB_20120810.CreateTable", testkit.DefaultAuth, `{"TableName":"big","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`); res.StatusCode != 200 {
		t.Fatalf("CreateTable: %s", body)
	}
	fillTable(t, e, "big", 120) // 46 MB of items
	if res, body := do(t, e, "DynamoDB_20120810.DeleteTable", testkit.DefaultAuth, `{"TableName":"big"}`); res.StatusCode != 200 {
		t.Fatalf("DeleteTable: %s", body)
	}
	<-released
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	kept := ms.HeapIdle - ms.HeapReleased // free heap still held from the OS
	t.Logf("heap in use %d, idle but not returned %d bytes", ms.HeapInuse, kept)
	if kept >= 16<<20 {
		t.Fatalf("%d bytes of free heap not returned to the OS", kept)
	}
}

// fillTable stores n items of 390 KB, keys "k000", "k001", ..., in the
// table called name of testkit.DefaultAuth's namespace (pk S), straight into storage:
// decoding 16 MB of JSON takes long under the race detector.
func fillTable(t *testing.T, e *Emulator, name string, n int) {
	t.Helper()
	tbl := e.svc.Namespace("AKID1/us-east-1").DB().Table(name)
	if tbl == nil {
		t.Fatalf("no table %s", name)
	}
	for i := range n {
		// Each item its own string, as items decoded from requests are.
		pk := storage.S(fmt.Sprintf("k%03d", i))
		it := storage.Item{"pk": pk, "v": storage.S(strings.Repeat("v", 390<<10))}
		if _, err := tbl.Put(storage.Key{Partition: pk}, it); err != nil {
			t.Fatal(err)
		}
	}
}
