package main

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestLocalstackEnv(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	c, err := parseFlagsAs(nil, io.Discard, false, env("SERVICES", "s3, dynamodb", "DYNAMODB_SHARE_DB", "1", "DEBUG", "1"))
	require.NoError(t, err)
	require.True(t, c.localstack.on)
	require.Equal(t, 4566, c.port)
	require.True(t, c.sharedDB)
	require.Equal(t, "debug", c.logLevel)
	require.Empty(t, c.dbPath)

	c, err = parseFlagsAs([]string{"-port", "9000"}, io.Discard, false, env("SERVICES", "dynamodbstreams", "GATEWAY_LISTEN", "0.0.0.0:4510,0.0.0.0:443", "PERSISTENCE", "1"))
	require.NoError(t, err)
	require.Equal(t, 9000, c.port, "-port wins")
	require.Equal(t, "0.0.0.0", c.host)
	require.Equal(t, localstackPersistDir, c.dbPath)

	c, err = parseFlagsAs(nil, io.Discard, false, env("LOCALSTACK_AUTH_TOKEN", "x", "GATEWAY_LISTEN", "4600"))
	require.NoError(t, err)
	require.False(t, c.localstack.on, "a LocalStack token alone names no service")
	require.Equal(t, 8000, c.port)

	c, err = parseFlagsAs([]string{"-localstack"}, io.Discard, false, env("LOCALSTACK_AUTH_TOKEN", "x", "GATEWAY_LISTEN", "4600", "PERSISTENCE", "1", "DYNAMODB_IN_MEMORY", "1"))
	require.NoError(t, err)
	require.True(t, c.localstack.on)
	require.Equal(t, 4600, c.port)
	require.Equal(t, "127.0.0.1", c.host)
	require.Empty(t, c.dbPath)

	c, err = parseFlagsAs(nil, io.Discard, false, env("SERVICES", "s3,sqs"))
	require.NoError(t, err)
	require.False(t, c.localstack.on, "no DynamoDB asked for")
	require.Equal(t, 8000, c.port)

	_, err = parseFlagsAs(nil, io.Discard, false, env("SERVICES", "dynamodb", "GATEWAY_LISTEN", "host:"))
	require.Error(t, err)
	_, err = parseFlagsAs([]string{"-localstack", "-localstackInitTimeout", "0s"}, io.Discard, false, nil)
	require.ErrorContains(t, err, "-localstackInitTimeout")
}

// TestLocalstackServicesNotServed: SERVICES=dynamodb,s3 (LocalStack's
// list) turns the shape on and its start-up log says that S3 is not
// served; SERVICES=dynamodb alone logs no such warning.
func TestLocalstackServicesNotServed(t *testing.T) {
	startLog := func(services string) string {
		t.Helper()
		env := map[string]string{"SERVICES": services}
		c, err := parseFlagsAs([]string{"-localstackInit", t.TempDir()}, io.Discard, false, func(k string) string { return env[k] })
		require.NoError(t, err)
		require.True(t, c.localstack.on)
		var buf bytes.Buffer
		ready := make(chan struct{})
		c.localstack.start(t.Context(), &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 4566}, writerFunc(func(p []byte) (int, error) {
			close(ready)
			return len(p), nil
		}), slog.New(slog.NewTextHandler(&buf, nil)))
		<-ready // "Ready.": the log's start-up lines are written
		return buf.String()
	}
	got := startLog("dynamodb, s3")
	require.Contains(t, got, "level=WARN")
	require.Contains(t, got, "does not serve")
	require.Contains(t, got, "notServed=s3")
	got = startLog("dynamodb")
	require.NotContains(t, got, "level=WARN")
	require.NotContains(t, got, "notServed")
}

// writerFunc is an io.Writer made of a function.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestLocalstackShape: -localstack answers LocalStack's health and init
// endpoints, runs the ready.d scripts with AWS_ENDPOINT_URL naming the
// server, then prints "Ready.".
func TestLocalstackShape(t *testing.T) {
	dir := t.TempDir()
	got := filepath.Join(dir, "endpoint")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "01-first.sh"), []byte("echo \"$AWS_ENDPOINT_URL $AWS_ACCESS_KEY_ID\" > "+got+"\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "02-fails.sh"), []byte("#!/bin/sh\nexit 3\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a script"), 0o644))

	addr, stdout, _ := startServerOut(t, "-localstack", "-localstackInit", dir)
	base := "http://" + addr
	getJSON := func(path string, out any) {
		res, err := http.Get(base + path)
		require.NoError(t, err)
		defer res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode, path)
		require.NoError(t, json.NewDecoder(res.Body).Decode(out))
	}
	var health struct{ Services map[string]string }
	getJSON("/_localstack/health", &health)
	require.Equal(t, map[string]string{"dynamodb": "running", "dynamodbstreams": "running"}, health.Services)

	deadline := time.Now().Add(hangBound)
	for !strings.Contains(stdout.String(), "Ready.") {
		require.True(t, time.Now().Before(deadline), "no Ready.")
		time.Sleep(10 * time.Millisecond)
	}
	var init struct {
		Completed map[string]bool
		Scripts   []initScript
	}
	getJSON("/_localstack/init", &init)
	require.True(t, init.Completed["READY"])
	require.Equal(t, []initScript{{"READY", "01-first.sh", "SUCCESSFUL"}, {"READY", "02-fails.sh", "ERROR"}}, init.Scripts)
	var readyStage struct {
		Completed bool
		Scripts   []initScript
	}
	getJSON("/_localstack/init/ready", &readyStage)
	require.True(t, readyStage.Completed)
	require.Len(t, readyStage.Scripts, 2)

	b, err := os.ReadFile(got)
	require.NoError(t, err)
	require.Equal(t, "http://"+addr+" test\n", string(b))

	res, err := http.Get(base + "/")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, "the rest is AWS's")
}

