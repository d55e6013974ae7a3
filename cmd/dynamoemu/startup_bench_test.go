package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkStartup measures how long the server takes from exec to its
// first answered request: it builds the binary once, then per iteration
// starts it on a free port, dials until the port accepts, sends a
// ListTables and reads the answer, and kills it. It reports the median
// and the 90th percentile (ms-to-first-answer, p90-ms) over the
// iterations, and the binary's package initialisation alone
// (init-ms, from GODEBUG=inittrace=1, summed over packages). Wall-clock
// figures suffer when the machine is busy; cpu-ms, the CPU time the
// server used from exec to its first answer (killed at once, its rusage
// read), does not as much: it is the work start-up costs.
//
// BenchmarkStartup/floor does the same with the smallest net/http server
// that answers the request (built from startupFloor): the cost of
// starting any Go HTTP server on this machine, which dynamoemu's figures
// are to be read against. BenchmarkStartup/empty runs an empty Go
// program (func main() {}) to its exit: the cost of starting any Go
// program here, below which no server can start.
//
// Besides time, each reports the median page faults (faults: minor
// faults, each a trap to the kernel, expensive on a virtual machine) and
// context switches (ctxsw, voluntary and not; threads started add to
// them) from exec to the answer.
//
// DYNAMOEMU_STARTUP_BIN=path measures that binary instead of building
// dynamoemu (another build, to compare). DYNAMOEMU_STARTUP_BASE=path
// measures that binary too, started in turn with the other at every
// iteration so that both meet the same load; its figures are reported
// as base-cpu-ms, base-faults, and so on. Both binaries are built with
// CGO_ENABLED=0, as the container image is (buildBinary).
//
//	go test ./cmd/dynamoemu -run '^$' -bench Startup -benchtime 50x
func BenchmarkStartup(b *testing.B) {
	b.Run("dynamoemu", func(b *testing.B) {
		bin := os.Getenv("DYNAMOEMU_STARTUP_BIN")
		if bin == "" {
			bin = buildBinary(b, ".", "")
		}
		bins := []string{bin}
		if base := os.Getenv("DYNAMOEMU_STARTUP_BASE"); base != "" {
			bins = append(bins, base)
		}
		benchStartup(b, bins...)
	})
	b.Run("floor", func(b *testing.B) {
		benchStartup(b, buildProgram(b, startupFloor))
	})
	b.Run("empty", func(b *testing.B) {
		bin := buildProgram(b, "package main\n\nfunc main() {}\n")
		var cpus, faults, ctxsw []float64
		for b.Loop() {
			cmd := exec.Command(bin)
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
			ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
			cpus = append(cpus, float64(ru.Utime.Nano()+ru.Stime.Nano())/1e6)
			faults = append(faults, float64(ru.Minflt))
			ctxsw = append(ctxsw, float64(ru.Nvcsw+ru.Nivcsw))
		}
		b.ReportMetric(median(cpus), "cpu-ms")
		b.ReportMetric(median(faults), "faults")
		b.ReportMetric(median(ctxsw), "ctxsw")
		b.ReportMetric(0, "ns/op")
	})
}

// buildProgram builds the package main of source src (one file, a module
// of its own) as buildBinary does.
func buildProgram(b *testing.B, src string) string {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module floor\n\ngo 1.26\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	return buildBinary(b, ".", dir)
}

// median returns the middle of vs (sorting it).
func median(vs []float64) float64 {
	slices.Sort(vs)
	return vs[len(vs)/2]
}

// startupFloor is the smallest server that answers BenchmarkStartup's
// request, with the flags it is given.
const startupFloor = `package main

import (
	"flag"
	"net"
	"net/http"
	"strconv"
)

func main() {
	port := flag.Int("port", 8000, "")
	host := flag.String("host", "127.0.0.1", "")
	flag.String("logLevel", "", "")
	flag.String("ttlSweepInterval", "", "")
	flag.Parse()
	ln, err := net.Listen("tcp", net.JoinHostPort(*host, strconv.Itoa(*port)))
	if err != nil {
		panic(err)
	}
	http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.Write([]byte(` + "`" + `{"TableNames":[]}` + "`" + `))
	}))
}
`

