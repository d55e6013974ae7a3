package emulator

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apiserve"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// inflatingBatch is a BatchWriteItem of 25 items of about 400 KB on the
// table "held", about size bytes in all once inflated: it compresses to
// a few KB.
func inflatingBatch(size int) []byte {
	var b strings.Builder
	b.WriteString(`{"RequestItems":{"held":[`)
	for i := range 25 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"PutRequest":{"Item":{"pk":{"S":"gz%d"},"v":{"S":"%s"}}}}`, i, strings.Repeat("z", size/25-60))
	}
	b.WriteString(`]}}`)
	return []byte(b.String())
}

// postEncoded sends body with Content-Encoding coding on a connection
// of its own, all of it at once, and returns the answer's status and
// error type.
func postEncoded(h *hardServer, coding string, body []byte) (int, string, error) {
	c, err := net.Dial("tcp", h.addr)
	if err != nil {
		return 0, "", err
	}
	defer c.Close()
	head := rawRequest("BatchWriteItem", testkit.Auth("AKIDHELD", sigRegion), len(body), "")
	head = strings.Replace(head, "\r\n\r\n", "\r\nContent-Encoding: "+coding+"\r\n\r\n", 1)
	if _, err := io.WriteString(c, head+string(body)); err != nil {
		return 0, "", err
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	typ, _ := testkit.ErrorOf(string(out))
	return res.StatusCode, typ, nil
}

// TestCompressedBodiesWithinBudget: 16 gzip bodies (64 with
// DYNAMOEMU_HEAVY_TESTS) of about 10 KB that each inflate to a 10 MB
// BatchWriteItem, sent at once, each all at once, under the default
// budget: their inflated bytes are charged as they are inflated, so the
// budget's peak is at most its size and the overflow; each is answered
// 200: none 408 (the server's inflating is not the client's time) and
// none throttled (a body whose bytes have all arrived waits its turn for
// its inflated bytes' charge longer than the budget's wait; it holds
// only its compressed bytes meanwhile). Beside
// them one that inflates past the 16 MB limit is answered 413 at once
// and a zstd one (a coding DynamoDB does not take) 500. Before, 64 of
// them took the server to 1,282 MB and each was cut with 408.
// heapPeak samples the heap's live and dead objects' bytes every 5 ms
// until stopped: it returns them now, and stop returns the most seen.
func heapPeak() (now uint64, stop func() uint64) {
	read := func() uint64 {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	now = read()
	done, most := make(chan struct{}), make(chan uint64)
	go func() {
		m := now
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				most <- max(m, read())
				return
			case <-tick.C:
				m = max(m, read())
			}
		}
	}()
	return now, func() uint64 { close(done); return <-most }
}

func TestCompressedBodiesWithinBudget(t *testing.T) {
	// 64 bodies on demand, 16 under the race detector: each is charged
	// twice its inflated size, so about 13 run at once, and the race
	// build's slower inflating would keep the last of 64 waiting past the
	// 60 s a compressed body waits for its charge (one was throttled so).
	n := 16
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" && !testkit.RaceEnabled {
		n = 64
	}
	h, _ := heldServer(t, false)
	h.e.serve.Budget.SetPace(apiserve.DefaultPace)
	b := &h.e.serve.Budget
	body := gzipped(t, inflatingBatch(10_000_000))
	t.Logf("a body of %d bytes, %d once inflated", len(body), 10_000_000)
	type answer struct {
		status int
		typ    string
		err    error
	}
	answers := make(chan answer, n+2)
	// Made before the heap's base is read: the test's own 17 MB string
	// and its builder's growth are no server memory.
	over := gzipped(t, inflatingBatch(17<<20))
	heap, stopHeap := heapPeak()
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			st, typ, err := postEncoded(h, "gzip", body)
			answers <- answer{st, typ, err}
		})
	}
	st, typ, err := postEncoded(h, "gzip", over)
	require.NoError(t, err)
	require.Equal(t, http.StatusRequestEntityTooLarge, st, typ)
	st, typ, err = postEncoded(h, "zstd", body)
	require.NoError(t, err)
	require.Equal(t, http.StatusInternalServerError, st, typ)
	wg.Wait()
	close(answers)
	peak := stopHeap()
	ok := 0
	for a := range answers {
		require.NoError(t, a.err)
		require.Equal(t, http.StatusOK, a.status, "a body sent at once: %s", a.typ)
		ok++
	}
	t.Logf("%d of %d answered 200; the budget's peak %d bytes (its size %d); the heap's objects peaked %d bytes over the %d before",
		ok, n, b.Peak.Load(), b.Max, peak-heap, heap)
	require.LessOrEqual(t, b.Peak.Load(), b.Max+b.Overflow(), "the budget's peak")
	require.LessOrEqual(t, b.Overflow(), int64(64<<20))
	require.LessOrEqual(t, peak-heap, uint64(b.Max+64<<20), "the heap's objects over their base: the budget and 64 MiB")
	waitReserved(t, h.e, 0)
}
