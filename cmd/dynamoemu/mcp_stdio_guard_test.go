package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestMCPStdioProcessSurvivesBadMessages: `dynamoemu mcp`, run as a
// process with pipes for stdin and stdout as an agent's host runs it,
// answers a tools/call nested 1,001 levels deep and one of 20 MB (over
// the 16 MiB a message may have) with a JSON-RPC error carrying the
// call's id, and goes on: tools/list is answered after each, and the
// table made before them is still there. Closing stdin ends it with
// status 0.
func TestMCPStdioProcessSurvivesBadMessages(t *testing.T) {
	cmd := exec.Command(serverBinary(t), "mcp", "-logLevel", "warn")
	cmd.Env = append(os.Environ(), childEnv+"=server")
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var logs syncBuffer
	cmd.Stderr = &logs
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	lines := make(chan string)
	go func() {
		r := bufio.NewReaderSize(stdout, 1<<20)
		for {
			l, err := r.ReadString('\n')
			if err != nil {
				close(lines)
				exited <- cmd.Wait()
				return
			}
			lines <- l
		}
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	send := func(msg string) {
		t.Helper()
		_, err := io.WriteString(stdin, msg+"\n")
		require.NoError(t, err, "the process stopped reading; its log:\n%s", logs.String())
	}
	type reply struct {
		ID     json.RawMessage
		Result json.RawMessage
		Error  *struct {
			Code    int
			Message string
		}
	}
	recv := func() reply {
		t.Helper()
		select {
		case l, ok := <-lines:
			require.True(t, ok, "the process ended its output; its log:\n%s", logs.String())
			var r reply
			require.NoError(t, json.Unmarshal([]byte(l), &r), l)
			return r
		case <-time.After(hangBound):
			t.Fatalf("no answer; the log:\n%s", logs.String())
		}
		return reply{}
	}
	call := func(id int, method, params string) reply {
		t.Helper()
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params))
		r := recv()
		require.Equal(t, fmt.Sprint(id), string(r.ID))
		return r
	}

	require.Nil(t, call(1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}`).Error)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	made := call(2, "tools/call", `{"name":"create_table","arguments":{"TableName":"kept","BillingMode":"PAY_PER_REQUEST",`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}]}}`)
	require.Nil(t, made.Error)

	deep := strings.Repeat(`{"a":`, 998) + "1" + strings.Repeat("}", 998) // 1,001 levels with the message, params and arguments
	huge := `{"TableName":"kept","Item":{"pk":{"S":"` + strings.Repeat("x", 20_000_000) + `"}}}`
	for i, tc := range []struct {
		name, args, want string
	}{
		{"1,001 levels", `{"x":` + deep + `}`, "nests deeper than 1000 levels"},
		{"20 MB", huge, "over 16777216 bytes"},
	} {
		id := 10 + i
		r := call(id, "tools/call", `{"name":"put_item","arguments":`+tc.args+`}`)
		require.NotNil(t, r.Error, tc.name)
		require.Equal(t, -32700, r.Error.Code, tc.name)
		require.Contains(t, r.Error.Message, tc.want, tc.name)

		listed := call(20+i, "tools/list", `{}`)
		require.Nil(t, listed.Error, "after %s", tc.name)
		require.Contains(t, string(listed.Result), `"list_tables"`, "after %s", tc.name)
	}
	tables := call(30, "tools/call", `{"name":"list_tables","arguments":{}}`)
	require.Nil(t, tables.Error)
	require.Contains(t, string(tables.Result), `kept`, "the in-memory table outlived the bad messages")
	require.Contains(t, logs.String(), "refused a message on stdin")

	require.NoError(t, stdin.Close())
	select {
	case err := <-exited:
		require.NoError(t, err, "its log:\n%s", logs.String())
	case <-time.After(hangBound):
		t.Fatal("dynamoemu mcp did not end when its stdin closed")
	}
}