// buildBinary builds the package pkg (in directory dir, "" for this
// module's) into a temporary file, statically linked (CGO_ENABLED=0) as
// the container image is built (Dockerfile): a binary linked against the
// C library also pays the dynamic loader at every start, about 6 ms of
// CPU here, which says nothing about the server.
func buildBinary(b *testing.B, pkg, dir string) string {
	bin := filepath.Join(b.TempDir(), "server")
	build := exec.Command("go", "build", "-o", bin, pkg)
	build.Dir = dir
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// benchStartup runs BenchmarkStartup's measurement on bin.
// benchStartup runs BenchmarkStartup's measurement on bins, each started
// once per iteration, in turn; the first's figures are reported plainly,
// a second's with "base-" before each unit.
func benchStartup(b *testing.B, bins ...string) {
	type figures struct {
		times, cpus, inits []float64 // ms
		faults, ctxsw      []float64
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	fs := make([]figures, len(bins))
	for b.Loop() {
		for i, bin := range bins {
			d, ru, err := startOnce(bin)
			if err != nil {
				b.Fatal(err)
			}
			f := &fs[i]
			f.times = append(f.times, ms(d))
			f.cpus = append(f.cpus, ms(time.Duration(ru.Utime.Nano()+ru.Stime.Nano())))
			f.faults = append(f.faults, float64(ru.Minflt))
			f.ctxsw = append(f.ctxsw, float64(ru.Nvcsw+ru.Nivcsw))
		}
	}
	for range 10 {
		for i, bin := range bins {
			d, err := initTime(bin)
			if err != nil {
				b.Fatal(err)
			}
			fs[i].inits = append(fs[i].inits, ms(d))
		}
	}
	for i, f := range fs {
		prefix := ""
		if i > 0 {
			prefix = "base-"
		}
		b.ReportMetric(median(f.times), prefix+"ms-to-first-answer")
		slices.Sort(f.times)
		b.ReportMetric(f.times[len(f.times)*9/10], prefix+"p90-ms")
		b.ReportMetric(median(f.cpus), prefix+"cpu-ms")
		b.ReportMetric(median(f.inits), prefix+"init-ms")
		b.ReportMetric(median(f.faults), prefix+"faults")
		b.ReportMetric(median(f.ctxsw), prefix+"ctxsw")
	}
	b.ReportMetric(0, "ns/op")
}

// freePort returns a port nothing listens on (as of now).
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// startOnce runs the server once (with args besides the port) and
// returns the time from exec to its first answer and its resource usage
// until then (killed at once).
func startOnce(bin string, args ...string) (wall time.Duration, ru *syscall.Rusage, err error) {
	port, err := freePort()
	if err != nil {
		return 0, nil, err
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	cmd := exec.Command(bin, append([]string{"-host", "127.0.0.1", "-port", strconv.Itoa(port), "-logLevel", "error", "-ttlSweepInterval", "0"}, args...)...)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, nil, err
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
		if r, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && err == nil {
			ru = r
		}
	}()
	var conn net.Conn
	for {
		if conn, err = net.Dial("tcp", addr); err == nil {
			break
		}
		if time.Since(start) > 2*time.Minute { // a large -dbPath loads first
			return 0, nil, fmt.Errorf("the server did not listen within 2m: %v", err)
		}
		time.Sleep(50 * time.Microsecond)
	}
	defer conn.Close()
	req := "POST / HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/x-amz-json-1.0\r\n" +
		"X-Amz-Target: DynamoDB_20120810.ListTables\r\n" +
		"Authorization: AWS4-HMAC-SHA256 Credential=start/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0\r\n" +
		"Content-Length: 2\r\n\r\n{}"
	if _, err := conn.Write([]byte(req)); err != nil {
		return 0, nil, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, nil, err
	}
	resp.Body.Close()
	wall = time.Since(start)
	if resp.StatusCode != http.StatusOK {
		return 0, nil, fmt.Errorf("ListTables: %s", resp.Status)
	}
	return wall, nil, nil
}

// initTime runs the binary with GODEBUG=inittrace=1 and -h (it exits
// after its packages are initialised) and sums the clock time of every
// package's initialisation.
func initTime(bin string) (time.Duration, error) {
	cmd := exec.Command(bin, "-h")
	cmd.Env = append(cmd.Environ(), "GODEBUG=inittrace=1")
	out, _ := cmd.CombinedOutput()
	var total float64
	for _, line := range strings.Split(string(out), "\n") {
		// init <pkg> @<t> ms, <d> ms clock, <n> bytes, <m> allocs
		f := strings.Fields(line)
		if len(f) >= 7 && f[0] == "init" && f[5] == "ms" && f[6] == "clock," {
			v, err := strconv.ParseFloat(f[4], 64)
			if err != nil {
				return 0, fmt.Errorf("inittrace line %q: %v", line, err)
			}
			total += v
		}
	}
	return time.Duration(total * float64(time.Millisecond)), nil
}
