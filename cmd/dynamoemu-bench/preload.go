package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// The preload (-preload N): N items of the workload (itemSize bytes, the
// keys of partitions of itemsPerPartition) written into a fresh table by
// BatchWriteItem of batchSize puts from -concurrency clients, each taking
// the next batch when its last is answered. Every answer is checked: an
// error or any UnprocessedItems fails the run (nothing is retried, so
// that the figure is the server's, not a back-off's; only a batch sent on
// a kept connection the server had closed is sent again, rawclient.go).
// It reports the wall time from the first request to the last answer,
// items per second and, given the server's pid, the server's CPU time per
// batch and per item; then it counts the table's items with Select COUNT
// Scans and deletes the table. A server of canned answers (the floor)
// holds no items and is left out.

// preloadResult is one preload of one target at one concurrency.
type preloadResult struct {
	items, batches int
	concurrency    int
	elapsed        time.Duration
	serverCPU      time.Duration // 0: unknown
	clientCPU      time.Duration
	errors         int
	firstErr       error
}

func (r preloadResult) itemsPerSec() float64 {
	if r.elapsed <= 0 {
		return 0
	}
	return float64(r.items) / r.elapsed.Seconds()
}

func (r preloadResult) summary() string {
	s := fmt.Sprintf("%d items in %.2fs (%.0f items/s, %.0f batches/s)", r.items, r.elapsed.Seconds(),
		r.itemsPerSec(), float64(r.batches)/r.elapsed.Seconds())
	if r.serverCPU > 0 {
		s += fmt.Sprintf("  server %.2f cpu-s, %s/batch, %.2fµs/item", r.serverCPU.Seconds(),
			us(r.serverCPU/time.Duration(r.batches)), float64(r.serverCPU)/float64(time.Microsecond)/float64(r.items))
	}
	s += fmt.Sprintf("  client %s/batch", us(r.clientCPU/time.Duration(max(r.batches, 1))))
	if r.errors > 0 {
		s += fmt.Sprintf("  %d FAILED BATCHES, first: %v", r.errors, r.firstErr)
	}
	return s
}

// batchBody appends the BatchWriteItem request of items [from, to) of
// table to b.
func batchBody(b []byte, table string, from, to int) []byte {
	b = append(b, `{"RequestItems":{"`...)
	b = append(b, table...)
	b = append(b, `":[`...)
	for j := from; j < to; j++ {
		if j > from {
			b = append(b, ',')
		}
		b = appendItem(append(b, `{"PutRequest":{"Item":`...), j/itemsPerPartition, j%itemsPerPartition)
		b = append(b, "}}"...)
	}
	return append(b, "]}}"...)
}

// emptyBatchAnswer is the answer to a BatchWriteItem that wrote
// everything, as the emulator and DynamoDB write it; other spellings are
// decoded and checked (check).
var emptyBatchAnswer = []byte(`{"UnprocessedItems":{}}`)

// preload writes n items into w's table (created by the caller) from conc
// clients, each on its own connection (rawConn), and checks every answer.
func preload(c *client, w *workload, n, conc, pid int) preloadResult {
	batches := (n + batchSize - 1) / batchSize
	var next atomic.Int64
	type workerResult struct {
		errors   int
		firstErr error
	}
	results := make([]workerResult, conc)
	var wg sync.WaitGroup
	cpu0, client0 := procCPU(pid), selfCPU()
	t0 := time.Now()
	for i := range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var b []byte
			var resp bytes.Buffer
			res := &results[i]
			rc, err := newRawConn(c.url, c.accessKey)
			if err != nil {
				res.errors, res.firstErr = 1, err
				return
			}
			defer rc.close()
			for {
				k := int(next.Add(1) - 1)
				if k >= batches {
					return
				}
				b = batchBody(b[:0], w.table, k*batchSize, min((k+1)*batchSize, n))
				body, err := rc.call("BatchWriteItem", b, &resp)
				if err == nil && !bytes.Equal(body, emptyBatchAnswer) {
					err = check(request{op: "BatchWriteItem", kind: "batch"}, body, true)
				}
				if err != nil {
					res.errors++
					if res.firstErr == nil {
						res.firstErr = fmt.Errorf("batch %d: %w", k, err)
					}
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(t0)
	cpu1, client1 := procCPU(pid), selfCPU()
	r := preloadResult{items: n, batches: batches, concurrency: conc, elapsed: elapsed, clientCPU: client1 - client0}
	if pid > 0 && cpu0 >= 0 && cpu1 >= 0 {
		r.serverCPU = cpu1 - cpu0
	}
	for _, x := range results {
		r.errors += x.errors
		if r.firstErr == nil {
			r.firstErr = x.firstErr
		}
	}
	return r
}

// countItems counts the table's items with Select COUNT Scans (a page
// holds at most 1 MB of items, so a large table takes a few pages).
func countItems(c *client, table string) (int, error) {
	total := 0
	var start []byte
	for {
		body := []byte(`{"TableName":"` + table + `","Select":"COUNT"`)
		if start != nil {
			body = append(append(body, `,"ExclusiveStartKey":`...), start...)
		}
		body = append(body, '}')
		var page struct {
			Count            int
			LastEvaluatedKey json.RawMessage
		}
		resp, err := c.call("Scan", body, nil)
		if err != nil {
			return total, err
		}
		if err := json.Unmarshal(resp, &page); err != nil {
			return total, fmt.Errorf("the Scan answer is not JSON: %v", err)
		}
		total += page.Count
		if len(page.LastEvaluatedKey) == 0 || string(page.LastEvaluatedKey) == "null" {
			return total, nil
		}
		start = page.LastEvaluatedKey
	}
}

// runPreload preloads c.preload items into a fresh table of every target
// at every concurrency (targets interleaved, as measure does), checks
// each table's count and prints one line per run.
func runPreload(c config, targets []*target, stdout, stderr io.Writer) error {
	failed := false
	for _, conc := range c.concurrency {
		for _, t := range targets {
			if !t.strict {
				fmt.Fprintf(stderr, "%s: canned answers, no preload\n", t.name)
				continue
			}
			key := c.accessKey
			if key == "" {
				key = fmt.Sprintf("AKIAPRELOAD%08x", rand.Uint32())
			}
			cl := newClient(t.url, key, conc)
			w := &workload{table: fmt.Sprintf("preload_%08x", rand.Uint32())}
			if err := w.create(cl); err != nil {
				return fmt.Errorf("%s: %w", t.name, err)
			}
			r := preload(cl, w, c.preload, conc, t.pid)
			n, err := countItems(cl, w.table)
			if err == nil && n != c.preload && r.errors == 0 {
				err = fmt.Errorf("the table holds %d items, want %d", n, c.preload)
			}
			if err != nil {
				r.errors++
				if r.firstErr == nil {
					r.firstErr = err
				}
			}
			fmt.Fprintf(stdout, "%-14s preload x%-3d %s\n", t.name, conc, r.summary())
			failed = failed || r.errors > 0
			if err := w.teardown(cl); err != nil {
				fmt.Fprintf(stderr, "%s: DeleteTable: %v\n", t.name, err)
			}
			cl.http.CloseIdleConnections()
		}
	}
	if failed {
		return fmt.Errorf("preload: some batches failed their checks")
	}
	return nil
}
