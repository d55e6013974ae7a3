package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    config
		wantErr bool
	}{
		{"defaults", nil, config{port: 8000, host: "127.0.0.1", inMemory: true, console: true, logLevel: "info", shutdownGrace: 5 * time.Second, limits: defaultLimits(), store: defaultStoreFlags(), ttlSweepInterval: time.Minute}, false},
		{"dynamodb local flags", []string{"-port", "9000", "-inMemory", "-sharedDb", "-cors", "*", "-delayTransientStatuses"},
			config{port: 9000, portSet: true, host: "127.0.0.1", inMemory: true, console: true, inMemorySet: true, sharedDB: true, cors: "*", delayTransientStatuses: true, logLevel: "info", shutdownGrace: 5 * time.Second, limits: defaultLimits(), store: defaultStoreFlags(), ttlSweepInterval: time.Minute}, false},
		{"dynamodb local storage and telemetry flags", []string{"-dbPath", "/tmp/x", "-disableTelemetry", "-optimizeDbBeforeStartup"},
			config{port: 8000, host: "127.0.0.1", inMemory: true, console: true, logLevel: "info", shutdownGrace: 5 * time.Second, dbPath: "/tmp/x", disableTelemetry: true, optimizeDbBeforeStartup: true, limits: defaultLimits(), store: defaultStoreFlags(), ttlSweepInterval: time.Minute}, false},
		{"limits", []string{"-readTimeout", "5s", "-writeTimeout", "6s", "-idleTimeout", "7s", "-maxHeaderBytes", "8192", "-maxInFlight", "10", "-memoryLimit", "1073741824", "-idempotencyBytes", "1048576"},
			config{port: 8000, host: "127.0.0.1", inMemory: true, console: true, logLevel: "info", shutdownGrace: 5 * time.Second, limits: limitFlags{5 * time.Second, 6 * time.Second, 7 * time.Second, 8192, 10, 1 << 30, 1 << 20, -1, 256 << 20}, store: defaultStoreFlags(), ttlSweepInterval: time.Minute}, false},
		{"allowHost repeated and listed", []string{"-allowHost", "a.example, b.example", "-allowHost", "*.c.example"},
			config{port: 8000, host: "127.0.0.1", inMemory: true, console: true, logLevel: "info", shutdownGrace: 5 * time.Second, limits: defaultLimits(), store: defaultStoreFlags(), ttlSweepInterval: time.Minute,
				allowHosts: hostList{"a.example", "b.example", "*.c.example"}}, false},
		{"console off, version", []string{"-console=false", "-version"},
			config{port: 8000, host: "127.0.0.1", inMemory: true, version: true, logLevel: "info", shutdownGrace: 5 * time.Second, limits: defaultLimits(), store: defaultStoreFlags(), ttlSweepInterval: time.Minute}, false},
		{"host given", []string{"-host", "0.0.0.0"},
			config{port: 8000, host: "0.0.0.0", hostSet: true, inMemory: true, console: true, logLevel: "info", shutdownGrace: 5 * time.Second, limits: defaultLimits(), store: defaultStoreFlags(), ttlSweepInterval: time.Minute}, false},
		{"allowHost with a port", []string{"-allowHost", "a.example:8000"}, config{}, true},
		{"allowHost not a name", []string{"-allowHost", "http://a.example"}, config{}, true},
		{"zero timeout", []string{"-readTimeout", "0s"}, config{}, true},
		{"negative in-flight limit", []string{"-maxInFlight", "-1"}, config{}, true},
		{"no room for tokens", []string{"-idempotencyBytes", "0"}, config{}, true},
		{"ttl sweeper off", []string{"-ttlSweepInterval", "0"}, config{port: 8000, host: "127.0.0.1", inMemory: true, console: true, logLevel: "info", shutdownGrace: 5 * time.Second, limits: defaultLimits(), store: defaultStoreFlags()}, false},
		{"dbPath and its flags", []string{"-dbPath", "/tmp/x", "-durability", "group", "-groupCommitWindow", "5ms", "-dbCompactBytes", "1024"},
			config{port: 8000, host: "127.0.0.1", inMemory: true, console: true, logLevel: "info", shutdownGrace: 5 * time.Second, dbPath: "/tmp/x", limits: defaultLimits(), ttlSweepInterval: time.Minute,
				store: storeFlags{durability: "group", groupCommitWindow: 5 * time.Millisecond, compactBytes: 1024}}, false},
		{"dbPath and inMemory", []string{"-dbPath", "/tmp/x", "-inMemory"}, config{}, true},
		{"inMemory false without dbPath", []string{"-inMemory=false"}, config{}, true},
		{"unknown durability", []string{"-dbPath", "/tmp/x", "-durability", "fsync"}, config{}, true},
		{"zero group window", []string{"-groupCommitWindow", "0s"}, config{}, true},
		{"bad port", []string{"-port", "70000"}, config{}, true},
		{"stray argument", []string{"x"}, config{}, true},
		{"unknown flag", []string{"-nope"}, config{}, true},
		{"net/http alone", []string{"-httpLoop", "std"},
			config{port: 8000, host: "127.0.0.1", inMemory: true, console: true, logLevel: "info", shutdownGrace: 5 * time.Second, limits: defaultLimits(), store: defaultStoreFlags(), ttlSweepInterval: time.Minute, httpLoop: "std"}, false},
		{"unknown loop", []string{"-httpLoop", "fast"}, config{}, true},
		{"mcp flags", []string{"-mcp=false", "-mcpToken", "0123456789abcdefgh", "-mcpReadOnly", "-mcpMaxItems", "5", "-mcpMaxBytes", "4096", "-mcpSnapshotDeletes", "-1", "-mcpNamespace", "k/eu-west-1", "-load", "m.json"},
			config{port: 8000, host: "127.0.0.1", inMemory: true, console: true, logLevel: "info", shutdownGrace: 5 * time.Second, limits: defaultLimits(), store: defaultStoreFlags(), ttlSweepInterval: time.Minute, mcpSet: true,
				mcp: mcpFlags{token: "0123456789abcdefgh", readOnly: true, maxItems: 5, maxBytes: 4096, snapshotDeletes: -1, namespace: "k/eu-west-1", load: "m.json"}}, false},
		{"a short mcp token", []string{"-mcpToken", "short"}, config{}, true},
		{"an mcp namespace without region", []string{"-mcpNamespace", "local"}, config{}, true},
		{"a tiny byte cap", []string{"-mcpMaxBytes", "100"}, config{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want.httpLoop == "" {
				tt.want.httpLoop = "own" // the default
			}
			if tt.want.mcp == (mcpFlags{}) {
				tt.want.mcp = defaultMCPFlags()
			}
			tt.want.localstack.initTimeout = localstackDefaultInitTimeout
			got, err := parseFlags(tt.args, io.Discard)
			if (err != nil) != tt.wantErr {
				t.Fatalf("got error %v, want error %v", err, tt.wantErr)
			}
			if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestCORSOption(t *testing.T) {
	c := config{cors: "http://a.test, http://b.test"}
	if got := c.options(nil).CORSOrigins; !reflect.DeepEqual(got, []string{"http://a.test", "http://b.test"}) {
		t.Fatalf("got %q", got)
	}
	if got := (config{}).options(nil).CORSOrigins; got != nil {
		t.Fatalf("no -cors: got %q", got)
	}
}

// TestStreamHandlerTargetFlags: -streamHandlerFileDir and
// -streamHandlerRemote reach the emulator's options, off by default; a
// directory that does not exist stops the server before it listens.
func TestStreamHandlerTargetFlags(t *testing.T) {
	dir := t.TempDir()
	c, err := parseFlags([]string{"-streamHandlerFileDir", dir, "-streamHandlerRemote"}, io.Discard)
	require.NoError(t, err)
	opts := c.options(nil)
	require.Equal(t, dir, opts.StreamHandlerFileDir)
	require.True(t, opts.StreamHandlerRemote)
	c, err = parseFlags(nil, io.Discard)
	require.NoError(t, err)
	opts = c.options(nil)
	require.Empty(t, opts.StreamHandlerFileDir)
	require.False(t, opts.StreamHandlerRemote)
	err = run([]string{"-port", "0", "-streamHandlerFileDir", filepath.Join(dir, "missing")}, io.Discard, io.Discard, nil)
	require.ErrorContains(t, err, "StreamHandlerFileDir")
}

func TestHelp(t *testing.T) {
	var out bytes.Buffer
	err := run([]string{"-help"}, io.Discard, &out, nil)
	if !errors.Is(err, flag.ErrHelp) || !strings.Contains(out.String(), "-sharedDb") {
		t.Fatalf("got %v, %q", err, out.String())
	}
}

// syncBuffer is a bytes.Buffer safe for the server goroutine's logs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestRunServesAndStops(t *testing.T) {
	var logs syncBuffer
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- run([]string{"-port", "0"}, io.Discard, &logs, ready) }()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("run: %v", err)
	case <-time.After(hangBound):
		t.Fatal("server did not start")
	}
	res, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET /: got %d, want 200 (healthy)", res.StatusCode)
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run: %v", err)
		}
	case <-time.After(hangBound):
		t.Fatal("server did not stop on SIGTERM")
	}
	if out := logs.String(); !strings.Contains(out, "dynamoemu listening") || !strings.Contains(out, "shutting down") {
		t.Fatalf("logs: %s", out)
	}
}

// hangBound is how long the tests that start the server (in this process
// or as a child) wait for it to start, stop or answer: a bound that
// catches a hang, generous for a loaded machine (they wait for the
// event, never a fixed time), times DYNAMOEMU_TEST_TIMEOUT_SCALE.
var hangBound = scaled(2 * time.Minute)

// timeScaleEnv scales the tests' bounds: on a machine slower or busier
// than a shared 2-core one, set it above 1 (DYNAMOEMU_TEST_TIMEOUT_SCALE=3).
const timeScaleEnv = "DYNAMOEMU_TEST_TIMEOUT_SCALE"

// scaled is d times the scale timeScaleEnv gives (1 when unset or not a
// positive number).
func scaled(d time.Duration) time.Duration {
	if f, err := strconv.ParseFloat(os.Getenv(timeScaleEnv), 64); err == nil && f > 0 {
		return time.Duration(float64(d) * f)
	}
	return d
}

// heavyTests reports whether DYNAMOEMU_HEAVY_TESTS is set (CI sets it):
// the randomized tests then run their long versions.
func heavyTests() bool { return os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" }
