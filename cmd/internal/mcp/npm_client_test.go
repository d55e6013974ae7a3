package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// TestNPMClient runs testdata/npmclient/client.mjs: the MCP TypeScript
// SDK's client (@modelcontextprotocol/sdk from npm, its version pinned by
// the committed package-lock.json) lists the tools and calls three of
// them over streamable HTTP, with the bearer token, and over stdio,
// starting `dynamoemu mcp`; in each session it is refused a snapshot
// tool of a group not listed, lists the group with enable_tools (over
// stdio hearing notifications/tools/list_changed) and restores a
// snapshot, without a restart, and a call nested 1,001 levels deep and
// one of 20 MB fail at once and the session goes on. CI runs it
// (.ci/run) after npm ci in
// testdata/npmclient; without MCP_NPM_TEST it does not run.
func TestNPMClient(t *testing.T) {
	if os.Getenv("MCP_NPM_TEST") == "" {
		t.Skip("set MCP_NPM_TEST=1 after npm ci in cmd/internal/mcp/testdata/npmclient")
	}
	node, err := exec.LookPath("node")
	require.NoError(t, err, "MCP_NPM_TEST is set but node is not on PATH")
	dir, err := filepath.Abs("testdata/npmclient")
	require.NoError(t, err)
	_, err = os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk"))
	require.NoError(t, err, "MCP_NPM_TEST is set but the npm dependencies are missing (npm ci in %s)", dir)

	bin := filepath.Join(t.TempDir(), "dynamoemu")
	build := exec.Command("go", "build", "-o", bin, "../../dynamoemu")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "go build: %s", out)

	mount := &Mount{}
	emu, err := emulator.New(emulator.Options{MCP: mount})
	require.NoError(t, err)
	t.Cleanup(func() { _ = emu.Close() })
	srv, err := New(emu, Options{})
	require.NoError(t, err)
	mount.Set(srv.HTTPHandler(testToken))
	hs := httptest.NewServer(emu.Handler())
	t.Cleanup(hs.Close)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MCP_URL="+hs.URL+adminpath.MCP, "MCP_TOKEN="+testToken, "DYNAMOEMU_BIN="+bin,
		"XDG_CONFIG_HOME="+t.TempDir())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Run(), "client.mjs:\n%s\n%s", stdout.String(), stderr.String())
	t.Logf("client.mjs: %s", stdout.String())

	line, _, _ := strings.Cut(stdout.String(), "\n")
	var summary struct {
		Client   string
		Sessions []struct {
			Transport         string
			Tools, ToolsAfter int
			Calls             []string
			Unlisted          string
			ListChanged       bool
			Restored          string
			Refused           []string
		}
	}
	require.NoError(t, json.Unmarshal([]byte(line), &summary), "the summary line: %q", line)
	require.True(t, strings.HasPrefix(summary.Client, "@modelcontextprotocol/sdk@"), summary.Client)
	require.Len(t, summary.Sessions, 2)
	for i, want := range []string{"http", "stdio"} {
		s := summary.Sessions[i]
		require.Equal(t, want, s.Transport)
		require.Equal(t, len(toolGroups[0].tools), s.Tools, "%s: the tools listed at first: the core group", want)
		require.Equal(t, len(toolGroups[0].tools)+4, s.ToolsAfter, "%s: the tools listed after enable_tools: the snapshots group too", want)
		require.Len(t, s.Calls, 3)
		require.Contains(t, s.Unlisted, "enable_tools", want)
		require.NotEmpty(t, s.Restored, want)
		require.Equal(t, []string{"1,001 levels", "20 MB"}, s.Refused, "%s: the messages too deep and too large failed their calls at once", want)
	}
	require.True(t, summary.Sessions[1].ListChanged, "stdio: no notifications/tools/list_changed")
	// The HTTP session's calls reached this emulator.
	var tables struct{ TableNames []string }
	_, err = srv.eng.callJSON(ctx, apiDynamoDB, "ListTables", map[string]any{}, &tables)
	require.NoError(t, err)
	require.Equal(t, []string{"Orders-http"}, tables.TableNames)
}
