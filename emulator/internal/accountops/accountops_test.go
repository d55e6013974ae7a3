package accountops

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// The feature in use in this package's tests, as the emulator uses it.
var testFeatures = []service.Feature{Feature{}}

func createTable(e *servicetest.Env, name string) {
	e.Must("CreateTable", `{"TableName":"`+name+`","AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}`)
}

// TestListTablesDeleting: a table DELETING is listed, in name order
// among the live ones, until it is gone; pages end at Limit and go on
// after ExclusiveStartTableName.
func TestListTablesDeleting(t *testing.T) {
	e := servicetest.New(t, service.Config{Features: testFeatures, TransientDelay: 2 * time.Second})
	for _, n := range []string{"ccc", "aaa", "bbb"} {
		createTable(e, n)
	}
	e.Clock.Advance(3 * time.Second) // all ACTIVE
	e.Must("DeleteTable", `{"TableName":"bbb"}`)
	require.Equal(t, `{"TableNames":["aaa","bbb","ccc"]}`, e.Must("ListTables", `{}`))
	require.Equal(t, `{"TableNames":["aaa","bbb"],"LastEvaluatedTableName":"bbb"}`, e.Must("ListTables", `{"Limit":2}`))
	require.Equal(t, `{"TableNames":["ccc"]}`, e.Must("ListTables", `{"ExclusiveStartTableName":"bbb"}`))
	e.Clock.Advance(3 * time.Second) // bbb gone
	require.Equal(t, `{"TableNames":["aaa","ccc"]}`, e.Must("ListTables", `{}`))
}

// TestListTablesLimit: a Limit out of 1..100 is AWS's model constraint.
func TestListTablesLimit(t *testing.T) {
	e := servicetest.New(t, service.Config{Features: testFeatures})
	typ, msg := testkit.ErrorOf(e.Refused("ListTables", `{"Limit":101}`, "ValidationException"))
	require.Equal(t, "ValidationException", typ)
	require.Contains(t, msg, "Value '101' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 100")
}

// TestDescribeLimits: AWS's default quotas.
func TestDescribeLimits(t *testing.T) {
	e := servicetest.New(t, service.Config{Features: testFeatures})
	require.Equal(t, `{"AccountMaxReadCapacityUnits":80000,"AccountMaxWriteCapacityUnits":80000,`+
		`"TableMaxReadCapacityUnits":40000,"TableMaxWriteCapacityUnits":40000}`, e.Must("DescribeLimits", `{}`))
}
