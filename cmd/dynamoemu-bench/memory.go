package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The memory run (-memory N): what a user sees of the server's memory
// after loading N items over HTTP. Each of -runs rounds starts the
// emulator (built from this module, or -emulator-bin) as a process of
// its own with GODEBUG=gctrace=1, so that its collections print the live
// heap, and measures its resident memory (VmRSS of /proc/<pid>/status):
// idle, after a SIGUSR1 (the server collects and returns its free pages);
// then it preloads N items (preload.go) from the clients of -concurrency
// (the first figure; 4 unless given), and reads the resident memory once
// loaded, 10 s later, once the server has returned memory of its own
// accord after the load (its first return logged since, within a minute
// of the load's end), and after a SIGUSR1, with the live heap of
// that collection. Each figure is per item: the difference from idle
// over N.

// memoryRun is one round's figures, in bytes.
type memoryRun struct {
	idleRSS, loadedRSS, laterRSS, gcRSS int64
	returnedRSS                         int64         // -1: the server returned nothing of its own accord
	returnedAfter                       time.Duration // from the load's end
	idleHeap, gcHeap                    int64
	load                                preloadResult
}

// perItem returns (x - idle) / n.
func perItem(x, idle int64, n int) float64 { return float64(x-idle) / float64(n) }

func (r memoryRun) line(n int) string {
	returned := "none within a minute"
	if r.returnedRSS >= 0 {
		returned = fmt.Sprintf("%.0f (%.1fs after the load)", perItem(r.returnedRSS, r.idleRSS, n), r.returnedAfter.Seconds())
	}
	return fmt.Sprintf("resident B/item: loaded %.0f, 10 s later %.0f, returned %s, after SIGUSR1 %.0f; live heap B/item %.0f  (idle RSS %.1f MB, load %.1fs)",
		perItem(r.loadedRSS, r.idleRSS, n), perItem(r.laterRSS, r.idleRSS, n), returned, perItem(r.gcRSS, r.idleRSS, n),
		perItem(r.gcHeap, r.idleHeap, n), float64(r.idleRSS)/(1<<20), r.load.elapsed.Seconds())
}

// procRSS is process pid's resident memory in bytes (VmRSS), -1 when it
// cannot be read.
func procRSS(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return -1
			}
			return kb << 10
		}
	}
	return -1
}

// gcLine matches a collection's gctrace line; its groups are the live
// heap in MB after the collection and whether it was forced.
var gcLine = regexp.MustCompile(`^gc \d+ @.*->(\d+) MB, \d+ MB goal.*?( \(forced\))?$`)

// returnedLog is what the server logs once it has returned memory
// (cmd/dynamoemu/memreturn.go), after the forced collection's gctrace
// line.
const returnedLog = `msg="memory returned to the operating system"`

// gcWatch follows a server's stderr: the live heap after each forced
// collection (gctrace), and its log of each return of memory.
type gcWatch struct {
	mu       sync.Mutex
	forced   []int64 // live heap after each forced collection, in bytes
	returned int     // returns logged
}

func (g *gcWatch) follow(r io.Reader, log io.Writer) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		m := gcLine.FindStringSubmatch(line)
		g.mu.Lock()
		switch {
		case m != nil && m[2] != "":
			mb, _ := strconv.ParseInt(m[1], 10, 64)
			g.forced = append(g.forced, mb<<20)
		case strings.Contains(line, returnedLog):
			g.returned++
		case !strings.HasPrefix(line, "gc "):
			fmt.Fprintln(log, line)
		}
		g.mu.Unlock()
	}
}

// count is the number of returns logged.
func (g *gcWatch) count() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.returned
}

