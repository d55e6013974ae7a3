package conformance

// DeleteTable's answer: AWS leaves out of it the key schema, the
// attribute definitions, the creation time and the secondary indexes,
// which DescribeTable gives (ScyllaDB's AWS-verified tests,
// test/alternator/test_table.py: test_delete_table_description and
// test_delete_table_description_with_si).

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDeleteTableAnswerLeavesOut(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local's DeleteTable answers the whole description (KeySchema, AttributeDefinitions, CreationDateTime, indexes)")
	c := newClient(t)
	name := indexTable(t, c)
	r := rawCall(t, "DeleteTable", `{"TableName":"`+name+`"}`)
	require.Equal(t, 200, r.Status, "%s: %s", r.Type, r.Message)
	var out struct{ TableDescription map[string]json.RawMessage }
	require.NoError(t, json.Unmarshal(r.Body, &out))
	d := out.TableDescription
	for _, m := range []string{"KeySchema", "AttributeDefinitions", "CreationDateTime", "GlobalSecondaryIndexes", "LocalSecondaryIndexes"} {
		require.NotContains(t, d, m, "DeleteTable's answer has %s", m)
	}
	for _, m := range []string{"TableName", "TableStatus", "TableArn", "TableId", "ProvisionedThroughput", "TableSizeBytes", "ItemCount"} {
		require.Contains(t, d, m, "DeleteTable's answer lacks %s", m)
	}
	require.JSONEq(t, `"DELETING"`, string(d["TableStatus"]))
}