// TestLocalstackInitScripts: the ready.d scripts LocalStack runs, in its
// order (runtime/init.py walks ready.d top-down, each directory's files
// sorted, then its subdirectories: a name starting with a dot is run, a
// .py file is LocalStack's Python's and is named, not run, other files are
// not scripts); each within -localstackInitTimeout (a hanging one is
// stopped, with its children, marked ERROR and logged, and the next runs);
// a script that calls awslocal when none is on PATH is named before it
// runs; what the scripts left running in the background is gone once the
// server has stopped.
func TestLocalstackInitScripts(t *testing.T) {
	bin := t.TempDir() // only sh and sleep: no awslocal, no aws
	for _, n := range []string{"sh", "sleep"} {
		p, err := exec.LookPath(n)
		require.NoError(t, err)
		require.NoError(t, os.Symlink(p, filepath.Join(bin, n)))
	}
	t.Setenv("PATH", bin)
	out := t.TempDir()
	order, bgPid, hungPid := filepath.Join(out, "order"), filepath.Join(out, "bg.pid"), filepath.Join(out, "hung.pid")
	dir := t.TempDir()
	write := func(name, body string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	write(".hidden.sh", "echo hidden >> "+order+"\n")
	write("01-first.sh", "echo first >> "+order+"\nsleep 1000 &\necho $! > "+bgPid+"\n")
	write("02-hangs.sh", "echo hangs >> "+order+"\nsleep 1000 &\necho $! > "+hungPid+"\nwait\n")
	write("03-awslocal.sh", "echo awslocal >> "+order+"\nawslocal dynamodb list-tables\n")
	write("a-dir/04-nested.sh", "echo nested >> "+order+"\n")
	write("05-seed.py", "print('LocalStack runs this in its own interpreter')\n")
	write("notes.txt", "echo not a script >> "+order+"\n")

	bound := scaled(5 * time.Second)
	addr, stdout, logs, stop := startServerStop(t, "-localstack", "-localstackInit", dir, "-localstackInitTimeout", bound.String())
	deadline := time.Now().Add(hangBound)
	for !strings.Contains(stdout.String(), "Ready.") {
		require.True(t, time.Now().Before(deadline), "no Ready.; logs:\n%s", logs.String())
		time.Sleep(10 * time.Millisecond)
	}
	res, err := http.Get("http://" + addr + "/_localstack/init/ready")
	require.NoError(t, err)
	var st struct{ Scripts []initScript }
	require.NoError(t, json.NewDecoder(res.Body).Decode(&st))
	res.Body.Close()
	require.Equal(t, []initScript{
		{"READY", ".hidden.sh", "SUCCESSFUL"},
		{"READY", "01-first.sh", "SUCCESSFUL"},
		{"READY", "02-hangs.sh", "ERROR"},
		{"READY", "03-awslocal.sh", "ERROR"},
		{"READY", "04-nested.sh", "SUCCESSFUL"},
	}, st.Scripts)
	b, err := os.ReadFile(order)
	require.NoError(t, err)
	require.Equal(t, "hidden\nfirst\nhangs\nawslocal\nnested\n", string(b))
	l := logs.String()
	require.Contains(t, l, "still running after -localstackInitTimeout")
	require.Contains(t, l, "init script calls awslocal, which is not on PATH")
	require.Contains(t, l, "03-awslocal.sh")
	require.Contains(t, l, "a command it runs was not found")
	require.Contains(t, l, "05-seed.py")
	require.NotContains(t, l, "notes.txt")

	hung := readPid(t, hungPid)
	waitExited(t, hung, "the hanging script's child, once the script was stopped")
	bg := readPid(t, bgPid)
	require.False(t, processGone(bg), "a script's background child runs on while the server does, as in LocalStack's container")
	stop()
	waitExited(t, bg, "a script's background child, once the server has stopped")
}

// readPid reads a process id a script wrote.
func readPid(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	return pid
}

// waitExited fails the test unless process pid is gone within hangBound.
func waitExited(t *testing.T, pid int, what string) {
	t.Helper()
	for deadline := time.Now().Add(hangBound); !processGone(pid); {
		require.True(t, time.Now().Before(deadline), "%s (pid %d) still runs", what, pid)
		time.Sleep(20 * time.Millisecond)
	}
}
