package service

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

const transientTable = `{"TableName":"ttt","BillingMode":"PAY_PER_REQUEST",` +
	`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`

// transientStep is one request of a table's life and what it answers:
// an error type and message, or 200 with want in the body (and wantNot
// not in it).
type transientStep struct {
	advance       time.Duration // on the clock before the request
	op, body      string
	typ, msg      string
	want, wantNot string
}

// runTransientSteps sends the steps in order on e, whose clock is clock.
func runTransientSteps(t *testing.T, e *Service, clock *testkit.Clock, steps []transientStep) {
	t.Helper()
	for i, s := range steps {
		clock.Advance(s.advance)
		r := tablesDo(t, e, s.op, s.body)
		if s.typ != "" {
			require.Equal(t, s.typ, r.typ, "step %d %s: %s", i, s.op, r.body)
			if s.msg != "" {
				require.Equal(t, s.msg, r.msg, "step %d %s", i, s.op)
			}
			continue
		}
		require.Equal(t, 200, r.status, "step %d %s: %s", i, s.op, r.body)
		require.Contains(t, r.body, s.want, "step %d %s", i, s.op)
		if s.wantNot != "" {
			require.NotContains(t, r.body, s.wantNot, "step %d %s", i, s.op)
		}
	}
}

// TestTableTransientStatuses: with a transient delay a new table is
// CREATING for it, as AWS's CreateTable answers and DescribeTable shows
// (API_CreateTable: "CreateTable immediately returns a response with a
// TableStatus of CREATING ... You can perform read and write operations
// only on an ACTIVE table"): item requests get ResourceNotFoundException
// "Requested resource not found" (API reference: "its status might not
// be ACTIVE") and DeleteTable ResourceInUseException (API_DeleteTable:
// "If a table is in CREATING or UPDATING states, then DynamoDB returns a
// ResourceInUseException"), UpdateTable and a second CreateTable too. A
// deleted table is DELETING for the delay: described, listed, its name
// not free, a second DeleteTable or an UpdateTable ResourceInUseException
// (AWS's answers, github.com/aws-controllers-k8s/dynamodb-controller
// docs/api-quirks/table.md, DDB-TABLE-001/005/006/008, October 2026;
// API_DeleteTable's "no error is returned" is older); then gone.
func TestTableTransientStatuses(t *testing.T) {
	clock := testkit.NewClock(tablesClock)
	e := newTestService(t, Config{Clock: clock.Now, TransientDelay: time.Second})
	const notFound = "Requested resource not found"
	const key = `{"TableName":"ttt","Key":{"pk":{"S":"a"}}}`
	runTransientSteps(t, e, clock, []transientStep{
		{op: "CreateTable", body: transientTable, want: `"TableStatus":"CREATING"`},
		{op: "DescribeTable", body: `{"TableName":"ttt"}`, want: `"TableStatus":"CREATING"`},
		{op: "ListTables", body: `{}`, want: `"ttt"`},
		{op: "PutItem", body: `{"TableName":"ttt","Item":{"pk":{"S":"a"}}}`, typ: "ResourceNotFoundException", msg: notFound},
		{op: "GetItem", body: key, typ: "ResourceNotFoundException", msg: notFound},
		{op: "Scan", body: `{"TableName":"ttt"}`, typ: "ResourceNotFoundException", msg: notFound},
		{op: "Query", body: `{"TableName":"ttt","KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}}}`, typ: "ResourceNotFoundException", msg: notFound},
		{op: "BatchWriteItem", body: `{"RequestItems":{"ttt":[{"PutRequest":{"Item":{"pk":{"S":"a"}}}}]}}`, typ: "ResourceNotFoundException"},
		{op: "TransactWriteItems", body: `{"TransactItems":[{"Put":{"TableName":"ttt","Item":{"pk":{"S":"a"}}}}]}`, typ: "ResourceNotFoundException"},
		{op: "ExecuteStatement", body: `{"Statement":"SELECT * FROM ttt"}`, typ: "ResourceNotFoundException"},
		{op: "DeleteTable", body: `{"TableName":"ttt"}`, typ: "ResourceInUseException",
			msg: "Attempt to change a resource which is still in use: Table is being created: ttt"},
		{op: "UpdateTable", body: `{"TableName":"ttt","DeletionProtectionEnabled":true}`, typ: "ResourceInUseException",
			msg: "Attempt to change a resource which is still in use: Table is being created: ttt"},
		{op: "CreateTable", body: transientTable, typ: "ResourceInUseException",
			msg: "Attempt to change a resource which is still in use: Table is being created: ttt"},
		{advance: time.Second, op: "DescribeTable", body: `{"TableName":"ttt"}`, want: `"TableStatus":"ACTIVE"`},
		{op: "PutItem", body: `{"TableName":"ttt","Item":{"pk":{"S":"a"}}}`, want: `{}`},
		{op: "DeleteTable", body: `{"TableName":"ttt"}`, want: `"TableStatus":"DELETING"`},
		{op: "DescribeTable", body: `{"TableName":"ttt"}`, want: `"TableStatus":"DELETING"`},
		{op: "DescribeTable", body: `{"TableName":"arn:aws:dynamodb:us-east-1:000000000000:table/ttt"}`, want: `"TableStatus":"DELETING"`},
		{op: "ListTables", body: `{}`, want: `"TableNames":["ttt"]`},
		{op: "DeleteTable", body: `{"TableName":"ttt"}`, typ: "ResourceInUseException",
			msg: "Attempt to change a resource which is still in use: Table is being deleted: ttt"},
		{op: "GetItem", body: key, typ: "ResourceNotFoundException", msg: notFound},
		{op: "UpdateTable", body: `{"TableName":"ttt","BillingMode":"PAY_PER_REQUEST"}`, typ: "ResourceInUseException",
			msg: "Attempt to change a resource which is still in use: Table is being deleted: ttt"},
		{op: "CreateTable", body: transientTable, typ: "ResourceInUseException", msg: "Table already exists: ttt"},
		{advance: time.Second, op: "DescribeTable", body: `{"TableName":"ttt"}`, typ: "ResourceNotFoundException",
			msg: "Requested resource not found: Table: ttt not found"},
		{op: "DeleteTable", body: `{"TableName":"ttt"}`, typ: "ResourceNotFoundException"},
		{op: "ListTables", body: `{}`, want: `"TableNames":[]`},
		{op: "CreateTable", body: transientTable, want: `"TableStatus":"CREATING"`},
	})
}

