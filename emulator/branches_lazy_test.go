package emulator

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/adminhttp"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestBranchMadeAtFirstUse: a branch is made by its first request, not
// by the fork; until then the namespace list and a branch of it read it
// without making it, and a drop leaves nothing.
func TestBranchMadeAtFirstUse(t *testing.T) {
	e := newTestEmulator(t, Options{})
	ok := func(target, key, body string) string {
		t.Helper()
		res, out := do(t, e, "DynamoDB_20120810."+target, testkit.Auth(key, "us-east-1"), body)
		require.Equal(t, 200, res.StatusCode, out)
		return out
	}
	ok("CreateTable", "base", `{"TableName":"things","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],`+
		`"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"}}`)
	ok("PutItem", "base", `{"TableName":"things","Item":{"pk":{"S":"a"}}}`)

	_, err := e.Branches().Fork("base/us-east-1", "t1")
	require.NoError(t, err)
	_, err = e.Branches().Fork("t1/us-east-1", "t2") // a branch of a branch not used yet
	require.NoError(t, err)
	require.Same(t, e.svc.Forked("t1/us-east-1"), e.svc.Forked("t2/us-east-1"), "t2 shares t1's snapshot")

	views := adminhttp.NamespaceViews(e.svc, e.opts.SharedDB)
	require.Len(t, views, 3)
	for _, v := range views {
		require.Equal(t, 1, v.Tables, v.Namespace)
		require.Equal(t, 1, v.Items, v.Namespace)
	}
	require.NotNil(t, e.svc.Forked("t1/us-east-1"), "listing does not make a branch")

	// The first request makes t1; t2 is still a fork, and sees nothing of t1's writes.
	ok("PutItem", "t1", `{"TableName":"things","Item":{"pk":{"S":"b"}}}`)
	require.Nil(t, e.svc.Forked("t1/us-east-1"))
	require.NotNil(t, e.svc.Forked("t2/us-east-1"))
	require.Contains(t, ok("GetItem", "t1", `{"TableName":"things","Key":{"pk":{"S":"b"}}}`), `"b"`)
	require.Equal(t, `{}`, ok("GetItem", "t2", `{"TableName":"things","Key":{"pk":{"S":"b"}}}`))
	require.Equal(t, `{}`, ok("GetItem", "base", `{"TableName":"things","Key":{"pk":{"S":"b"}}}`))

	// Dropped unused, a branch leaves nothing; its name can be forked again.
	_, err = e.Branches().Fork("base/us-east-1", "t3")
	require.NoError(t, err)
	require.NoError(t, e.Branches().Drop("t3"))
	require.Nil(t, e.svc.Forked("t3/us-east-1"))
	require.NotContains(t, e.svc.NamespaceIDs(), "t3/us-east-1")
	_, err = e.Branches().Fork("base/us-east-1", "t3")
	require.NoError(t, err)
	require.Contains(t, ok("GetItem", "t3", `{"TableName":"things","Key":{"pk":{"S":"a"}}}`), `"a"`)
}
