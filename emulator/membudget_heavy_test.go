package emulator

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestRequestBudgetBoundsHeap: 32 clients send a 15.7 MB BatchWriteItem
// of small puts at once (AWS refuses it: more than 25 writes) to a
// server with a budget of 64 MB of request bytes; each retries a
// ThrottlingException, as the SDKs do, until it gets its answer. Every
// client gets the ValidationException, and the heap's peak, sampled
// in-process with runtime/metrics, grows by a bounded multiple of the
// budget, not of the 500 MB sent (without a budget the server held
// 1.23 GB). Heavy: only with DYNAMOEMU_HEAVY_TESTS (CI sets it); a
// light version sends 8 of 4 MB against a budget of 16 MB.
func TestRequestBudgetBoundsHeap(t *testing.T) {
	if testkit.RaceEnabled {
		t.Skip("measures the heap: not under the race detector")
	}
	clients, bodyBytes, budget := 8, 4<<20, int64(16<<20)
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" {
		clients, bodyBytes, budget = 32, 15_700_000, 64<<20
	}
	h := newHardServer(t, Options{MaxRequestBytesInFlight: budget}, ServerOptions{})
	call := func(client *http.Client, op string, body []byte) (int, string) {
		req, err := http.NewRequest(http.MethodPost, "http://"+h.addr+"/", bytes.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("Authorization", testkit.DefaultAuth)
		res, err := client.Do(req)
		require.NoError(t, err, "every request is answered: never a cut connection")
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, string(b)
	}
	status, out := call(http.DefaultClient, "CreateTable", []byte(`{"TableName":"tab","BillingMode":"PAY_PER_REQUEST",
		"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`))
	require.Equal(t, 200, status, out)

	// One body, shared by every client: the clients hold 15.7 MB, not 500.
	var b strings.Builder
	b.WriteString(`{"RequestItems":{"tab":[`)
	for i := 0; b.Len() < bodyBytes-200; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"PutRequest":{"Item":{"pk":{"S":"k%07d"},"v":{"S":"%s"}}}}`, i, strings.Repeat("x", 40))
	}
	b.WriteString("]}}")
	body := []byte(b.String())
	b = strings.Builder{}

	base := testkit.LiveHeap()
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			default:
				runtime.Gosched()
				time.Sleep(200 * time.Microsecond) // sampling period, not a measure
			}
		}
	}()
	var wg sync.WaitGroup
	var throttles atomic.Int64
	answers := make([]string, clients)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			client := &http.Client{Transport: &http.Transport{}}
			defer client.CloseIdleConnections()
			for range 100 {
				status, out := call(client, "BatchWriteItem", body)
				if status == 400 && strings.Contains(out, "ThrottlingException") {
					throttles.Add(1)
					time.Sleep(50 * time.Millisecond) // the SDK's back-off
					continue
				}
				answers[i] = fmt.Sprintf("%d %s", status, out)
				return
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-sampled
	for i, a := range answers {
		require.True(t, strings.HasPrefix(a, `400 {"__type":"com.amazon.coral.validate#ValidationException","message":"1 validation error detected: Value '{tab=[WriteRequest(`), "client %d: %.300s", i, a)
		require.Contains(t, a, "Member must have length less than or equal to 25", "client %d", i)
		require.Less(t, len(a), 80<<10, "client %d: the echo is cut", i)
	}
	growth := int64(peak.Load()) - int64(base)
	t.Logf("%d clients x %d bytes (%d MB sent) against a budget of %d MB: peak heap %d MB over a base of %d MB (%.2fx the budget); %d throttled, budget peak %d MB",
		clients, len(body), int64(clients)*int64(len(body))>>20, budget>>20, growth>>20, base>>20, float64(growth)/float64(budget), throttles.Load(), h.e.serve.Budget.Peak.Load()>>20)
	require.LessOrEqual(t, h.e.serve.Budget.Peak.Load(), budget+h.e.serve.Budget.Overflow())
	// The budget's bodies, each decoded a run at a time with its capped
	// echo, and the collector's garbage between cycles: within 4 times
	// the budget, and far under the bytes sent.
	require.Less(t, growth, 4*budget, "peak heap growth %d MB", growth>>20)
}
