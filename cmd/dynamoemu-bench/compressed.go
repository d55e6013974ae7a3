package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The compressed-body run (-compressed N): what the server's memory does
// when N gzip bodies that each inflate to a 10 MB BatchWriteItem arrive at
// once, each on a connection of its own and all of it at once (about
// 10 KB sent for 10 MB). Each of -runs rounds starts the emulator as a
// process of its own with its default request budget (256 MiB), reads its
// resident memory idle, sends the bodies, and samples VmRSS every 5 ms
// until the last answer; the peak over idle is the figure, against the
// budget plus 64 MiB (the server's bound for request memory: the budget
// bounds the bodies' bytes; the items written, those they replace and
// the collector's lag come on top). Every body must be answered 200 or
// 413, none 408 (the server's inflating is not the client's time).

// compressedInflated is what each body inflates to.
const compressedInflated = 10_000_000

// compressedBudget is the server's default request budget (-1: 256 MiB
// without a memory limit), and compressedBound the most its resident
// memory may rise: the budget and 64 MiB.
const (
	compressedBudget = 256 << 20
	compressedBound  = compressedBudget + 64<<20
)

// compressedRun is one round's figures.
type compressedRun struct {
	idleRSS, peakRSS int64
	statuses         map[int]int
	elapsed          time.Duration
}

// inflatingBatch is a BatchWriteItem of 25 items on table that is about
// size bytes once inflated.
func inflatingBatch(table string, size int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `{"RequestItems":{%q:[`, table)
	for i := range 25 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"PutRequest":{"Item":{"pk":{"S":"gz%d"},"sk":{"N":"%d"},"v":{"S":"%s"}}}}`, i, i, strings.Repeat("z", size/25-80))
	}
	b.WriteString(`]}}`)
	return []byte(b.String())
}

// gzipBytes compresses b.
func gzipBytes(b []byte) []byte {
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return out.Bytes()
}

// postGzip sends the gzip body to addr on a connection of its own, all of
// it at once, and returns the answer's status.
func postGzip(addr string, body []byte) (int, error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(3 * time.Minute))
	head := "POST / HTTP/1.1\r\nHost: " + addr + "\r\n" +
		"Content-Type: application/x-amz-json-1.0\r\n" +
		"X-Amz-Target: DynamoDB_20120810.BatchWriteItem\r\n" +
		"X-Amz-Date: 20260101T000000Z\r\n" +
		"Authorization: AWS4-HMAC-SHA256 Credential=AKIACOMPRESSED/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date;x-amz-target, Signature=0\r\n" +
		"Content-Encoding: gzip\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n"
	if _, err := c.Write(append([]byte(head), body...)); err != nil {
		return 0, err
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, nil
}

// compressedOnce starts the server and sends it n bodies at once.
func compressedOnce(bin string, n int, body []byte, log io.Writer) (r compressedRun, err error) {
	srv, err := startEmulator(bin, "", log)
	if err != nil {
		return r, err
	}
	defer srv.stop()
	url, pid := srv.url, srv.pid
	cl := newClient(url, "AKIACOMPRESSED", 1)
	w := &workload{table: "compressed"}
	if err := w.create(cl); err != nil {
		return r, err
	}
	time.Sleep(time.Second)
	r.idleRSS = procRSS(pid)
	done := make(chan struct{})
	peak := make(chan int64)
	go func() {
		m := r.idleRSS
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				peak <- max(m, procRSS(pid))
				return
			case <-tick.C:
				m = max(m, procRSS(pid))
			}
		}
	}()
	var mu sync.Mutex
	r.statuses = map[int]int{}
	var firstErr error
	var wg sync.WaitGroup
	start := time.Now()
	for range n {
		wg.Go(func() {
			st, err := postGzip(strings.TrimPrefix(url, "http://"), body)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = err
			}
			r.statuses[st]++
		})
	}
	wg.Wait()
	r.elapsed = time.Since(start)
	close(done)
	r.peakRSS = <-peak
	return r, firstErr
}

// runCompressed runs compressedOnce c.runs times and prints each round
// and the median.
func runCompressed(c config, stdout, stderr io.Writer) error {
	bin, about, done, err := emulatorBin(c.emulatorBin)
	if err != nil {
		return err
	}
	defer done()
	body := gzipBytes(inflatingBatch("compressed", compressedInflated))
	fmt.Fprintf(stdout, "%s: %d gzip BatchWriteItems of %d bytes, %d once inflated, at once; budget %d MiB; %s\n",
		about, c.compressed, len(body), compressedInflated, compressedBudget>>20, machine())
	var over []float64
	bad := 0
	for i := range c.runs {
		r, err := compressedOnce(bin, c.compressed, body, stderr)
		if err != nil {
			return fmt.Errorf("round %d: %w", i+1, err)
		}
		mb := float64(r.peakRSS-r.idleRSS) / (1 << 20)
		over = append(over, mb)
		var st []string
		for _, s := range slices.Sorted(maps.Keys(r.statuses)) {
			st = append(st, fmt.Sprintf("%d×%d", r.statuses[s], s))
			if s != http.StatusOK && s != http.StatusRequestEntityTooLarge {
				bad += r.statuses[s]
			}
		}
		fmt.Fprintf(stdout, "round %d: answers %s in %.1fs; resident peak %.0f MiB over idle (idle %.1f MiB); bound %d MiB\n",
			i+1, strings.Join(st, " "), r.elapsed.Seconds(), mb, float64(r.idleRSS)/(1<<20), compressedBound>>20)
	}
	slices.Sort(over)
	fmt.Fprintf(stdout, "median of %d: resident peak %.0f MiB over idle (bound %d MiB); answers other than 200 or 413: %d\n",
		len(over), over[len(over)/2], compressedBound>>20, bad)
	if bad > 0 {
		return fmt.Errorf("%d bodies answered other than 200 or 413", bad)
	}
	return nil
}
