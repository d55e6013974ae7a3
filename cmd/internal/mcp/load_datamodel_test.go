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

// TestLoadDataModel: AWS's DynamoDB MCP data model loads as a Workbench
// model does: its tables (the CreateTable requests as given) with their
// sample items, once; a model with a bad item leaves no table, in memory
// and under a data directory; the corrected model then loads.
func TestLoadDataModel(t *testing.T) {
	ctx := context.Background()
	model, err := os.ReadFile("../../../internal/insights/testdata/blog.dynamodb_data_model.json")
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

	good := string(model)
	gsi2 := `"GSI2PK": {
              "S": "和田哲也"
            },`
	require.Contains(t, good, gsi2)
	tests := []struct{ name, model, want string }{
		{"a GSI key of the wrong type", strings.Replace(good, gsi2, `"GSI2PK": {"N": "7"},`, 1), `items.Blog[0]: key attribute "GSI2PK" of index GSI2 is N, the model declares it S`},
		{"an empty GSI key", strings.Replace(good, gsi2, `"GSI2PK": {"S": ""},`, 1), `key attribute "GSI2PK" of index GSI2 is empty`},
		{"an item of no table", strings.Replace(good, `"items": {`, `"items": {"Nope": [],`, 1), `no table "Nope"`},
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

// FuzzDataModelPlan: reading a data model to load it never panics, and
// a model it accepts has a CreateTable request per table.
func FuzzDataModelPlan(f *testing.F) {
	model, err := os.ReadFile("../../../internal/insights/testdata/blog.dynamodb_data_model.json")
	require.NoError(f, err)
	f.Add(string(model))
	f.Add(`{"tables": [{"TableName": "T", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}], "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}], "BillingMode": "PAY_PER_REQUEST"}], "items": {"T": [{"PutRequest": {"Item": {"pk": {"S": "a"}}}}]}, "access_patterns": []}`)
	f.Add(`{"tables": [], "items": {"T": [{"DeleteRequest": {}}]}}`)
	f.Fuzz(func(t *testing.T, src string) {
		if !isDataModel([]byte(src)) {
			return
		}
		plan, err := dataModelPlan([]byte(src))
		if err != nil {
			return
		}
		for _, lt := range plan {
			if lt.name == "" || !json.Valid(lt.create.(json.RawMessage)) {
				t.Fatalf("%q: a table without a name or request: %+v", src, lt)
			}
		}
	})
}