// TestTableStatusesWithoutDelay: without a transient delay (the default,
// as DynamoDB Local) a new table is ACTIVE from the request after
// CreateTable's (whose answer says CREATING, as AWS's) and a deleted one
// gone at once.
func TestTableStatusesWithoutDelay(t *testing.T) {
	clock := testkit.NewClock(tablesClock)
	e := newTestService(t, Config{Clock: clock.Now})
	runTransientSteps(t, e, clock, []transientStep{
		{op: "CreateTable", body: transientTable, want: `"TableStatus":"CREATING"`},
		{op: "DescribeTable", body: `{"TableName":"ttt"}`, want: `"TableStatus":"ACTIVE"`},
		{op: "PutItem", body: `{"TableName":"ttt","Item":{"pk":{"S":"a"}}}`, want: `{}`},
		{op: "DeleteTable", body: `{"TableName":"ttt"}`, want: `"TableStatus":"DELETING"`},
		{op: "DescribeTable", body: `{"TableName":"ttt"}`, typ: "ResourceNotFoundException"},
		{op: "ListTables", body: `{}`, want: `"TableNames":[]`},
		{op: "CreateTable", body: transientTable, want: `"TableStatus":"CREATING"`},
		{op: "DescribeTable", body: `{"TableName":"ttt"}`, want: `"TableStatus":"ACTIVE"`, wantNot: `"CREATING"`},
	})
}
