package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"
)

// TestTokenRequired: the HTTP endpoint answers only a request with the
// bearer token: none or a wrong one is 401, before any MCP message is
// read; the SDK's client cannot connect without it.
func TestTokenRequired(t *testing.T) {
	f := newFixture(t, "http", Options{})
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"0"}}}`
	tests := []struct {
		name, auth string
		status     int
	}{
		{"no token", "", http.StatusUnauthorized},
		{"a wrong token", "Bearer not-the-token-at-all-0000", http.StatusUnauthorized},
		{"the token's prefix", "Bearer " + testToken[:10], http.StatusUnauthorized},
		{"another scheme", "Basic " + testToken, http.StatusUnauthorized},
		{"the token", "Bearer " + testToken, http.StatusOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, f.url, strings.NewReader(initialize))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			require.Equal(t, tc.status, resp.StatusCode)
			if tc.status == http.StatusUnauthorized {
				require.Equal(t, `Bearer realm="dynamoemu"`, resp.Header.Get("WWW-Authenticate"))
			}
		})
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "no-token", Version: "v0"}, nil)
	_, err := client.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: f.url, HTTPClient: bearerClient("wrong-token-0123456789"), MaxRetries: -1}, nil)
	require.Error(t, err)
}

// TestReadOnly: a read-only server lists no tool that changes data or
// the emulator's state, and refuses them and a PartiQL statement that
// writes, and nothing changes; its reads work.
func TestReadOnly(t *testing.T) {
	for _, transport := range transports {
		t.Run(transport, func(t *testing.T) {
			f := newFixture(t, transport, Options{ReadOnly: true})
			// A table and an item to refuse changes to, made behind the
			// server's back.
			_, err := f.srv.eng.call(context.Background(), apiDynamoDB, "CreateTable", []byte(`{"TableName":"Orders","BillingMode":"PAY_PER_REQUEST",
				"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
				"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"}]}`))
			require.NoError(t, err)
			listed := f.toolNames()
			var refused []string
			byName := map[string]*tool{}
			for _, tl := range f.srv.allTools() {
				byName[tl.name] = tl
			}
			before := f.state()
			for _, tc := range toolCases(t) {
				tl := byName[tc.tool]
				require.NotNil(t, tl, tc.tool)
				if !tl.write && (tl.dynamicWrite == nil || !tl.dynamicWrite(json.RawMessage(tc.args))) {
					require.Contains(t, listed, tc.tool, "a read tool is listed")
					continue
				}
				refused = append(refused, tc.tool)
				if tl.write {
					require.NotContains(t, listed, tc.tool, "a read-only server lists a tool it refuses")
				}
				res, err := f.session.CallTool(testCtx(t), &sdk.CallToolParams{Name: tc.tool, Arguments: json.RawMessage(strings.ReplaceAll(tc.args, "{{snap}}", "snap-1"))})
				if err == nil {
					require.True(t, res.IsError, "%s ran on a read-only server", tc.tool)
				}
			}
			text, isErr := f.call("execute_statement", `{"Statement":"DELETE FROM \"Orders\" WHERE pk = 'a' AND sk = 'b'"}`)
			require.True(t, isErr, text)
			require.Contains(t, text, "a statement that writes")
			require.Equal(t, before, f.state(), "a refused call changed something")
			for _, tl := range f.srv.allTools() {
				if tl.write {
					require.Contains(t, refused, tl.name, "every write tool is refused")
				}
			}
			require.Contains(t, refused, "execute_transaction", "a PartiQL transaction that writes is refused")

			require.Contains(t, f.ok("list_tables", `{}`), "Orders")
			require.Contains(t, f.ok("execute_statement", `{"Statement":"SELECT * FROM \"Orders\""}`), `"Items":[]`)
			require.Contains(t, f.ok("scan", `{"TableName":"Orders"}`), `"Count":0`)
		})
	}
}

// TestAutoSnapshot: deleting a table takes a snapshot first, and
// restoring it brings the table and its items back; a batch that deletes
// more items than the threshold takes one, a smaller one does not.
func TestAutoSnapshot(t *testing.T) {
	for _, transport := range transports {
		t.Run(transport, func(t *testing.T) {
			f := newFixture(t, transport, Options{SnapshotDeletes: 2})
			f.ok("create_table", `{"TableName":"Orders","BillingMode":"PAY_PER_REQUEST",
				"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}]}`)
			put := func(ids ...string) string {
				var reqs []string
				for _, id := range ids {
					reqs = append(reqs, fmt.Sprintf(`{"PutRequest":{"Item":{"pk":{"S":"%s"},"n":{"N":"1"}}}}`, id))
				}
				return f.ok("batch_write_item", `{"RequestItems":{"Orders":[`+strings.Join(reqs, ",")+`]}}`)
			}
			del := func(ids ...string) string {
				var reqs []string
				for _, id := range ids {
					reqs = append(reqs, fmt.Sprintf(`{"DeleteRequest":{"Key":{"pk":{"S":"%s"}}}}`, id))
				}
				return f.ok("batch_write_item", `{"RequestItems":{"Orders":[`+strings.Join(reqs, ",")+`]}}`)
			}
			put("a", "b", "c", "d")
			require.NotContains(t, del("a", "b"), "snapshot", "two deletes: under the threshold")
			require.Empty(t, f.srv.snaps.list())
			text := del("c", "d", "e")
			require.Contains(t, text, "snapshot_restore with this id undoes it", "three deletes: a snapshot")
			require.Len(t, f.srv.snaps.list(), 1)
			put("a", "b", "c")

			before := f.dataState()
			text = f.ok("delete_table", `{"TableName":"Orders"}`)
			id := regexp.MustCompile(`snapshot (\S+) taken before this change \(before DeleteTable Orders\)`).FindStringSubmatch(text)
			require.NotNil(t, id, text)
			text, isErr := f.call("describe_table", `{"TableName":"Orders"}`)
			require.True(t, isErr)
			require.Contains(t, text, "ResourceNotFoundException")
			list := f.ok("snapshot_list", `{}`)
			require.Contains(t, list, `"id":"`+id[1]+`"`)
			require.Contains(t, list, `"automatic":true`)

			f.ok("snapshot_restore", `{"id":"`+id[1]+`"}`)
			require.Equal(t, before, f.dataState(), "the restore brings the table and its items back")
			require.Contains(t, f.ok("scan", `{"TableName":"Orders"}`), `"Count":3`)
		})
	}
}

// TestAutoSnapshotsKept: the server keeps the latest automatic
// snapshots only, dropping the older from the emulator too.
func TestAutoSnapshotsKept(t *testing.T) {
	f := newFixture(t, "memory", Options{KeepSnapshots: 2})
	var ids []string
	for i := range 4 {
		e, _ := f.srv.autoSnapshot(fmt.Sprintf("change %d", i))
		ids = append(ids, e.ID)
	}
	kept := f.srv.snaps.list()
	require.Len(t, kept, 2)
	require.Equal(t, []string{ids[2], ids[3]}, []string{kept[0].ID, kept[1].ID})
	require.Error(t, f.emu.Branches().Restore(ids[0]), "the oldest is dropped in the emulator too")
	require.NoError(t, f.emu.Branches().Restore(ids[3]))
}
