package mcp

import (
	"context"
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
	model, err := os.ReadFile("../insights/testdata/blog.workbench.json")
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
