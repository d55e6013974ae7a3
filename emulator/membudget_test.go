package emulator

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apiserve"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestRequestBytesBudget: with the budget taken by a body still arriving
// (it has sent a fifth of it, so it is charged its announced size), a
// small request is served at once from the small requests' share; a
// large one waits, then gets ThrottlingException with Retry-After, its
// body read away and its connection kept; a chunked body (net/http's)
// likewise. Once the budget is free the same connections are served.
func TestRequestBytesBudget(t *testing.T) {
	for _, loop := range []HTTPLoop{LoopOwn, LoopStd} {
		t.Run(string(loop), func(t *testing.T) {
			const budget = 1 << 20
			h := newHardServer(t, Options{MaxRequestBytesInFlight: budget}, ServerOptions{Loop: loop})
			h.e.serve.Budget.Wait.Store(int64(20 * time.Millisecond))
			h.e.serve.Budget.SetPace(apiserve.Pace{}) // this test is the budget's, not the pace's
			padded := func(n int) string { return "{" + strings.Repeat(" ", n-2) + "}" }

			// The held request announces the whole budget and sends its
			// first 200 KB.
			held := h.dial(t)
			whole := padded(budget)
			_, err := io.WriteString(held, rawRequest("ListTables", testkit.DefaultAuth, budget, whole[:200<<10]))
			require.NoError(t, err)
			waitReserved(t, h.e, budget)

			roundTrip := func(c net.Conn, r *bufio.Reader, req string) (*http.Response, string) {
				t.Helper()
				_, err := io.WriteString(c, req)
				require.NoError(t, err)
				res, err := http.ReadResponse(r, nil)
				require.NoError(t, err)
				body, err := io.ReadAll(res.Body)
				require.NoError(t, err)
				return res, string(body)
			}
			small := h.dial(t)
			smallR := bufio.NewReader(small)
			res, body := roundTrip(small, smallR, rawRequest("ListTables", testkit.DefaultAuth, 2, "{}"))
			require.Equal(t, 200, res.StatusCode, "a small request is served beside a budget taken: %s", body)

			throttled := func(c net.Conn, r *bufio.Reader, req string) {
				t.Helper()
				res, body := roundTrip(c, r, req)
				require.Equal(t, 400, res.StatusCode)
				require.Equal(t, `{"__type":"com.amazon.coral.availability#ThrottlingException","message":"Rate of requests exceeds the allowed throughput."}`, body)
				require.Equal(t, "1", res.Header.Get("Retry-After"))
				require.False(t, res.Close, "the connection stays open")
			}
			large := h.dial(t)
			largeR := bufio.NewReader(large)
			throttled(large, largeR, rawRequest("ListTables", testkit.DefaultAuth, 512<<10, padded(512<<10)))
			chunked := h.dial(t)
			chunkedR := bufio.NewReader(chunked)
			throttled(chunked, chunkedR, chunkedRequest("ListTables", padded(300<<10)))
			require.Equal(t, int64(2), h.e.serve.Budget.Throttled.Load())

			_, err = io.WriteString(held, whole[200<<10:])
			require.NoError(t, err)
			res, err = http.ReadResponse(bufio.NewReader(held), nil)
			require.NoError(t, err)
			require.Equal(t, 200, res.StatusCode)
			waitReserved(t, h.e, 0)

			for _, c := range []struct {
				conn net.Conn
				r    *bufio.Reader
				req  string
			}{
				{small, smallR, rawRequest("ListTables", testkit.DefaultAuth, 2, "{}")},
				{large, largeR, rawRequest("ListTables", testkit.DefaultAuth, 512<<10, padded(512<<10))},
				{chunked, chunkedR, chunkedRequest("ListTables", padded(300<<10))},
			} {
				res, _ := roundTrip(c.conn, c.r, c.req)
				require.Equal(t, 200, res.StatusCode)
				require.Empty(t, res.Header.Get("Retry-After"))
			}
			waitReserved(t, h.e, 0)
			require.LessOrEqual(t, h.e.serve.Budget.Peak.Load(), int64(budget))
		})
	}
}

