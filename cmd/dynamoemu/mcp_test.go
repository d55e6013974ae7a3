package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/adminpath"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// "dynamoemu mcp" over stdin and stdout, and the server's MCP endpoint.

// blogModel is the blog design as a NoSQL Workbench model.
const blogModel = "../../internal/insights/testdata/blog.workbench.json"

// stdioSession runs "dynamoemu mcp args..." in this process on pipes and
// connects the SDK's client to it; closing the session ends the server,
// whose error the returned channel gives.
func stdioSession(t *testing.T, args ...string) (*sdk.ClientSession, <-chan error) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	var logs syncBuffer
	go func() {
		err := runMCP(args, inR, outW, &logs)
		outW.Close()
		done <- err
	}()
	client := sdk.NewClient(&sdk.Implementation{Name: "stdio-test", Version: "v0"}, nil)
	session, err := client.Connect(context.Background(), &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	require.NoError(t, err, "logs: %s", logs.String())
	return session, done
}

// callText calls a tool and returns its text, requiring success.
func callText(t *testing.T, s *sdk.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	res, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err)
	var b strings.Builder
	for _, c := range res.Content {
		b.WriteString(c.(*sdk.TextContent).Text)
	}
	require.False(t, res.IsError, "%s: %s", tool, b.String())
	return b.String()
}

// TestMCPStdio: "dynamoemu mcp" serves the tools on stdin and stdout
// with an engine of its own: -load creates the model's tables, -design
// takes a OneTable schema, -dbPath keeps the tables for the next run,
// and closing stdin ends it cleanly.
func TestMCPStdio(t *testing.T) {
	dir := t.TempDir()
	session, done := stdioSession(t, "-dbPath", dir, "-load", blogModel, "-design", "../../internal/insights/testdata/blog.onetable.json", "-tools", "all")
	res, err := session.ListTools(context.Background(), nil)
	require.NoError(t, err)
	require.Greater(t, len(res.Tools), 40)
	require.Contains(t, session.InitializeResult().Instructions, "The design (onetable)", "the instructions sum the design up")
	require.Contains(t, callText(t, session, "list_tables", nil), `"Blog"`)
	require.Contains(t, callText(t, session, "design_show", nil), `"format":"onetable"`)
	match := callText(t, session, "design_match", map[string]any{"operation": "GetItem",
		"request": map[string]any{"TableName": "Blog", "Key": map[string]any{"PK": map[string]string{"S": "77fcab6b"}, "SK_GSI1PK": map[string]string{"S": "post"}}}})
	require.Contains(t, match, `"pattern":"post-by-id"`)
	callText(t, session, "put_item", map[string]any{"TableName": "Blog", "Item": map[string]any{
		"PK": map[string]string{"S": "p2"}, "SK_GSI1PK": map[string]string{"S": "post"}}})
	require.NoError(t, session.Close())
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(hangBound):
		t.Fatal("dynamoemu mcp did not end when its client went away")
	}

	// The next run finds the table and its items in -dbPath.
	session, done = stdioSession(t, "-dbPath", dir, "-readOnly")
	require.Contains(t, callText(t, session, "scan", map[string]any{"TableName": "Blog", "Select": "COUNT"}), `"Count":4`)
	listed, err := session.ListTools(context.Background(), nil)
	require.NoError(t, err)
	for _, tl := range listed.Tools {
		// enable_tools changes the session's tool list, not the data: not
		// marked read-only, and served in read-only mode.
		require.True(t, tl.Annotations.ReadOnlyHint || tl.Name == "execute_statement" || tl.Name == "enable_tools", "read-only lists %s", tl.Name)
	}
	res2, err := session.CallTool(context.Background(), &sdk.CallToolParams{Name: "delete_table", Arguments: map[string]any{"TableName": "Blog"}})
	if err == nil {
		require.True(t, res2.IsError, "read-only")
	}
	require.Contains(t, callText(t, session, "scan", map[string]any{"TableName": "Blog", "Select": "COUNT"}), `"Count":4`, "the table is still there")
	require.NoError(t, session.Close())
	require.NoError(t, <-done)
}

// TestMCPStdioFlags: the subcommand's bad flags are errors before it
// starts.
func TestMCPStdioFlags(t *testing.T) {
	for _, args := range [][]string{{"-tools", "batch,partqil"}, {"-namespace", "nokey"}, {"-maxItems", "-1"}, {"-durability", "fsync"}, {"stray"}, {"-load", "/nonexistent.json"}} {
		err := runMCP(args, strings.NewReader(""), io.Discard, io.Discard)
		require.Error(t, err, "%v", args)
	}
}

// startServer runs the server with args (and -port 0) and returns its
// address and its logs; it stops at the test's end.
func startServer(t *testing.T, args ...string) (string, *syncBuffer) {
	t.Helper()
	addr, _, logs := startServerOut(t, args...)
	return addr, logs
}

// startServerOut is startServer that also returns what the server
// printed on its standard output (LocalStack's "Ready.").
func startServerOut(t *testing.T, args ...string) (addr string, stdout, logs *syncBuffer) {
	t.Helper()
	addr, stdout, logs, stop := startServerStop(t, args...)
	t.Cleanup(stop)
	return addr, stdout, logs
}

