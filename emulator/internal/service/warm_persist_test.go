package service

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/internal/persist"
	"github.com/stretchr/testify/require"
)

// TestPersistWarmThroughput: a table's and a GSI's warm throughput, the
// highest capacity they had and what UpdateTable raised them to, come
// back after a restart.
func TestPersistWarmThroughput(t *testing.T) {
	dir := t.TempDir()
	e, st := openPersisted(t, dir, Config{}, persist.Options{})
	for _, b := range []struct{ op, body string }{
		{"CreateTable", `{"TableName":"tbl1","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],
			"ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":5},
			"GlobalSecondaryIndexes":[{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"},"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}]}`},
		{"UpdateTable", `{"TableName":"tbl1","ProvisionedThroughput":{"ReadCapacityUnits":9,"WriteCapacityUnits":9}}`},
		{"UpdateTable", `{"TableName":"tbl1","ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":5}}`},
		{"UpdateTable", `{"TableName":"tbl1","GlobalSecondaryIndexUpdates":[{"Update":{"IndexName":"byG","WarmThroughput":{"ReadUnitsPerSecond":40}}}]}`},
	} {
		res, out := doService(t, e, "DynamoDB_20120810."+b.op, testkit.DefaultAuth, b.body)
		require.Equal(t, http.StatusOK, res.StatusCode, "%s: %s", b.op, out)
	}
	want := []string{
		`"WarmThroughput":{"ReadUnitsPerSecond":9,"WriteUnitsPerSecond":9,"Status":"ACTIVE"}`,
		`"WarmThroughput":{"ReadUnitsPerSecond":40,"WriteUnitsPerSecond":1,"Status":"ACTIVE"}`,
	}
	describe := func(s *Service) string {
		res, out := doService(t, s, "DynamoDB_20120810.DescribeTable", testkit.DefaultAuth, `{"TableName":"tbl1"}`)
		require.Equal(t, http.StatusOK, res.StatusCode, out)
		return out
	}
	before := describe(e)
	for _, w := range want {
		require.True(t, strings.Contains(before, w), "before the restart: got %s, want %s in it", before, w)
	}
	require.NoError(t, st.Close())
	e2, _ := openPersisted(t, dir, Config{}, persist.Options{})
	after := describe(e2)
	for _, w := range want {
		require.True(t, strings.Contains(after, w), "after the restart: got %s, want %s in it", after, w)
	}
}
