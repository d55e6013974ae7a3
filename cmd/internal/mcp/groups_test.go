package mcp

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// maxDefaultToolList bounds the default tool list, as tools/list answers
// it: it goes into every conversation of an agent.
const maxDefaultToolList = 15 << 10

// TestDefaultToolListSize: the default tool list (the core group) is
// under 15 KB of JSON, and every group adds its tools.
func TestDefaultToolListSize(t *testing.T) {
	f := newFixture(t, "memory", Options{Tools: []string{}})
	res, err := f.session.ListTools(testCtx(t), nil)
	require.NoError(t, err)
	b, err := json.Marshal(res)
	require.NoError(t, err)
	t.Logf("default tool list: %d tools, %d bytes", len(res.Tools), len(b))
	require.Less(t, len(b), maxDefaultToolList, "the default tool list grew past 15 KB")
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	require.ElementsMatch(t, toolGroups[0].tools, names)

	all := newFixture(t, "memory", Options{})
	require.Len(t, all.toolNames(), len(all.srv.allTools()), "all lists every tool")
	some := newFixture(t, "memory", Options{Tools: []string{"batch", "partiql"}})
	require.ElementsMatch(t, append(append(append([]string{}, toolGroups[0].tools...), toolGroups[2].tools...), toolGroups[3].tools...), some.toolNames())
}

// TestToolGroups: every tool is in one group; an unknown group is an
// error naming the nearest.
func TestToolGroups(t *testing.T) {
	s := &Server{}
	seen := map[string]string{}
	for _, g := range toolGroups {
		for _, name := range g.tools {
			require.Empty(t, seen[name], "%s is in groups %s and %s", name, seen[name], g.name)
			seen[name] = g.name
		}
	}
	for _, tl := range s.allTools() {
		require.NotEmpty(t, seen[tl.name], "%s is in no group", tl.name)
	}
	require.Len(t, seen, len(s.allTools()), "a group lists a tool that is not there")
	require.ErrorContains(t, Options{Tools: []string{"partqil"}}.Validate(), `no tool group "partqil": did you mean "partiql"?`)
}

// TestInstructions: the handshake's instructions name the groups listed
// and those not, and sum up a design set at start.
func TestInstructions(t *testing.T) {
	f := newFixture(t, "memory", Options{Tools: []string{}})
	got := f.session.InitializeResult().Instructions
	require.Contains(t, got, "Tool groups listed: core")
	require.Contains(t, got, "Not listed yet")
	require.Contains(t, got, "enable_tools lists a group in this session")
	require.NotContains(t, got, "The design (")

	require.NoError(t, f.emu.Reports().SetDesign([]byte(postsDesign)))
	srv, err := New(f.emu, Options{})
	require.NoError(t, err)
	got = srv.instructions()
	require.Contains(t, got, "- table Posts, key pk, sk; index byUser (userId); entities Post")
	require.Contains(t, got, "- posts-by-user: query on byUser where pk = {user}")
}

