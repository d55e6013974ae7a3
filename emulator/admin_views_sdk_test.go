package emulator_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// adminGet sends GET path to e's handler (with origin as its Origin
// header, "" none) and returns the status and the decoded JSON body.
func adminGet(t *testing.T, e *emulator.Emulator, path, origin string) (int, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "http://localhost:8000"+path, nil)
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	rec := httptest.NewRecorder()
	e.Handler().ServeHTTP(rec, req)
	var out map[string]any
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out), "GET %s: %s", path, rec.Body.String())
	return rec.Code, out
}

// keyTable creates a table keyed by pk (S) alone.
func keyTable(t *testing.T, c *dynamodb.Client, name string) {
	t.Helper()
	_, err := c.CreateTable(context.Background(), &dynamodb.CreateTableInput{
		TableName:            &name,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	})
	require.NoError(t, err)
}

// putPK writes {pk, v} to table.
func putPK(t *testing.T, c *dynamodb.Client, table, pk, v string) {
	t.Helper()
	_, err := c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: &table, Item: map[string]types.AttributeValue{
		"pk": &types.AttributeValueMemberS{Value: pk}, "v": &types.AttributeValueMemberS{Value: v}}})
	require.NoError(t, err)
}

// TestNamespacesEndpoint: GET /dynamoemu/namespaces lists the namespaces
// that hold tables, with their counts; one that only read, or whose
// tables are gone, is not listed; a page of another origin is refused.
func TestNamespacesEndpoint(t *testing.T) {
	e, err := emulator.New(emulator.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { e.Close() })
	ctx := context.Background()
	app := emulatortest.Client(t, e, "app")
	tools := emulatortest.Client(t, e, "tools")
	reader := emulatortest.Client(t, e, "reader")
	keyTable(t, app, "Orders")
	keyTable(t, app, "Users")
	putPK(t, app, "Orders", "o1", "x")
	putPK(t, app, "Orders", "o2", "x")
	keyTable(t, tools, "Gone")
	_, err = tools.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("Gone")})
	require.NoError(t, err)
	_, err = reader.ListTables(ctx, &dynamodb.ListTablesInput{})
	require.NoError(t, err)

	status, out := adminGet(t, e, adminpath.Namespaces, "")
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, map[string]any{"sharedDb": false, "namespaces": []any{
		map[string]any{"namespace": "app/us-east-1", "accessKey": "app", "region": "us-east-1", "tables": float64(2), "items": float64(2)},
	}}, out)

	keyTable(t, tools, "Jobs")
	_, out = adminGet(t, e, adminpath.Namespaces, "")
	require.Len(t, out["namespaces"], 2)
	require.Equal(t, "tools/us-east-1", out["namespaces"].([]any)[1].(map[string]any)["namespace"])

	status, _ = adminGet(t, e, adminpath.Namespaces, "http://evil.example")
	require.Equal(t, http.StatusForbidden, status, "a page of another origin")
	status, _ = adminGet(t, e, adminpath.Namespaces, "http://localhost:8000")
	require.Equal(t, http.StatusOK, status, "the server's own origin (the console)")
}

// TestNamespacesEndpointShared: with -sharedDb the one namespace is "shared".
func TestNamespacesEndpointShared(t *testing.T) {
	e, c := emulatortest.NewWith(t, emulator.Options{SharedDB: true})
	keyTable(t, c, "Things")
	_, out := adminGet(t, e, adminpath.Namespaces, "")
	require.Equal(t, map[string]any{"sharedDb": true, "namespaces": []any{
		map[string]any{"namespace": "shared", "tables": float64(1), "items": float64(0)},
	}}, out)
}

