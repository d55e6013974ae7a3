package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

func main() {
	if err := runMain(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "dynamoemu-bench:", err)
		os.Exit(1)
	}
}

// config is the command line.
type config struct {
	endpoint    string
	pid         int
	ops         []string
	concurrency []int
	duration    time.Duration
	warmup      time.Duration
	requests    int // > 0: each client sends this many requests per run, all measured
	partitions  int
	strict      bool
	accessKey   string
	preload     int  // load this many items by BatchWriteItem instead of -ops (preload.go)
	memory      int  // start the emulator, load this many items, report its memory (memory.go)
	runs        int  // -memory's rounds
	gsi         bool // -memory: the table has one global secondary index
	restart     int  // time the restart of a -dbPath server of this many items (restart.go)
	compressed  int  // send this many gzip bodies at once, report the server's memory (compressed.go)

	matrix      bool
	targets     []string
	emulatorBin string
	ddbLocal    string
	dynaliteDir string
	out         string

	serveFloor string // internal: run the floor server on this address
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	c := config{}
	fs := flag.NewFlagSet("dynamoemu-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	ops := fs.String("ops", strings.Join(opNames, ","), "operations to run: "+strings.Join(opNames, ", "))
	conc := fs.String("concurrency", "1,8", "concurrent clients, a comma-separated list (each a run)")
	targets := fs.String("targets", "dynamoemu,dynamodb-local,dynalite,floor", "-matrix: servers to measure")
	fs.StringVar(&c.endpoint, "endpoint", "", "the server to measure (http://host:port); or use -matrix")
	fs.IntVar(&c.pid, "pid", 0, "the server's process id on this machine: report its CPU time per request (from /proc)")
	fs.DurationVar(&c.duration, "duration", 5*time.Second, "measured time per operation and concurrency")
	fs.DurationVar(&c.warmup, "warmup", time.Second, "unmeasured time before each measurement")
	fs.IntVar(&c.requests, "requests", 0, "each client sends this many requests per run, all measured, with keys from a fixed seed, instead of -duration and -warmup (for counts that must not depend on time, as .ci/compare -instructions takes)")
	fs.IntVar(&c.partitions, "partitions", 100, "partitions of 10 items the table holds")
	fs.BoolVar(&c.strict, "strict", true, "check that answers hold the keys asked for (off for canned answers)")
	fs.StringVar(&c.accessKey, "accessKey", "", "access key to send (default: a fresh one, an empty namespace)")
	fs.IntVar(&c.preload, "preload", 0, "instead of -ops: write this many items into a fresh table by BatchWriteItem of 25 from each -concurrency clients, check every answer, report the time, items/s and server CPU per item")
	fs.IntVar(&c.memory, "memory", 0, "instead of -ops: start the emulator (built here, or -emulator-bin), load this many items by BatchWriteItem of 25 from the first -concurrency clients (4 unless given), report its resident memory per item once loaded, 10 s later and after a collection (SIGUSR1), with its live heap")
	fs.IntVar(&c.runs, "runs", 3, "-memory, -restart, -compressed: rounds, each a fresh server; the medians are printed")
	fs.IntVar(&c.restart, "restart", 0, "instead of -ops: load this many items into a -dbPath server of each build of -emulator-bin (comma-separated; default built here), stop it, and time -runs restarts of each, interleaved, from exec to the first DescribeTable and GetItem that find the table")
	fs.IntVar(&c.compressed, "compressed", 0, "instead of -ops: start the emulator (built here, or -emulator-bin) with its default request budget, send this many gzip BatchWriteItems that each inflate to 10 MB at once, each on its own connection and all at once, and report the answers and its peak resident memory over idle (bound: the budget and 64 MiB)")
	fs.BoolVar(&c.gsi, "gsi", false, "-memory: the table has one global secondary index (by email, KEYS_ONLY; an index partition of 10 items, as the table's)")
	fs.BoolVar(&c.matrix, "matrix", false, "start the servers of -targets here and measure them all, interleaved; print a Markdown table")
	fs.StringVar(&c.emulatorBin, "emulator-bin", "", "-matrix: the dynamoemu binary (default: built from this module)")
	fs.StringVar(&c.ddbLocal, "dynamodb-local", "private", "-matrix: private (start one, with conformance/oracle/dynamodb-local.sh) or shared (the running one; its CPU time includes other clients')")
	fs.StringVar(&c.dynaliteDir, "dynalite-dir", filepath.Join(os.TempDir(), "dynamoemu-bench-dynalite"), "-matrix: where dynalite is installed with npm (outside the repository)")
	fs.StringVar(&c.out, "out", "", "-matrix: also write the table to this file")
	fs.StringVar(&c.serveFloor, "serve-floor", "", "run the floor server (canned answers) on this address and print its URL")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	for _, op := range strings.Split(*ops, ",") {
		if op = strings.TrimSpace(op); op == "" {
			continue
		}
		if !contains(opNames, op) {
			return c, fmt.Errorf("-ops: unknown operation %q (known: %s)", op, strings.Join(opNames, ", "))
		}
		c.ops = append(c.ops, op)
	}
	if c.memory > 0 && !flagSet(fs, "concurrency") {
		*conc = "4"
	}
	for _, f := range strings.Split(*conc, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 1024 {
			return c, fmt.Errorf("-concurrency: %q is not a number of clients from 1 to 1024", f)
		}
		c.concurrency = append(c.concurrency, n)
	}
	for _, t := range strings.Split(*targets, ",") {
		if t = strings.TrimSpace(t); t != "" {
			if !contains([]string{"dynamoemu", "dynamodb-local", "dynalite", "floor"}, t) {
				return c, fmt.Errorf("-targets: unknown server %q", t)
			}
			c.targets = append(c.targets, t)
		}
	}
	return c, c.check()
}

// check refuses flags that do not go together or out of range.
func (c config) check() error {
	switch {
	case c.serveFloor != "":
	case c.memory > 0 || c.restart > 0 || c.compressed > 0:
		if c.matrix || c.endpoint != "" || c.runs < 1 {
			return errors.New("-memory, -restart and -compressed start their own servers: give neither -matrix nor -endpoint, and -runs of at least 1")
		}
	case c.matrix && c.endpoint != "":
		return errors.New("-matrix starts its own servers: give -matrix or -endpoint, not both")
	case !c.matrix && c.endpoint == "":
		return errors.New("give -endpoint URL (a running server) or -matrix")
	}
	if c.ddbLocal != "private" && c.ddbLocal != "shared" {
		return fmt.Errorf("-dynamodb-local: %q is neither private nor shared", c.ddbLocal)
	}
	if c.requests < 0 {
		return errors.New("-requests: a number of requests")
	}
	if c.preload < 0 || c.memory < 0 || c.restart < 0 || c.compressed < 0 {
		return errors.New("-preload, -memory, -restart, -compressed: a number of items or bodies")
	}
	if c.partitions < 10 || c.duration <= 0 || c.warmup < 0 {
		return errors.New("-partitions must be at least 10 (Scan reads 100 items), -duration positive")
	}
	return nil
}

const usage = `Usage: dynamoemu-bench -endpoint URL [flags]
       dynamoemu-bench -matrix [flags]

Measures a DynamoDB-compatible server with the DynamoDB JSON protocol over
HTTP: put, get, query, update, scan, scanfilter, batch and mixed requests
at a fixed concurrency, every answer checked; it reports requests per
second, the median and 99th percentile latency and, given the server's -pid, the
server's CPU time per request. -matrix starts dynamoemu, DynamoDB Local,
dynalite and a canned-answer floor here and prints one Markdown table.

`

// flagSet reports whether the command line gave flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func runMain(args []string, stdout, stderr io.Writer) error {
	c, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	if c.serveFloor != "" {
		return serveFloor(c.serveFloor)
	}
	if c.memory > 0 {
		return runMemory(c, stdout, stderr)
	}
	if c.restart > 0 {
		return runRestart(c, stdout, stderr)
	}
	if c.compressed > 0 {
		return runCompressed(c, stdout, stderr)
	}
	if c.matrix {
		return runMatrix(c, stdout, stderr)
	}
	t := &target{name: c.endpoint, url: c.endpoint, pid: c.pid, strict: c.strict, about: c.endpoint}
	return measure(c, []*target{t}, stdout, stderr)
}