// chunkedRequest is an API call whose body is sent chunked, in 16 KB
// chunks.
func chunkedRequest(op, body string) string {
	var b strings.Builder
	b.WriteString("POST / HTTP/1.1\r\nHost: localhost\r\nX-Amz-Target: DynamoDB_20120810." + op +
		"\r\nContent-Type: application/x-amz-json-1.0\r\nAuthorization: " + testkit.DefaultAuth +
		"\r\nTransfer-Encoding: chunked\r\n\r\n")
	for len(body) > 0 {
		n := min(len(body), 16<<10)
		b.WriteString(strconv.FormatInt(int64(n), 16) + "\r\n" + body[:n] + "\r\n")
		body = body[n:]
	}
	b.WriteString("0\r\n\r\n")
	return b.String()
}

// waitReserved waits until the budget holds n bytes.
func waitReserved(t *testing.T, e *Emulator, n int64) {
	t.Helper()
	for {
		if used, _ := e.serve.Budget.Reserved(); used == n {
			return
		}
		time.Sleep(time.Millisecond) // polling, bounded by the test deadline
	}
}

// TestCutAtCloseLoggedUnanswered: a request held (by an injected delay)
// when the server closes gets no answer; the log says so at WARN with
// its request id, and not that it was answered 500.
func TestCutAtCloseLoggedUnanswered(t *testing.T) {
	for _, loop := range []HTTPLoop{LoopOwn, LoopStd} {
		t.Run(string(loop), func(t *testing.T) {
			h := newHardServer(t, Options{}, ServerOptions{Loop: loop})
			require.NoError(t, h.e.Faults().SetRules(1, []FaultRule{{Operations: []string{"ListTables"}, Fault: FaultDelay, Delay: time.Minute}}))
			c := h.dial(t)
			_, err := io.WriteString(c, rawRequest("ListTables", testkit.DefaultAuth, 2, "{}"))
			require.NoError(t, err)
			h.waitInFlight(t, 1)
			require.NoError(t, h.srv.Close())
			for line := range h.logs.lines {
				require.NotContains(t, line, "answered 500")
				require.NotContains(t, line, "unclassified")
				if strings.Contains(line, "request cut off unanswered") {
					require.Contains(t, line, "request_id=")
					require.Contains(t, line, "target=DynamoDB_20120810.ListTables")
					break
				}
			}
			_, err = http.ReadResponse(bufio.NewReader(c), nil)
			require.Error(t, err, "no answer")
		})
	}
}

// TestSlowRequestAnswered: a request that takes longer to serve than the
// write timeout (here an injected delay three times it) is still
// answered: the timeout counts from the answer being ready.
func TestSlowRequestAnswered(t *testing.T) {
	for _, loop := range []HTTPLoop{LoopOwn, LoopStd} {
		t.Run(string(loop), func(t *testing.T) {
			h := newHardServer(t, Options{}, ServerOptions{Loop: loop, WriteTimeout: 100 * time.Millisecond})
			require.NoError(t, h.e.Faults().SetRules(1, []FaultRule{{Operations: []string{"ListTables"}, Fault: FaultDelay, Delay: 300 * time.Millisecond, Count: 1}}))
			c := h.dial(t)
			_, err := io.WriteString(c, rawRequest("ListTables", testkit.DefaultAuth, 2, "{}"))
			require.NoError(t, err)
			res, err := http.ReadResponse(bufio.NewReader(c), nil)
			require.NoError(t, err)
			body, err := io.ReadAll(res.Body)
			require.NoError(t, err)
			require.Equal(t, 200, res.StatusCode, string(body))
			require.Contains(t, string(body), "TableNames")
		})
	}
}