// startServerStop is startServerOut with the server's stop (as on
// SIGTERM; it waits until the server has returned, and fails the test if
// it returned an error), for a test that looks at what the server left
// once stopped.
func startServerStop(t *testing.T, args ...string) (addr string, stdout, logs *syncBuffer, stop func()) {
	t.Helper()
	stdout, logs = &syncBuffer{}, &syncBuffer{}
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- run(append([]string{"-port", "0"}, args...), stdout, logs, ready) }()
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("run: %v\n%s", err, logs.String())
	case <-time.After(hangBound):
		t.Fatal("server did not start")
	}
	var once sync.Once
	return addr, stdout, logs, func() {
		once.Do(func() {
			require.NoError(t, syscall.Kill(syscall.Getpid(), syscall.SIGTERM))
			select {
			case err := <-done:
				require.NoError(t, err)
			case <-time.After(hangBound):
				t.Fatal("server did not stop")
			}
		})
	}
}

// TestMCPOverServer: the server serves MCP at /dynamoemu/mcp with the token given,
// behind the Host check; -load puts the model's tables in the namespace
// the API's clients use.
func TestMCPOverServer(t *testing.T) {
	const token = "server-test-token-0123456789"
	addr, logs := startServer(t, "-mcpToken", token, "-load", blogModel)
	endpoint := "http://" + addr + adminpath.MCP
	require.Contains(t, logs.String(), "MCP server")

	client := sdk.NewClient(&sdk.Implementation{Name: "http-test", Version: "v0"}, nil)
	session, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: endpoint, HTTPClient: tokenClient(token), MaxRetries: -1}, nil)
	require.NoError(t, err)
	defer session.Close()
	require.Contains(t, callText(t, session, "list_tables", nil), `"Blog"`)
	require.Contains(t, callText(t, session, "scan", map[string]any{"TableName": "Blog", "Select": "COUNT"}), `"Count":3`)

	for _, tc := range []struct {
		name, host, auth string
		status           int
	}{
		{"no token", "", "", http.StatusUnauthorized},
		{"a rebinding Host", "evil.example", "Bearer " + token, http.StatusForbidden},
		{"the token", "", "Bearer " + token, http.StatusOK},
	} {
		req, err := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		if tc.host != "" {
			req.Host = tc.host
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, tc.status, resp.StatusCode, tc.name)
	}
}

// TestMCPGeneratedToken: on loopback without -mcpToken the server makes
// a token, keeps it in the user's configuration directory and takes it;
// the next start reuses it.
func TestMCPGeneratedToken(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	path := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "dynamoemu", "mcp-token")
	addr, logs := startServer(t)
	require.Contains(t, logs.String(), "created=true")
	token, err := os.ReadFile(path)
	require.NoError(t, err)
	client := sdk.NewClient(&sdk.Implementation{Name: "generated-token", Version: "v0"}, nil)
	session, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: "http://" + addr + adminpath.MCP,
		HTTPClient: tokenClient(strings.TrimSpace(string(token))), MaxRetries: -1}, nil)
	require.NoError(t, err)
	require.NoError(t, session.Close())
}

// TestMCPMountPolicy: the MCP endpoint is on by default on loopback, off
// with -mcp=false, and off on another -host without a token (a token in
// a file there is no help to a client elsewhere), on with one.
func TestMCPMountPolicy(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	log := slog.New(slog.DiscardHandler)
	tests := []struct {
		name  string
		args  []string
		on    bool
		token string
	}{
		{"loopback", nil, true, ""},
		{"localhost", []string{"-host", "localhost"}, true, ""},
		{"off", []string{"-mcp=false"}, false, ""},
		{"all interfaces without a token", []string{"-host", "0.0.0.0"}, false, ""},
		{"all interfaces with a token", []string{"-host", "0.0.0.0", "-mcpToken", "0123456789abcdef0"}, true, "0123456789abcdef0"},
	}
	for _, tc := range tests {
		c, err := parseFlags(tc.args, io.Discard)
		require.NoError(t, err, tc.name)
		mount, token := mcpMount(c, log)
		require.Equal(t, tc.on, mount != nil, tc.name)
		if tc.token != "" {
			require.Equal(t, tc.token, token, tc.name)
		}
		if tc.on {
			require.GreaterOrEqual(t, len(token), 16, tc.name)
		}
	}
}

// tokenClient sends token as a bearer token.
func tokenClient(token string) *http.Client {
	return &http.Client{Transport: bearer{token}}
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestMCPOffQuietInContainer: on -host 0.0.0.0 without a token (every
// container's start) the MCP endpoint is off with a debug line only; a
// warning is for whoever asked for -mcp.
func TestMCPOffQuietInContainer(t *testing.T) {
	t.Setenv(tokenEnv, "")
	for _, asked := range []bool{false, true} {
		var logs bytes.Buffer
		log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
		c := config{host: "0.0.0.0", hostSet: true, mcp: defaultMCPFlags(), mcpSet: asked}
		mount, _ := mcpMount(c, log)
		require.Nil(t, mount, "no token on 0.0.0.0: off")
		if asked {
			require.Contains(t, logs.String(), "level=WARN msg=\"the MCP endpoint is off: on -host 0.0.0.0 it needs -mcpToken")
		} else {
			require.Empty(t, logs.String(), "not asked for: nothing at info")
		}
	}
}
