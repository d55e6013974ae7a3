package main

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// startRun runs the server with args on a free port and returns its
// address and a function that stops it (SIGTERM) and returns its logs.
func startRun(t *testing.T, args ...string) (addr string, stop func() string) {
	t.Helper()
	var logs syncBuffer
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- run(append([]string{"-port", "0"}, args...), io.Discard, &logs, ready) }()
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("run: %v", err)
	case <-time.After(hangBound):
		t.Fatal("server did not start")
	}
	return addr, func() string {
		t.Helper()
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
		return logs.String()
	}
}

func get(t *testing.T, url string) (*http.Response, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

// TestRunConsole: the console is on by default, on the server's port, with
// the version in its config; its URL is in the start-up log.
func TestRunConsole(t *testing.T) {
	addr, stop := startRun(t, "-sharedDb")
	res, body := get(t, "http://"+addr+adminpath.Console)
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || !strings.Contains(body, "<html") {
		t.Errorf("console page: got %d %q %.80q, want 200 text/html", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	if got := res.Header.Get("Dynamoemu-Version"); got != emulator.Version() {
		t.Errorf("console page: got Dynamoemu-Version %q, want %q", got, emulator.Version())
	}
	_, body = get(t, "http://"+addr+adminpath.Console+"config.json")
	if !strings.Contains(body, `"sharedDb":true`) || !strings.Contains(body, `"version":"`+emulator.Version()+`"`) {
		t.Errorf("config.json: got %s, want sharedDb true and version %q", body, emulator.Version())
	}
	// The design matcher its query builder asks is mounted beside it.
	res, err := http.Post("http://"+addr+adminpath.DesignMatch, "application/json", strings.NewReader(`{"namespace":"shared","operation":"Scan","request":{"TableName":"T"}}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(b), `"design":""`) {
		t.Errorf("the design matcher: got %d %s, want 200 and no design", res.StatusCode, b)
	}
	logs := stop()
	_, port, _ := net.SplitHostPort(addr)
	if want := "msg=console url=http://localhost:" + port + adminpath.Console; !strings.Contains(logs, want) {
		t.Errorf("start-up log: want %q in %s", want, logs)
	}
	if want := "version=" + emulator.Version(); !strings.Contains(logs, want) {
		t.Errorf("start-up log: want %q in %s", want, logs)
	}
}

// TestRunConsoleOff: -console=false serves nothing there and logs no URL.
func TestRunConsoleOff(t *testing.T) {
	addr, stop := startRun(t, "-console=false")
	if res, body := get(t, "http://"+addr+adminpath.Console); res.StatusCode != 404 || body != "<UnknownOperationException/>\n" {
		t.Errorf("console off: got %d %s, want 404 <UnknownOperationException/>", res.StatusCode, body)
	}
	if logs := stop(); strings.Contains(logs, "msg=console") {
		t.Errorf("console off: the log names a console: %s", logs)
	}
}

// TestVersionFlag: -version prints the version alone on stdout, as DynamoDB
// Local's does, and serves nothing.
func TestVersionFlag(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run([]string{"-version", "-port", "1"}, &stdout, &stderr, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := stdout.String(), emulator.Version()+"\n"; got != want || stderr.Len() != 0 {
		t.Errorf("got stdout %q, stderr %q; want %q and nothing", got, stderr.String(), want)
	}
}

// TestHelpHost: -help tells what -host does by default (both loopbacks),
// not a default of 127.0.0.1 alone, and lists -console and -version.
func TestHelpHost(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-help"}, io.Discard, &out, nil); !errors.Is(err, flag.ErrHelp) {
		t.Fatal(err)
	}
	help := out.String()
	i := strings.Index(help, "  -host")
	j := strings.Index(help[i+1:], "\n  -")
	hostHelp := help[i : i+1+j]
	if strings.Contains(hostHelp, `(default "127.0.0.1")`) || !strings.Contains(hostHelp, "127.0.0.1 and ::1") {
		t.Errorf("-host help: got %q, want both loopbacks and no default of 127.0.0.1", hostHelp)
	}
	for _, f := range []string{"  -console", "  -version"} {
		if !strings.Contains(help, f) {
			t.Errorf("-help does not list %s", f)
		}
	}
}
