package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
)

// TestLoadModel: a NoSQL Workbench model's tables are created with their
// GSIs and sample items, once; a model with a bad sample item creates
// nothing and says which item.
func TestLoadModel(t *testing.T) {
	ctx := context.Background()
	model, err := os.ReadFile("../../../internal/insights/testdata/blog.workbench.json")
	require.NoError(t, err)
	emu, err := emulator.New(emulator.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = emu.Close() })

	got, err := LoadModel(ctx, emu, "", "", model)
	require.NoError(t, err)
	require.Equal(t, []LoadedTable{{Table: "Blog", Created: true, Items: 3}}, got)
	eng := newEngine(emu, "local", "us-east-1")
	var q struct{ Count int }
	_, err = eng.callJSON(ctx, apiDynamoDB, "Query", map[string]any{"TableName": "Blog", "IndexName": "GSI1",
		"KeyConditionExpression": "SK_GSI1PK = :p", "ExpressionAttributeValues": map[string]any{":p": map[string]string{"S": "77fcab6b"}}}, &q)
	require.NoError(t, err)
	require.Equal(t, 2, q.Count, "the comment and the like of the post, through GSI1")

	again, err := LoadModel(ctx, emu, "", "", model)
	require.NoError(t, err)
	require.False(t, again[0].Created)
	require.Contains(t, again[0].Note, "exists")

	bad := strings.Replace(string(model), `"TableName": "Blog"`, `"TableName": "Blog2"`, 1)
	bad = strings.Replace(bad, `"tables": {
      "Blog"`, `"tables": {
      "Blog2"`, 1)
	bad = strings.Replace(bad, `"PK": {
            "S": "81fcab6a"
          },`, ``, 1)
	_, err = LoadModel(ctx, emu, "", "", []byte(bad))
	require.ErrorContains(t, err, `DataModel[0] (Blog2) sample item 1: no "PK", a key attribute of the table`)
	var tables struct{ TableNames []string }
	_, err = eng.callJSON(ctx, apiDynamoDB, "ListTables", map[string]any{}, &tables)
	require.NoError(t, err)
	require.Equal(t, []string{"Blog"}, tables.TableNames, "the bad model created nothing")
}

// TestLoadModelLeavesNothing: a model with one bad sample item (a GSI
// key of the wrong type, an empty key value) or one DynamoDB refuses at
// the put (an item over 400 KB) leaves no table, in memory and under a
// data directory across a restart; the corrected model then loads.
func TestLoadModelLeavesNothing(t *testing.T) {
	ctx := context.Background()
	model, err := os.ReadFile("../../../internal/insights/testdata/blog.workbench.json")
	require.NoError(t, err)
	good := string(model)
	gsi2 := `"GSI2PK": {
            "S": "和田哲也"
          },`
	require.Contains(t, good, gsi2)
	tests := []struct{ name, model, want string }{
		{"a GSI key of the wrong type", strings.Replace(good, gsi2, `"GSI2PK": {"N": "7"},`, 1), `key attribute "GSI2PK" of index GSI2 is N, the model declares it S`},
		{"an empty GSI key", strings.Replace(good, gsi2, `"GSI2PK": {"S": ""},`, 1), `key attribute "GSI2PK" of index GSI2 is empty`},
		{"an item over 400 KB", strings.Replace(good, gsi2, gsi2+`"big": {"S": "`+strings.Repeat("x", 410<<10)+`"},`, 1), "nothing was created"},
	}
	for _, dataDir := range []bool{false, true} {
		for _, tc := range tests {
			t.Run(fmt.Sprintf("%s, dbPath %v", tc.name, dataDir), func(t *testing.T) {
				opts := emulator.Options{}
				if dataDir {
					opts.DataDir = t.TempDir()
				}
				emu, err := emulator.New(opts)
				require.NoError(t, err)
				_, err = LoadModel(ctx, emu, "", "", []byte(tc.model))
				require.ErrorContains(t, err, tc.want)
				tables := func(emu *emulator.Emulator) []string {
					var out struct{ TableNames []string }
					_, err := newEngine(emu, "local", "us-east-1").callJSON(ctx, apiDynamoDB, "ListTables", map[string]any{}, &out)
					require.NoError(t, err)
					return out.TableNames
				}
				require.Empty(t, tables(emu), "the bad model left a table")
				if dataDir {
					require.NoError(t, emu.Close())
					emu, err = emulator.New(opts)
					require.NoError(t, err)
					require.Empty(t, tables(emu), "the bad model left a table on disk")
				}
				t.Cleanup(func() { _ = emu.Close() })
				got, err := LoadModel(ctx, emu, "", "", model)
				require.NoError(t, err)
				require.Equal(t, []LoadedTable{{Table: "Blog", Created: true, Items: 3}}, got, "the corrected model loads")
			})
		}
	}
}

// TestLoadModelNotCounted: load_model (with setDesign) puts the model's
// sample items without the access-pattern report counting them, and
// leaves the report collecting: a put after it is counted, under the
// design's pattern.
func TestLoadModelNotCounted(t *testing.T) {
	model, err := os.ReadFile("../../../internal/insights/testdata/blog.workbench.json")
	require.NoError(t, err)
	f := newFixture(t, "memory", Options{})
	src, err := json.Marshal(string(model))
	require.NoError(t, err)
	require.Contains(t, f.ok("load_model", `{"model":`+string(src)+`,"setDesign":true}`), `"items":3`)
	require.True(t, f.emu.Reports().Reporting(), "the report collects again")
	requests := func() (n int64, costly int) {
		for _, ns := range f.emu.Reports().Access() {
			for _, tr := range ns.Report.Tables {
				for _, r := range tr.Resources {
					n += r.Requests
				}
			}
			costly += len(ns.Report.Costliest)
		}
		return n, costly
	}
	n, costly := requests()
	require.Zero(t, n, "the sample writes counted")
	require.Zero(t, costly)
	f.ok("put_item", `{"TableName":"Blog","Item":{"PK":{"S":"p9"},"SK_GSI1PK":{"S":"post"},"title":{"S":"t"}}}`)
	n, costly = requests()
	require.Equal(t, int64(1), n)
	require.Equal(t, 1, costly)
}
