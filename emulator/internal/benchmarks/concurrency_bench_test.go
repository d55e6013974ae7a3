package benchmarks

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
)

// BenchmarkServerCPU measures what the server costs per request over real
// HTTP, at concurrency 1 and 8: the http-child server (this test binary
// serving the emulator under net/http, as cmd/dynamoemu does) answers
// prebuilt raw requests from c client goroutines, each on its own
// keep-alive connection, and the figure is the child's CPU time (user +
// system, getrusage) per request: server-cpu-ns/op. Wall time per op is
// reported too, but on a shared machine it mostly measures the others;
// CPU time is what the settings under study change.
//
// The child's runtime settings are the study's variable:
// DYNAMOEMU_BENCH_CHILD_GOMAXPROCS sets its GOMAXPROCS and
// DYNAMOEMU_BENCH_CHILD_ENV adds variables to its environment ("GOGC=400
// GODEBUG=..."); the client keeps its own. noop=1 is the floor: the same
// bytes answered from a replay (BenchmarkHTTPFloor's), without the
// emulator's work.
//
//	go test ./emulator/internal/benchmarks -run '^$' -bench ServerCPU -benchtime 4000x -count 3
func BenchmarkServerCPU(b *testing.B) {
	for _, name := range []string{"GetItem", "PutItem", "QueryPartition10"} {
		o := opNamed(b, name)
		for _, conc := range []int{1, 8} {
			for _, noop := range []bool{false, true} {
				b.Run(fmt.Sprintf("%s/c=%d/noop=%v", name, conc, noop), func(b *testing.B) {
					path := ""
					if noop {
						path = noopPath
					}
					benchServerCPU(b, o, conc, path)
				})
			}
		}
	}
}

func opNamed(b *testing.B, name string) op {
	for _, o := range ops {
		if o.name == name {
			return o
		}
	}
	b.Fatalf("no op %s", name)
	return op{}
}

func benchServerCPU(b *testing.B, o op, conc int, path string) {
	url := startChild(b)
	tr := &http.Transport{MaxIdleConnsPerHost: conc, MaxConnsPerHost: conc}
	hc := &http.Client{Transport: tr}
	b.Cleanup(hc.CloseIdleConnections)
	ak := newAccessKey()
	setup(b, httpPoster(hc, url, ak))
	body := []byte(o.body(b))
	send := func(buf *bytes.Buffer) error {
		req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, url+path, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("X-Amz-Target", targetPrefix+o.target)
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("Authorization", authHeader(ak))
		res, err := hc.Do(req)
		if err != nil {
			return err
		}
		buf.Reset()
		_, err = buf.ReadFrom(res.Body)
		res.Body.Close()
		if err == nil && res.StatusCode != http.StatusOK {
			err = fmt.Errorf("status %d: %s", res.StatusCode, buf.Bytes())
		}
		return err
	}
	var warm bytes.Buffer
	for range conc * 4 {
		if err := send(&warm); err != nil {
			b.Fatal(err)
		}
	}
	before := childCPU(b, hc, url)
	b.ResetTimer()
	var wg sync.WaitGroup
	errs := make(chan error, conc)
	for g := range conc {
		n := b.N / conc
		if g < b.N%conc {
			n++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf bytes.Buffer
			for range n {
				if err := send(&buf); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	after := childCPU(b, hc, url)
	b.ReportMetric(float64(after.user+after.sys-before.user-before.sys)/float64(b.N), "server-cpu-ns/op")
	b.ReportMetric(float64(after.sys-before.sys)/float64(b.N), "server-sys-ns/op")
}
