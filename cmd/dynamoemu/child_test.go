package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The server as a child process, for the tests that kill it
// (crash_test.go) or damage its files (corrupt_test.go): the test binary
// itself, run again with childEnv set, started with -port 0, its address
// read from its log. Nothing is built while the tests run: go test's
// timeout counts TestMain too, and on a cold build cache a go build of
// the server (every package again, without -race) took most of it on a
// busy 2-core machine. The child is the race-instrumented server, so a
// data race in it fails the test that started it (exit status 66).

// childEnv, in a test binary's environment, makes it a child instead of
// running tests: "server" runs the server's main with the command line;
// "conventions" runs the conventions check (TestConventionsCommand's
// dynamoemu-conventions on PATH); "parent" starts a server with
// -parentPid of its own (TestParentPidKilled).
const childEnv = "DYNAMOEMU_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "server":
		os.Args = childArgs(os.Args)
		main()
		os.Exit(0)
	case "parent":
		runParentChild()
	}
	// The servers the tests start keep their MCP token in the user's
	// configuration directory: a scratch one, not the user's.
	config, err := os.MkdirTemp("", "dynamoemu-config-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("XDG_CONFIG_HOME", config)
	code := m.Run()
	os.RemoveAll(config)
	os.Exit(code)
}

// childArgs is the child server's command line with read and write
// timeouts in front that only catch a hang (5 minutes times
// DYNAMOEMU_TEST_TIMEOUT_SCALE; the 60 s defaults users get are for
// clients that are not starved): the race-instrumented server decodes a
// body of megabytes as it reads it, which on a busy machine can outlast a
// minute. A flag the test gives comes later and wins. A command line that
// starts with a subcommand is left as it is.
func childArgs(args []string) []string {
	if len(args) < 2 || !strings.HasPrefix(args[1], "-") {
		return args
	}
	d := scaled(5 * time.Minute).String()
	return append([]string{args[0], "-readTimeout", d, "-writeTimeout", d}, args[1:]...)
}

// runParentChild is the test binary as TestParentPidKilled's parent: it
// starts the server with -parentPid of its own, prints the server's pid
// and waits to be killed.
func runParentChild() {
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	cmd := exec.Command(self, "-host", "127.0.0.1", "-port", "0", "-logLevel", "error", "-parentPid", strconv.Itoa(os.Getpid()))
	cmd.Env = append(os.Environ(), childEnv+"=server")
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Println(cmd.Process.Pid)
	cmd.Wait()
	os.Exit(1) // the server never stops before its parent
}

