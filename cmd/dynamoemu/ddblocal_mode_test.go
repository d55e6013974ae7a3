package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseFlagsDynamoDBLocalDefaults(t *testing.T) {
	c, err := parseFlagsAs([]string{"-sharedDb"}, io.Discard, true, nil)
	require.NoError(t, err)
	require.Equal(t, "0.0.0.0", c.host, "DynamoDB Local listens on every interface")
	require.Equal(t, ".", c.dbPath, "without -inMemory DynamoDB Local keeps its data in the working directory")
	require.True(t, c.ddbLocalCwd)

	c, err = parseFlagsAs([]string{"-inMemory", "-host", "127.0.0.1"}, io.Discard, true, nil)
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1", c.host)
	require.Empty(t, c.dbPath)

	c, err = parseFlagsAs([]string{"-dbPath", "./data"}, io.Discard, true, nil)
	require.NoError(t, err)
	require.Equal(t, "./data", c.dbPath)
	require.False(t, c.ddbLocalCwd)

	_, err = parseFlagsAs([]string{"-dbPath", "./data", "-inMemory"}, io.Discard, true, nil)
	require.Error(t, err, "DynamoDB Local refuses both too")

	c, err = parseFlags(nil, io.Discard)
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1", c.host, "started as dynamoemu: the loopbacks")
	require.Empty(t, c.dbPath, "started as dynamoemu: in memory")
}

// TestDynamoDBLocalBlock: the block's lines as DynamoDB Local 3.3.0 prints
// them (tab-separated; null for an absent -dbPath or -cors).
func TestDynamoDBLocalBlock(t *testing.T) {
	var b strings.Builder
	c := config{dbPath: ".", ddbLocalCwd: true, sharedDB: true}
	require.NoError(t, printDDBLocalBlock(&b, c, 8000))
	lines := strings.Split(b.String(), "\n")
	require.Equal(t, "Initializing DynamoDB Local with the following configuration:", lines[0])
	require.Equal(t, []string{"Port:\t8000", "InMemory:\tfalse"}, lines[1:3])
	require.True(t, strings.HasPrefix(lines[3], "Version:\tdynamoemu "))
	require.Equal(t, []string{"DbPath:\tnull", "SharedDb:\ttrue", "shouldDelayTransientStatuses:\tfalse", "CorsParams:\tnull", "", ""}, lines[4:])

	b.Reset()
	c = config{cors: "*", delayTransientStatuses: true}
	require.NoError(t, printDDBLocalBlock(&b, c, 9000))
	require.Contains(t, b.String(), "InMemory:\ttrue\n")
	require.Contains(t, b.String(), "DbPath:\tnull\n")
	require.Contains(t, b.String(), "shouldDelayTransientStatuses:\ttrue\nCorsParams:\t*\n")

	b.Reset()
	require.NoError(t, printDDBLocalBlock(&b, config{dbPath: "./data"}, 1))
	require.Contains(t, b.String(), "InMemory:\tfalse\n")
	require.Contains(t, b.String(), "DbPath:\t./data\n")
}

// javaServer is the server binary started with a command line of
// DynamoDB Local's image, as the image's java (cmd/internal/tools) starts it,
// in its own working directory.
type javaServer struct {
	cmd    *exec.Cmd
	dir    string
	port   string
	stderr *syncBuffer
	done   chan struct{}
}

var blockPortRE = regexp.MustCompile(`^Port:\t(\d+)$`)

// startJava starts it and waits as Rust's testcontainers-modules waits
// for DynamoDB Local: for the first line of its start-up block on stdout.
func startJava(t *testing.T, args ...string) *javaServer {
	t.Helper()
	work := t.TempDir()
	cmd := exec.Command(serverBinary(t), append([]string{"-Djava.library.path=./DynamoDBLocal_lib", "-jar", "DynamoDBLocal.jar",
		"-host", "127.0.0.1", "-port", "0"}, args...)...)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), childEnv+"=server") // the test binary as the server (child_test.go)
	s := &javaServer{cmd: cmd, dir: work, stderr: &syncBuffer{}, done: make(chan struct{})}
	cmd.Stderr = s.stderr
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	go func() { cmd.Wait(); close(s.done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(hangBound):
			cmd.Process.Kill()
		}
	})
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	seen := false
	for {
		select {
		case l, ok := <-lines:
			require.True(t, ok, "stdout closed before the block; stderr:\n%s", s.stderr.String())
			if l == "Initializing DynamoDB Local with the following configuration:" {
				seen = true
			}
			if m := blockPortRE.FindStringSubmatch(l); seen && m != nil {
				s.port = m[1]
				go func() {
					for range lines {
					}
				}()
				return s
			}
		case <-time.After(hangBound):
			t.Fatalf("no start-up block; stderr:\n%s", s.stderr.String())
		}
	}
}

