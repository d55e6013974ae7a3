package emulator_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// TestTablesEndpoint: GET /dynamoemu/tables describes a page of a
// namespace's tables as DescribeTable does, in name order, with the
// name to start the next page from; bad input is a 400.
func TestTablesEndpoint(t *testing.T) {
	e, err := emulator.New(emulator.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { e.Close() })
	app := emulatortest.Client(t, e, "app")
	for i := range 5 {
		keyTable(t, app, fmt.Sprintf("tbl%d", i))
	}
	putPK(t, app, "tbl3", "a", "x")
	putPK(t, app, "tbl3", "b", "x")

	status, out := adminGet(t, e, adminpath.Tables+"?namespace=app/us-east-1&limit=2", "")
	require.Equal(t, http.StatusOK, status, "%v", out)
	require.Equal(t, "tbl1", out["lastEvaluatedTableName"])
	tables := out["tables"].([]any)
	require.Len(t, tables, 2)
	want, err := app.DescribeTable(context.Background(), &dynamodb.DescribeTableInput{TableName: aws.String("tbl0")})
	require.NoError(t, err)
	first := tables[0].(map[string]any)
	require.Equal(t, "tbl0", first["TableName"])
	require.Equal(t, *want.Table.TableArn, first["TableArn"])
	require.Equal(t, "pk", first["KeySchema"].([]any)[0].(map[string]any)["AttributeName"])
	require.Equal(t, "PAY_PER_REQUEST", first["BillingModeSummary"].(map[string]any)["BillingMode"])

	_, out = adminGet(t, e, adminpath.Tables+"?namespace=app/us-east-1&start=tbl1", "")
	require.NotContains(t, out, "lastEvaluatedTableName")
	var names []any
	for _, x := range out["tables"].([]any) {
		names = append(names, x.(map[string]any)["TableName"])
		if x.(map[string]any)["TableName"] == "tbl3" {
			require.Equal(t, float64(2), x.(map[string]any)["ItemCount"])
		}
	}
	require.Equal(t, []any{"tbl2", "tbl3", "tbl4"}, names)

	_, out = adminGet(t, e, adminpath.Tables+"?namespace=nobody/us-east-1", "")
	require.Equal(t, []any{}, out["tables"], "a namespace with no tables")

	for _, bad := range []string{"", "?namespace=app", "?namespace=app/us-east-1&limit=0", "?namespace=app/us-east-1&limit=101", "?namespace=shared"} {
		status, out := adminGet(t, e, adminpath.Tables+bad, "")
		require.Equal(t, http.StatusBadRequest, status, "%s: %v", bad, out)
	}
	status, _ = adminGet(t, e, adminpath.Tables+"?namespace=app/us-east-1", "http://evil.example")
	require.Equal(t, http.StatusForbidden, status, "a page of another origin")
}

// TestTablesEndpointShared: with -sharedDb "shared" names the one namespace.
func TestTablesEndpointShared(t *testing.T) {
	e, c := emulatortest.NewWith(t, emulator.Options{SharedDB: true})
	keyTable(t, c, "Things")
	_, out := adminGet(t, e, adminpath.Tables+"?namespace=shared", "")
	require.Len(t, out["tables"], 1)
	require.Equal(t, "Things", out["tables"].([]any)[0].(map[string]any)["TableName"])
}

// TestBranchDiffEndpoint: GET /dynamoemu/branches/{name}/diff compares
// the branch with its base now: unchanged tables, a changed one item by
// item, one added in the branch only; an unknown branch is a 400.
func TestBranchDiffEndpoint(t *testing.T) {
	e, err := emulator.New(emulator.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { e.Close() })
	base := emulatortest.Client(t, e, "base")
	keyTable(t, base, "Same")
	keyTable(t, base, "Edited")
	putPK(t, base, "Same", "s", "1")
	putPK(t, base, "Edited", "e", "old")
	_, err = e.Branches().Fork("base/us-east-1", "b1")
	require.NoError(t, err)
	branch := emulatortest.Client(t, e, "b1")
	putPK(t, branch, "Edited", "e", "new")
	putPK(t, branch, "Edited", "n", "1")
	keyTable(t, branch, "Scratch")

	status, out := adminGet(t, e, adminpath.Branches+"/b1/diff", "")
	require.Equal(t, http.StatusOK, status, "%v", out)
	require.Equal(t, "b1", out["branch"])
	require.Equal(t, "base/us-east-1", out["base"])
	changes := map[string]string{}
	for _, x := range out["tables"].([]any) {
		d := x.(map[string]any)
		changes[d["table"].(string)] = d["change"].(string)
		if d["table"] == "Edited" {
			require.Equal(t, float64(1), d["added"])
			require.Equal(t, float64(1), d["modified"])
			require.Len(t, d["items"], 2)
		}
	}
	require.Equal(t, map[string]string{"Same": "unchanged", "Edited": "changed", "Scratch": "added"}, changes)

	status, _ = adminGet(t, e, adminpath.Branches+"/nope/diff", "")
	require.Equal(t, http.StatusBadRequest, status)
	status, _ = adminGet(t, e, adminpath.Branches+"/b1/diff?limit=x", "")
	require.Equal(t, http.StatusBadRequest, status)
}
