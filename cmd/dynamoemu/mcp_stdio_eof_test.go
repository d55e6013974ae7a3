package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMCPStdioAnswersBeforeEOF: `dynamoemu mcp` given requests on a
// stdin that then ends (printf ... | dynamoemu mcp) answers each of
// them before it exits, every run. Before, the SDK cancelled the calls
// still in flight when its reader ended, and about half the runs of a
// lone initialize wrote nothing. 5 runs here; 100 with
// DYNAMOEMU_HEAVY_TESTS.
func TestMCPStdioAnswersBeforeEOF(t *testing.T) {
	runs := 5
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" {
		runs = 100
	}
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`
	inputs := map[string]struct {
		in  string
		ids []string
	}{
		"initialize alone": {initialize + "\n", []string{"1"}},
		"initialize, tools/list and ping": {initialize + "\n" +
			`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
			`{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n" +
			`{"jsonrpc":"2.0","id":"three","method":"ping"}` + "\n", []string{"1", "2", `"three"`}},
	}
	for name, tc := range inputs {
		t.Run(name, func(t *testing.T) {
			for run := range runs {
				cmd := exec.Command(serverBinary(t), "mcp", "-logLevel", "error")
				cmd.Env = append(os.Environ(), childEnv+"=server")
				cmd.Stdin = strings.NewReader(tc.in)
				var out, logs bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &logs
				require.NoError(t, cmd.Run(), "run %d; its log:\n%s", run, logs.String())
				var got []string
				sc := bufio.NewScanner(&out)
				sc.Buffer(nil, 1<<20)
				for sc.Scan() {
					var m struct {
						ID    json.RawMessage
						Error json.RawMessage
					}
					require.NoError(t, json.Unmarshal(sc.Bytes(), &m), "run %d: %s", run, sc.Text())
					require.Nil(t, m.Error, "run %d: %s", run, sc.Text())
					got = append(got, string(m.ID))
				}
				require.ElementsMatch(t, tc.ids, got, "run %d: the answers' ids; its log:\n%s", run, logs.String())
			}
		})
	}
}