// TestSnapshotListAndDiff: the kept snapshots are listed with what they
// hold, and a diff against now names every table added, removed,
// changed or unchanged and, item by item, what was added, removed and
// modified, with both images.
func TestSnapshotListAndDiff(t *testing.T) {
	e, err := emulator.New(emulator.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { e.Close() })
	ctx := context.Background()
	a := emulatortest.Client(t, e, "a")
	b := emulatortest.Client(t, e, "b")
	keyTable(t, a, "Kept")
	keyTable(t, a, "Edited")
	keyTable(t, a, "Dropped")
	keyTable(t, b, "Other")
	putPK(t, a, "Kept", "k1", "1")
	putPK(t, a, "Edited", "same", "1")
	putPK(t, a, "Edited", "changed", "old")
	putPK(t, a, "Edited", "deleted", "1")
	putPK(t, a, "Dropped", "d1", "1")
	id := e.Branches().Snapshot()

	_, list := adminGet(t, e, adminpath.Snapshots, "")
	snaps := list["snapshots"].([]any)
	require.Len(t, snaps, 1)
	require.Equal(t, id, snaps[0].(map[string]any)["id"])
	require.Equal(t, []any{
		map[string]any{"namespace": "a/us-east-1", "tables": float64(3), "items": float64(5)},
		map[string]any{"namespace": "b/us-east-1", "tables": float64(1), "items": float64(0)},
	}, snaps[0].(map[string]any)["namespaces"])

	putPK(t, a, "Edited", "changed", "new")
	putPK(t, a, "Edited", "added", "1")
	_, err = a.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: aws.String("Edited"), Key: map[string]types.AttributeValue{"pk": &types.AttributeValueMemberS{Value: "deleted"}}})
	require.NoError(t, err)
	putPK(t, a, "Kept", "k1", "1") // rewritten as it was: not a change
	_, err = a.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String("Dropped")})
	require.NoError(t, err)
	keyTable(t, a, "New")
	putPK(t, a, "New", "n1", "1")

	_, diff := adminGet(t, e, adminpath.Snapshots+"/"+id+"/diff?namespace=a/us-east-1", "")
	spaces := diff["namespaces"].([]any)
	require.Len(t, spaces, 1, "one namespace asked for")
	tables := spaces[0].(map[string]any)["tables"].([]any)
	got := map[string]map[string]any{}
	for _, x := range tables {
		got[x.(map[string]any)["table"].(string)] = x.(map[string]any)
	}
	tests := []struct {
		table, change              string
		then, now, add, rm, modify float64
	}{
		{"Dropped", "removed", 1, 0, 0, 1, 0},
		{"Edited", "changed", 3, 3, 1, 1, 1},
		{"Kept", "unchanged", 1, 1, 0, 0, 0},
		{"New", "added", 0, 1, 1, 0, 0},
	}
	require.Len(t, got, len(tests))
	for _, tc := range tests {
		d := got[tc.table]
		require.Equal(t, tc.change, d["change"], tc.table)
		require.Equal(t, []float64{tc.then, tc.now, tc.add, tc.rm, tc.modify},
			[]float64{d["itemsThen"].(float64), d["itemsNow"].(float64), d["added"].(float64), d["removed"].(float64), d["modified"].(float64)}, tc.table)
	}
	items := map[string]map[string]any{}
	for _, x := range got["Edited"]["items"].([]any) {
		items[x.(map[string]any)["change"].(string)] = x.(map[string]any)
	}
	require.Equal(t, map[string]any{"pk": map[string]any{"S": "changed"}}, items["modified"]["key"])
	require.Equal(t, map[string]any{"pk": map[string]any{"S": "changed"}, "v": map[string]any{"S": "old"}}, items["modified"]["old"])
	require.Equal(t, map[string]any{"pk": map[string]any{"S": "changed"}, "v": map[string]any{"S": "new"}}, items["modified"]["new"])
	require.Equal(t, map[string]any{"pk": map[string]any{"S": "added"}, "v": map[string]any{"S": "1"}}, items["added"]["new"])
	require.Nil(t, items["added"]["old"])
	require.Equal(t, map[string]any{"pk": map[string]any{"S": "deleted"}, "v": map[string]any{"S": "1"}}, items["removed"]["old"])

	// A limit lists fewer items and says so; the counts stay exact.
	_, diff = adminGet(t, e, adminpath.Snapshots+"/"+id+"/diff?namespace=a/us-east-1&limit=1", "")
	for _, x := range diff["namespaces"].([]any)[0].(map[string]any)["tables"].([]any) {
		if d := x.(map[string]any); d["table"] == "Edited" {
			require.Len(t, d["items"], 1)
			require.Equal(t, true, d["truncated"])
			require.Equal(t, float64(1), d["modified"])
		}
	}
	// Without a namespace: every namespace that has tables then or now.
	_, diff = adminGet(t, e, adminpath.Snapshots+"/"+id+"/diff", "")
	require.Len(t, diff["namespaces"], 2)

	bad := []struct{ name, path string }{
		{"unknown snapshot", adminpath.Snapshots + "/snap-99/diff"},
		{"limit not a number", adminpath.Snapshots + "/" + id + "/diff?limit=x"},
		{"limit too large", adminpath.Snapshots + "/" + id + "/diff?limit=100000"},
		{"negative limit", adminpath.Snapshots + "/" + id + "/diff?limit=-1"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			status, out := adminGet(t, e, tc.path, "")
			require.Equal(t, http.StatusBadRequest, status)
			require.Contains(t, out["__type"], "ValidationException")
		})
	}
	status, _ := adminGet(t, e, adminpath.Snapshots, "http://evil.example")
	require.Equal(t, http.StatusForbidden, status)

	require.NoError(t, e.Branches().DropSnapshot(id))
	_, list = adminGet(t, e, adminpath.Snapshots, "")
	require.Empty(t, list["snapshots"])
}