// TestEnableTools: a session of a server that lists the core group alone
// is refused a snapshot tool with the group that holds it and the call
// that lists it; enable_tools lists the group, the client hears
// notifications/tools/list_changed, and the snapshot is restored, all in
// the one session.
func TestEnableTools(t *testing.T) {
	emu, err := emulator.New(emulator.Options{Clock: fixedNow})
	require.NoError(t, err)
	t.Cleanup(func() { _ = emu.Close() })
	srv, err := New(emu, Options{Tools: []string{}})
	require.NoError(t, err)
	ctx := testCtx(t)
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.SDK().Connect(ctx, st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	changed := make(chan struct{}, 8)
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} }})
	session, err := client.Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = session.Close() })
	require.True(t, session.InitializeResult().Capabilities.Tools.ListChanged, "the server declares tools.listChanged")
	names := func() []string {
		res, err := session.ListTools(ctx, nil)
		require.NoError(t, err)
		var out []string
		for _, tl := range res.Tools {
			out = append(out, tl.Name)
		}
		return out
	}
	require.NotContains(t, names(), "snapshot_restore")

	_, err = session.CallTool(ctx, &sdk.CallToolParams{Name: "snapshot_create", Arguments: map[string]any{}})
	var we *jsonrpc.Error
	require.ErrorAs(t, err, &we)
	require.Equal(t, int64(jsonrpc.CodeInvalidParams), we.Code)
	require.Contains(t, we.Message, `tool "snapshot_create" is in group "snapshots"`)
	require.Contains(t, we.Message, `call enable_tools with {"groups": ["snapshots"]}`)
	_, err = session.CallTool(ctx, &sdk.CallToolParams{Name: "snapshot_restor", Arguments: map[string]any{}})
	require.ErrorContains(t, err, `unknown tool "snapshot_restor": did you mean "snapshot_restore"?`)

	call := func(name string, args map[string]any) string {
		res, err := session.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		require.NoError(t, err, name)
		text := res.Content[0].(*sdk.TextContent).Text
		require.False(t, res.IsError, "%s: %s", name, text)
		return text
	}
	got := call("enable_tools", map[string]any{"groups": []string{"snapshots", "tables"}})
	require.Contains(t, got, `"snapshot_restore"`)
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/tools/list_changed after enable_tools")
	}
	require.Subset(t, names(), []string{"snapshot_create", "snapshot_list", "snapshot_restore", "snapshot_delete", "delete_table"})

	call("create_table", map[string]any{"TableName": "Tab", "BillingMode": "PAY_PER_REQUEST",
		"KeySchema": []any{map[string]any{"AttributeName": "pk", "KeyType": "HASH"}}, "AttributeDefinitions": []any{map[string]any{"AttributeName": "pk", "AttributeType": "S"}}})
	call("put_item", map[string]any{"TableName": "Tab", "Item": map[string]any{"pk": map[string]any{"S": "a"}}})
	snap := call("snapshot_create", map[string]any{"label": "one item"})
	var taken struct{ ID string }
	require.NoError(t, json.Unmarshal([]byte(snap), &taken))
	call("delete_table", map[string]any{"TableName": "Tab"})
	require.Contains(t, call("list_tables", map[string]any{}), `"TableNames":[]`)
	call("snapshot_restore", map[string]any{"id": taken.ID})
	require.Contains(t, call("get_item", map[string]any{"TableName": "Tab", "Key": map[string]any{"pk": map[string]any{"S": "a"}}}), `"a"`)

	again := call("enable_tools", map[string]any{"groups": []string{"snapshots"}})
	require.Contains(t, again, "listed already")
}

// TestEnableToolsReadOnly: a read-only server's enable_tools lists a
// group's reads only, and a write tool is refused as read-only.
func TestEnableToolsReadOnly(t *testing.T) {
	f := newFixture(t, "memory", Options{Tools: []string{}, ReadOnly: true})
	got := f.ok("enable_tools", `{"groups":["snapshots"]}`)
	require.Contains(t, got, `"snapshot_list"`)
	require.NotContains(t, got, `"snapshot_restore"`)
	require.Contains(t, f.toolNames(), "snapshot_list")
	require.NotContains(t, f.toolNames(), "snapshot_restore")
	_, err := f.session.CallTool(testCtx(t), &sdk.CallToolParams{Name: "snapshot_restore", Arguments: map[string]any{"id": "x"}})
	require.ErrorContains(t, err, "read-only")
}

// TestInstructionsNameListedTools: whatever the groups listed, every
// tool the handshake's instructions name is one the server lists, with
// a design set or not.
func TestInstructionsNameListedTools(t *testing.T) {
	f := newFixture(t, "memory", Options{Tools: []string{}})
	require.NoError(t, f.emu.Reports().SetDesign([]byte(postsDesign)))
	var all []string
	for _, tl := range f.srv.allTools() {
		all = append(all, tl.name)
	}
	for _, opts := range []Options{{Tools: []string{}}, {Tools: []string{"snapshots"}}, {Tools: []string{"design"}}, {Tools: []string{AllToolGroups}}, {Tools: []string{AllToolGroups}, ReadOnly: true}} {
		srv, err := New(f.emu, opts)
		require.NoError(t, err)
		text := srv.instructions()
		require.Contains(t, text, "The design (")
		for _, name := range all {
			if regexp.MustCompile(`\b` + name + `\b`).MatchString(text) {
				require.True(t, srv.toolListed(name), "%v: the instructions name %s, which the server does not list:\n%s", opts, name, text)
			}
		}
	}
}