// waitForced waits up to timeout for more than n returns of memory and
// reports whether there were.
func (g *gcWatch) waitForced(n int, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for g.count() <= n {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
	return true
}

// collect sends the server SIGUSR1 and waits for its return of memory
// (a forced collection, then the free pages handed back); it returns the
// live heap and the resident memory.
// The server's log and gctrace share its stderr, so a gctrace line cut
// by a log line is not read: then it asks again (at most three times).
func (g *gcWatch) collect(pid int) (heap, rss int64, err error) {
	for range 3 {
		n := g.count()
		g.mu.Lock()
		seen := len(g.forced)
		g.mu.Unlock()
		if err := syscall.Kill(pid, syscall.SIGUSR1); err != nil {
			return 0, 0, err
		}
		if !g.waitForced(n, 2*time.Minute) {
			return 0, 0, fmt.Errorf("no return of memory within 2 minutes of SIGUSR1")
		}
		rss = procRSS(pid)
		time.Sleep(50 * time.Millisecond) // the gctrace line comes before the log's
		g.mu.Lock()
		heap, ok := int64(0), len(g.forced) > seen
		if ok {
			heap = g.forced[len(g.forced)-1]
		}
		g.mu.Unlock()
		if ok {
			return heap, rss, nil
		}
	}
	return 0, 0, fmt.Errorf("no gctrace line of a forced collection read after 3 SIGUSR1")
}

// memoryOnce starts the server, measures it idle, loads n items from
// conc clients and measures it again.
func memoryOnce(bin string, n, conc int, gsi bool, log io.Writer) (r memoryRun, err error) {
	port, err := freePort()
	if err != nil {
		return r, err
	}
	cmd := exec.Command(bin, "-host", "127.0.0.1", "-port", strconv.Itoa(port), "-logLevel", "info", "-ttlSweepInterval", "0")
	cmd.Env = append(os.Environ(), "GODEBUG=gctrace=1")
	cmd.Stdout = log
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return r, err
	}
	if err := cmd.Start(); err != nil {
		return r, err
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	var g gcWatch
	go g.follow(stderr, log)
	url := "http://127.0.0.1:" + strconv.Itoa(port)
	if err := waitReady(url, 30*time.Second); err != nil {
		return r, err
	}
	pid := cmd.Process.Pid
	time.Sleep(time.Second)
	if r.idleHeap, r.idleRSS, err = g.collect(pid); err != nil {
		return r, err
	}
	cl := newClient(url, fmt.Sprintf("AKIAMEMORY%08x", rand.Uint32()), conc)
	w := &workload{table: "memory", gsi: gsi}
	if err := w.create(cl); err != nil {
		return r, err
	}
	forced := g.count()
	r.load = preload(cl, w, n, conc, pid)
	if r.load.errors > 0 {
		return r, fmt.Errorf("%d batches failed, first: %v", r.load.errors, r.load.firstErr)
	}
	loaded := time.Now()
	r.loadedRSS = procRSS(pid)
	time.Sleep(10 * time.Second)
	r.laterRSS = procRSS(pid)
	r.returnedRSS = -1
	if g.waitForced(forced, time.Until(loaded.Add(time.Minute))) {
		r.returnedRSS, r.returnedAfter = procRSS(pid), time.Since(loaded)
	}
	if r.gcHeap, r.gcRSS, err = g.collect(pid); err != nil {
		return r, err
	}
	if got, err := countItems(cl, w.table); err != nil || got != n {
		return r, fmt.Errorf("the table holds %d items, want %d (%v)", got, n, err)
	}
	return r, nil
}

// runMemory runs memoryOnce c.runs times and prints each round and the
// medians.
func runMemory(c config, stdout, stderr io.Writer) error {
	bin, about, done, err := emulatorBin(c.emulatorBin)
	if err != nil {
		return err
	}
	defer done()
	conc := c.concurrency[0]
	index := ""
	if c.gsi {
		index = " into a table with one GSI (byEmail, KEYS_ONLY)"
	}
	fmt.Fprintf(stdout, "%s: %d items of %d bytes by BatchWriteItem of %d from %d clients%s; %s\n", about, c.memory, itemSize, batchSize, conc, index, machine())
	var runs []memoryRun
	for i := range c.runs {
		r, err := memoryOnce(bin, c.memory, conc, c.gsi, stderr)
		if err != nil {
			return fmt.Errorf("round %d: %w", i+1, err)
		}
		fmt.Fprintf(stdout, "round %d: %s\n", i+1, r.line(c.memory))
		runs = append(runs, r)
	}
	med := func(f func(memoryRun) float64) float64 {
		v := make([]float64, len(runs))
		for i, r := range runs {
			v[i] = f(r)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	n := c.memory
	fmt.Fprintf(stdout, "median of %d: resident B/item loaded %.0f, 10 s later %.0f, returned %.0f, after SIGUSR1 %.0f; live heap B/item %.0f\n", len(runs),
		med(func(r memoryRun) float64 { return perItem(r.loadedRSS, r.idleRSS, n) }),
		med(func(r memoryRun) float64 { return perItem(r.laterRSS, r.idleRSS, n) }),
		med(func(r memoryRun) float64 {
			if r.returnedRSS < 0 {
				return math.NaN()
			}
			return perItem(r.returnedRSS, r.idleRSS, n)
		}),
		med(func(r memoryRun) float64 { return perItem(r.gcRSS, r.idleRSS, n) }),
		med(func(r memoryRun) float64 { return perItem(r.gcHeap, r.idleHeap, n) }))
	return nil
}
