package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestOversizedRequests sends each list member far over its AWS limit
// (BatchGetItem's Keys, BatchWriteItem's write requests, the two
// transactions' TransactItems, BatchExecuteStatement's Statements,
// ExecuteTransaction's TransactStatements), of 4 MB each (15 MB, the
// size of the requests that took a server to 4.5 GB, with
// DYNAMOEMU_HEAVY_TESTS=1), alone and eight at once, to a server of
// its own, and checks each gets AWS's ValidationException. It logs the
// time to answer and the server's peak resident memory against the
// bytes sent, and fails when the peak grows by more than
// oversizeRSSFactor times those bytes: the request is read in its raw
// body and answered without building its elements
// (emulator/internal/oversize). Before that, eight BatchWriteItem
// requests of 15 MB took the server to 8 times the bytes sent, eight BatchGetItem
// requests to 20 times.
func TestOversizedRequests(t *testing.T) {
	bodyBytes := 4 << 20 // each request; eight at once
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" {
		bodyBytes = 15 << 20
	}
	cases := []struct {
		op, want string
		body     func(n int) string
	}{
		{"BatchGetItem", "Member must have length less than or equal to 100", func(n int) string {
			return `{"RequestItems":{"tab":{"Keys":[` + repeatList(n, func(i int) string { return fmt.Sprintf(`{"pk":{"S":"k%07d"}}`, i) }) + `]}}}`
		}},
		{"BatchWriteItem", "Member must have length less than or equal to 25", func(n int) string {
			return `{"RequestItems":{"tab":[` + repeatList(n, func(i int) string {
				return fmt.Sprintf(`{"PutRequest":{"Item":{"pk":{"S":"k%07d"},"v":{"S":"%s"}}}}`, i, strings.Repeat("x", 300))
			}) + `]}}`
		}},
		{"TransactWriteItems", "Member must have length less than or equal to 100", func(n int) string {
			return `{"TransactItems":[` + repeatList(n, func(i int) string {
				return fmt.Sprintf(`{"Put":{"TableName":"tab","Item":{"pk":{"S":"k%07d"},"v":{"S":"%s"}}}}`, i, strings.Repeat("x", 300))
			}) + `]}`
		}},
		{"TransactGetItems", "Member must have length less than or equal to 100", func(n int) string {
			return `{"TransactItems":[` + repeatList(n, func(i int) string { return fmt.Sprintf(`{"Get":{"TableName":"tab","Key":{"pk":{"S":"k%07d"}}}}`, i) }) + `]}`
		}},
		{"BatchExecuteStatement", "BatchWriteItem cannot write more than 25 items", func(n int) string {
			return `{"Statements":[` + repeatList(n, func(i int) string {
				return fmt.Sprintf(`{"Statement":"INSERT INTO \"tab\" VALUE {'pk':'k%07d','v':'%s'}"}`, i, strings.Repeat("x", 300))
			}) + `]}`
		}},
		{"ExecuteTransaction", "Member must have length less than or equal to 100", func(n int) string {
			return `{"TransactStatements":[` + repeatList(n, func(i int) string {
				return fmt.Sprintf(`{"Statement":"INSERT INTO \"tab\" VALUE {'pk':?,'v':?}","Parameters":[{"S":"k%07d"},{"S":"%s"}]}`, i, strings.Repeat("x", 300))
			}) + `]}`
		}},
	}
	for _, tc := range cases {
		t.Run(tc.op, func(t *testing.T) {
			// Just over bodyBytes: the elements are of one length
			// (their numbers have seven digits), so one tells how many.
			one, per := len(tc.body(1)), len(tc.body(2))-len(tc.body(1))
			n := (bodyBytes-one)/per + 2
			body := tc.body(n)
			require.GreaterOrEqual(t, len(body), bodyBytes)
			for _, conc := range []int{1, 8} {
				c := startChild(t)
				cl := newClient(c.url)
				base := peakRSS(t, c.cmd.Process.Pid)
				start := time.Now()
				var wg sync.WaitGroup
				errs := make([]error, conc)
				for i := range conc {
					wg.Go(func() { errs[i] = cl.call(context.Background(), tc.op, body, nil) })
				}
				wg.Wait()
				took := time.Since(start)
				for _, err := range errs {
					var he *errHTTP
					require.True(t, errors.As(err, &he), "%s: %v", tc.op, err)
					require.Equal(t, 400, he.status)
					require.Contains(t, he.body, "ValidationException")
					require.Contains(t, he.body, tc.want)
				}
				peak := peakRSS(t, c.cmd.Process.Pid)
				sent := int64(conc * len(body))
				t.Logf("%s: %d elements, %d x %d bytes: answered in %v, peak RSS %d kB (%d kB at start): %.1f times the bytes sent",
					tc.op, n, conc, len(body), took.Round(time.Millisecond), peak>>10, base>>10, float64(peak-base)/float64(sent))
				require.LessOrEqual(t, peak-base, oversizeRSSFactor*sent, "%s x%d: peak RSS grew by %d bytes for %d bytes sent", tc.op, conc, peak-base, sent)
				c.stop(t)
			}
		})
	}
}

// oversizeRSSFactor bounds the growth of the server's peak memory by the
// bytes of oversized requests. What stays: the bodies themselves, and
// the answers where AWS echoes every element (BatchWriteItem each write
// request, the transactions each action: for small elements the answer
// is as large as the request), held three times on its way out (the
// violation, the message, the JSON body), plus what the collector lets
// accumulate meanwhile. Measured on a 2-core VM: BatchGetItem and
// TransactWriteItems 2.2-2.9 times, BatchWriteItem and TransactGetItems
// of small elements up to 6.2 times, alone or eight at once; the bound
// leaves room for the collector's timing on a loaded machine.
const oversizeRSSFactor = 8

// repeatList joins n elements made by elem with commas.
func repeatList(n int, elem func(i int) string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(elem(i))
	}
	return b.String()
}

var hwmRE = regexp.MustCompile(`(?m)^VmHWM:\s+(\d+) kB`)

// peakRSS is the peak resident memory of process pid, in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	require.NoError(t, err)
	m := hwmRE.FindSubmatch(b)
	require.NotNil(t, m)
	kb, err := strconv.ParseInt(string(m[1]), 10, 64)
	require.NoError(t, err)
	return kb << 10
}