// serverBinary returns the path of the server: this test binary, which
// is the server when started with childEnv=server (startBinary sets it).
func serverBinary(t testing.TB) string {
	t.Helper()
	bin, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// child is a running server.
type child struct {
	cmd  *exec.Cmd
	url  string
	logs *syncBuffer // its stderr
	done chan struct{}
}

var listenRE = regexp.MustCompile(`msg="dynamoemu listening" addr=(\S+)`)

// startChild starts the server with args (plus -host 127.0.0.1 -port 0)
// and waits until it listens; it fails the test if it exits first.
func startChild(t testing.TB, args ...string) *child {
	t.Helper()
	c, err := tryStartChild(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// tryStartChild is startChild returning its error, with the logs. A
// server the test leaves running (a failed require before its stop) is
// killed when the test ends.
func tryStartChild(t testing.TB, args ...string) (*child, error) {
	t.Helper()
	c, err := startBinary(serverBinary(t), args...)
	if err == nil {
		t.Cleanup(func() {
			c.kill() // a server already stopped: nothing to do
			// A test that failed on a server that went away (a
			// transport error) says why it went: its log, with any
			// race report of the -race binary.
			if t.Failed() {
				t.Logf("the server at %s (%v); its log:\n%s", c.url, c.cmd.ProcessState, c.logs.String())
			}
		})
	}
	return c, err
}

// startBinary is tryStartChild of the server binary bin.
func startBinary(bin string, args ...string) (*child, error) {
	cmd := exec.Command(bin, append([]string{"-host", "127.0.0.1", "-port", "0"}, args...)...)
	cmd.Env = append(os.Environ(), childEnv+"=server") // a built server ignores it
	pr, pw := io.Pipe()
	c := &child{cmd: cmd, logs: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	addr := make(chan string, 1)
	scanned := make(chan struct{}) // every line of the log is in c.logs
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(pr)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			c.logs.Write([]byte(line + "\n"))
			if m := listenRE.FindStringSubmatch(line); m != nil && !sent {
				addr <- m[1]
				sent = true
			}
		}
	}()
	go func() {
		cmd.Wait()
		pw.Close()
		<-scanned // the last lines, read but not yet logged, before anyone reads the log for why it exited
		close(c.done)
	}()
	select {
	case a := <-addr:
		c.url = "http://" + a
		return c, nil
	case <-c.done:
		return nil, fmt.Errorf("the server exited at start-up (%v); its log:\n%s", cmd.ProcessState, c.logs.String())
	case <-time.After(hangBound):
		c.kill()
		return nil, fmt.Errorf("the server did not start within %v; its log:\n%s", hangBound, c.logs.String())
	}
}

// kill SIGKILLs the server and waits for it to be gone.
func (c *child) kill() {
	c.cmd.Process.Signal(syscall.SIGKILL)
	<-c.done
}

// stop SIGTERMs the server (a clean shutdown) and waits for it.
func (c *child) stop(t testing.TB) {
	t.Helper()
	c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.done:
	case <-time.After(hangBound):
		c.kill()
		t.Fatalf("the server did not stop on SIGTERM; its log:\n%s", c.logs.String())
	}
	if !c.cmd.ProcessState.Success() {
		t.Fatalf("the server exited with %v; its log:\n%s", c.cmd.ProcessState, c.logs.String())
	}
}

// crashAuth is the credential of the tests' namespace.
const crashAuth = "AWS4-HMAC-SHA256 Credential=crash/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00"

// client sends API and admin requests to a child.
type client struct {
	url string
	hc  *http.Client
}

func newClient(url string) *client {
	return &client{url: url, hc: &http.Client{Timeout: hangBound, Transport: &http.Transport{MaxIdleConnsPerHost: 16}}}
}

// errHTTP is an answer other than 200.
type errHTTP struct {
	status int
	body   string
}

func (e *errHTTP) Error() string { return fmt.Sprintf("status %d: %s", e.status, e.body) }

// call sends op with body and decodes a 200 answer into out (nil: not).
// A transport error (the server was killed) is returned as is: the
// request may or may not have been applied. An answer other than 200 is
// an *errHTTP.
func (c *client) call(ctx context.Context, op, body string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url+"/", strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810."+op)
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("Authorization", crashAuth)
	return c.do(req, out)
}

// admin sends a POST to an admin endpoint.
func (c *client) admin(ctx context.Context, path, body string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url+path, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	return c.do(req, nil)
}

func (c *client) do(req *http.Request, out any) error {
	res, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		return &errHTTP{res.StatusCode, string(b)}
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// isTransport reports whether err is not an answer of the server's.
func isTransport(err error) bool {
	var he *errHTTP
	return err != nil && !errors.As(err, &he)
}

// scanAll returns every item of table (or of its index), following
// LastEvaluatedKey.
func (c *client) scanAll(ctx context.Context, table, index string) ([]map[string]map[string]any, error) {
	var items []map[string]map[string]any
	var start json.RawMessage
	for {
		req := map[string]any{"TableName": table, "ConsistentRead": index == ""}
		if index != "" {
			req["IndexName"] = index
		}
		if start != nil {
			req["ExclusiveStartKey"] = start
		}
		b, _ := json.Marshal(req)
		var out struct {
			Items            []map[string]map[string]any
			LastEvaluatedKey json.RawMessage
		}
		if err := c.call(ctx, "Scan", string(b), &out); err != nil {
			return nil, err
		}
		items = append(items, out.Items...)
		if len(out.LastEvaluatedKey) == 0 || bytes.Equal(out.LastEvaluatedKey, []byte("null")) {
			return items, nil
		}
		start = out.LastEvaluatedKey
	}
}
