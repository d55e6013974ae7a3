package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// What the tests share: an emulator and an MCP server over it, a client
// of the SDK connected over one of the two transports, and the state of
// everything a tool may change, to show that a refused call changed
// nothing.

// testToken is the bearer token of the HTTP tests.
const testToken = "test-token-0123456789abcdef"

// transports the tests run over.
var transports = []string{"memory", "http"}

// fixture is a server, its emulator and a connected client session.
type fixture struct {
	t       *testing.T
	emu     *emulator.Emulator
	srv     *Server
	session *sdk.ClientSession
	url     string // the HTTP endpoint, "" in memory
}

// newFixture starts an emulator (reporting on) and an MCP server with
// opts, and connects a client over transport. A nil opts.Tools lists
// every tool group (an empty one, the default group alone).
func newFixture(t *testing.T, transport string, opts Options) *fixture {
	t.Helper()
	if opts.Tools == nil {
		opts.Tools = []string{AllToolGroups}
	}
	mount := &Mount{}
	emu, err := emulator.New(emulator.Options{MCP: mount, Clock: fixedNow})
	require.NoError(t, err)
	t.Cleanup(func() { _ = emu.Close() })
	emu.Reports().SetReporting(true)
	srv, err := New(emu, opts)
	require.NoError(t, err)
	mount.Set(srv.HTTPHandler(testToken))
	f := &fixture{t: t, emu: emu, srv: srv}
	ctx := context.Background()
	client := sdk.NewClient(&sdk.Implementation{Name: "dynamoemu-test", Version: "v0"}, nil)
	var ct sdk.Transport
	switch transport {
	case "memory":
		st, mem := sdk.NewInMemoryTransports()
		ss, err := srv.SDK().Connect(ctx, st, nil)
		require.NoError(t, err)
		t.Cleanup(func() { _ = ss.Close() })
		ct = mem
	case "http":
		hs := httptest.NewServer(emu.Handler())
		t.Cleanup(hs.Close)
		f.url = hs.URL + adminpath.MCP
		ct = &sdk.StreamableClientTransport{Endpoint: f.url, HTTPClient: bearerClient(testToken), MaxRetries: -1}
	default:
		t.Fatalf("transport %q", transport)
	}
	f.session, err = client.Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = f.session.Close() })
	return f
}

// fixedNow is the emulator's clock in the tests: the time never moves
// by itself, so that TTL expiry and snapshot times are the same each run.
func fixedNow() time.Time { return time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC) }

// bearerClient is an http.Client that sends token as a bearer token.
func bearerClient(token string) *http.Client {
	return &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+token)
		return http.DefaultTransport.RoundTrip(r)
	})}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// call calls tool with args (a JSON object) and returns its text and
// whether it was a tool error.
func (f *fixture) call(tool, args string) (string, bool) {
	f.t.Helper()
	var a any
	if args != "" {
		require.NoError(f.t, json.Unmarshal([]byte(args), &a), "args of %s", tool)
	}
	res, err := f.session.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: a})
	require.NoError(f.t, err, "calling %s", tool)
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	return text.String(), res.IsError
}

// ok calls tool and requires it to succeed.
func (f *fixture) ok(tool, args string) string {
	f.t.Helper()
	text, isErr := f.call(tool, args)
	require.False(f.t, isErr, "%s %s: %s", tool, args, text)
	return text
}

// state is everything a tool may change, as text: each table's
// definition, items, TTL and tags, the fault rules, the lag gates, the
// design, the snapshots the server booked and whether the report
// collects.
func (f *fixture) state() string {
	f.t.Helper()
	return f.stateOf(true)
}

// dataState is state without the server's book of snapshots: what a
// restore brings back.
func (f *fixture) dataState() string {
	f.t.Helper()
	return f.stateOf(false)
}

func (f *fixture) stateOf(snapshots bool) string {
	f.t.Helper()
	ctx := context.Background()
	e := f.srv.eng
	var tables struct{ TableNames []string }
	_, err := e.callJSON(ctx, apiDynamoDB, "ListTables", map[string]any{}, &tables)
	require.NoError(f.t, err)
	out := map[string]any{}
	for _, name := range tables.TableNames {
		var d struct {
			Table struct {
				KeySchema, AttributeDefinitions, GlobalSecondaryIndexes, StreamSpecification any
				BillingModeSummary                                                           struct{ BillingMode string }
				TableArn                                                                     string
			}
		}
		_, err := e.callJSON(ctx, apiDynamoDB, "DescribeTable", map[string]string{"TableName": name}, &d)
		require.NoError(f.t, err)
		var scan struct{ Items []json.RawMessage }
		_, err = e.callJSON(ctx, apiDynamoDB, "Scan", map[string]string{"TableName": name}, &scan)
		require.NoError(f.t, err)
		var items []string
		for _, it := range scan.Items {
			var m map[string]any
			require.NoError(f.t, json.Unmarshal(it, &m))
			b, _ := json.Marshal(m) // sorted keys
			items = append(items, string(b))
		}
		sort.Strings(items)
		ttl, err := e.call(ctx, apiDynamoDB, "DescribeTimeToLive", []byte(`{"TableName":"`+name+`"}`))
		require.NoError(f.t, err)
		tags, err := e.callJSON(ctx, apiDynamoDB, "ListTagsOfResource", map[string]string{"ResourceArn": d.Table.TableArn}, nil)
		require.NoError(f.t, err)
		out[name] = map[string]any{"def": d.Table, "items": items, "ttl": ttl, "tags": tags}
	}
	seed, rules := f.emu.Faults().Rules()
	out["~faults"] = map[string]any{"seed": seed, "rules": rules}
	var lags []string
	for _, l := range f.emu.Lags().List() {
		b, _ := json.Marshal(l)
		lags = append(lags, string(b))
	}
	slices.Sort(lags)
	out["~lags"] = lags
	out["~design"] = string(f.emu.Reports().Design())
	if snapshots {
		out["~snapshots"] = f.srv.snaps.list()
	}
	out["~reporting"] = f.emu.Reports().Reporting()
	b, err := json.MarshalIndent(out, "", " ")
	require.NoError(f.t, err)
	return string(b)
}

// testCtx is a test's context.
func testCtx(t *testing.T) context.Context { return t.Context() }