// TestJavaCommandLine replays the harnesses' waits against the server
// started through DynamoDB Local's command line: Rust's (the block on
// stdout, startJava), .NET's (GET / answers 400), and the compose health
// check (curl -f .../shell/ passes); the data plane then works, and the
// data is kept in the working directory, as DynamoDB Local keeps it.
func TestJavaCommandLine(t *testing.T) {
	s := startJava(t, "-sharedDb")
	url := "http://127.0.0.1:" + s.port

	res, err := http.Get(url + "/")
	require.NoError(t, err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, http.StatusBadRequest, res.StatusCode, "Testcontainers for .NET waits for 400 on /")
	require.Equal(t, missingAuthBody, string(body))
	require.Equal(t, "application/x-amz-json-1.0", res.Header.Get("Content-Type"))

	res, err = http.Get(url + "/shell/")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, "curl -f /shell/ passes, as the compose health checks run it")

	c := newClient(url)
	require.NoError(t, c.call(t.Context(), "CreateTable", `{"TableName":"tbl","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`, nil))
	require.NoError(t, c.call(t.Context(), "PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"a"},"v":{"N":"1"}}}`, nil))
	var got struct{ Item map[string]map[string]string }
	require.NoError(t, c.call(t.Context(), "GetItem", `{"TableName":"tbl","Key":{"pk":{"S":"a"}}}`, &got))
	require.Equal(t, "1", got.Item["v"]["N"])

	entries, err := os.ReadDir(s.dir)
	require.NoError(t, err)
	require.NotEmpty(t, entries, "the data is in the working directory")
	require.Contains(t, s.stderr.String(), "started through DynamoDB Local's command line")
}

// TestJavaInMemoryAndAWSDefault: -inMemory writes nothing; started as
// dynamoemu, GET / stays AWS's 200.
func TestJavaInMemoryAndAWSDefault(t *testing.T) {
	s := startJava(t, "-inMemory")
	entries, err := os.ReadDir(s.dir)
	require.NoError(t, err)
	require.Empty(t, entries)
	res, err := http.Get("http://127.0.0.1:" + s.port + "/shell/")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)

	addr, _ := startServer(t)
	res, err = http.Get("http://" + addr + "/")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode, "AWS's answer by default")
	res, err = http.Get("http://" + addr + "/shell/")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusNotFound, res.StatusCode)
}

// TestLoadCDKOut: -load takes a cdk.out directory (its *.template.json);
// its tables are there for clients, the resources skipped are logged.
func TestLoadCDKOut(t *testing.T) {
	cdkOut := t.TempDir()
	src, err := os.ReadFile("../../internal/iac/testdata/cdk.template.json")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(cdkOut, "AppStack.template.json"), src, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(cdkOut, "manifest.json"), []byte(`{"version":"36.0.0"}`), 0o644))
	addr, logs := startServer(t, "-sharedDb", "-load", cdkOut)
	var tables struct{ TableNames []string }
	require.NoError(t, newClient("http://"+addr).call(t.Context(), "ListTables", `{}`, &tables))
	require.Equal(t, []string{"SessionsTableA0B1C2D3", "orders"}, tables.TableNames)
	require.Contains(t, logs.String(), "CDKMetadata (AWS::CDK::Metadata)")
}

// TestLoadSAMTemplate: -load takes a SAM template (YAML, short tags).
func TestLoadSAMTemplate(t *testing.T) {
	addr, _ := startServer(t, "-sharedDb", "-load", "../../internal/iac/testdata/sam.yaml")
	var tables struct{ TableNames []string }
	require.NoError(t, newClient("http://"+addr).call(t.Context(), "ListTables", `{}`, &tables))
	require.Equal(t, []string{"orders-dev-us-east-1", "users-dev"}, tables.TableNames)
}
