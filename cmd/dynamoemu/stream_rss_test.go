package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestOversizedStreamRetention writes to a table whose stream keeps
// both images, over and over the same keys, through a server bounded by
// -streamRetentionBytes, and the same writes to the same table without a
// stream: the first server's peak RSS may exceed the second's (the
// table's own size) by at most the bound plus a small constant. Before
// the bound, the records of 24 hours were all kept: about 1 KB a write.
// 1,000,000 writes with DYNAMOEMU_HEAVY_TESTS=1 (about 10 s a server on
// a 2-core VM), else 200,000; DYNAMOEMU_STREAM_RSS_WRITES sets another
// count. Measured (2-core VM, loaded): 93-97 MiB over the table's own
// for 200,000 and 1,000,000 writes: the bound holds whatever the count,
// and the rest is the collector's room over what is live.
func TestOversizedStreamRetention(t *testing.T) {
	skipUnderRace(t)
	writes := 200_000
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" {
		writes = 1_000_000
	}
	if v := os.Getenv("DYNAMOEMU_STREAM_RSS_WRITES"); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(t, err, "DYNAMOEMU_STREAM_RSS_WRITES")
		writes = n
	}
	const (
		bound = 64 << 20
		keys  = 10_000
		slack = 48 << 20 // the collector's room over what is live, and the stream's indexes
	)
	pad := strings.Repeat("x", 200)
	run := func(stream bool) (peak, base int64, took time.Duration) {
		c := startChild(t, "-streamRetentionBytes", strconv.Itoa(bound))
		defer c.stop(t)
		cl := newClient(c.url)
		ctx := context.Background()
		spec := ""
		if stream {
			spec = `,"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}`
		}
		require.NoError(t, cl.call(ctx, "CreateTable", `{"TableName":"tab","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"BillingMode":"PAY_PER_REQUEST"`+spec+`}`, nil))
		base = peakRSS(t, c.cmd.Process.Pid)
		start := time.Now()
		const workers, batch = 4, 25
		var wg sync.WaitGroup
		errs := make([]error, workers)
		for w := range workers {
			wg.Go(func() {
				var b strings.Builder
				for i := w * batch; i < writes; i += workers * batch {
					b.Reset()
					b.WriteString(`{"RequestItems":{"tab":[`)
					for j := i; j < min(i+batch, writes); j++ {
						if j > i {
							b.WriteByte(',')
						}
						fmt.Fprintf(&b, `{"PutRequest":{"Item":{"pk":{"S":"k%05d"},"n":{"N":"%d"},"v":{"S":"%s"}}}}`, j%keys, j, pad)
					}
					b.WriteString(`]}}`)
					var out map[string]any
					if err := cl.call(ctx, "BatchWriteItem", b.String(), &out); err != nil {
						errs[w] = err
						return
					}
					if u, _ := out["UnprocessedItems"].(map[string]any); len(u) > 0 {
						errs[w] = fmt.Errorf("unprocessed items: %v", u)
						return
					}
				}
			})
		}
		wg.Wait()
		for _, err := range errs {
			require.NoError(t, err)
		}
		return peakRSS(t, c.cmd.Process.Pid), base, time.Since(start)
	}
	plainPeak, plainBase, plainTook := run(false)
	streamPeak, streamBase, streamTook := run(true)
	t.Logf("%d writes over %d keys: without a stream peak RSS %d kB (%d kB at start, %v); with a stream bounded at %d MiB %d kB (%d kB at start, %v): %d MiB over",
		writes, keys, plainPeak>>10, plainBase>>10, plainTook.Round(time.Millisecond), bound>>20, streamPeak>>10, streamBase>>10, streamTook.Round(time.Millisecond), (streamPeak-plainPeak)>>20)
	require.LessOrEqual(t, streamPeak-plainPeak, int64(bound+slack), "the stream's records took the server past the table's own size plus the bound")
}
