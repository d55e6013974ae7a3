package service

import (
	"strings"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// GSIs created and deleted by UpdateTable: backfill, statuses, errors.

const gsiTable = `{"TableName":"tb1","BillingMode":"PAY_PER_REQUEST",` +
	`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"S"},{"AttributeName":"l","AttributeType":"S"}],` +
	`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],` +
	`"LocalSecondaryIndexes":[{"IndexName":"byL","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"l","KeyType":"RANGE"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}]}`

const createByG = `{"TableName":"tb1","AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"}],` +
	`"GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"byG","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}}]}`

func TestUpdateTableCreateGSIBackfills(t *testing.T) {
	e := newTablesEmulator(t)
	mustTables(t, e, "CreateTable", gsiTable)
	for _, it := range []string{
		`{"pk":{"S":"a"},"sk":{"S":"1"},"g":{"S":"x"}}`,
		`{"pk":{"S":"a"},"sk":{"S":"2"},"g":{"S":"x"}}`,
		`{"pk":{"S":"b"},"sk":{"S":"1"},"g":{"S":"y"}}`,
		`{"pk":{"S":"c"},"sk":{"S":"1"}}`,
		`{"pk":{"S":"d"},"sk":{"S":"1"},"g":{"N":"1"}}`, // wrong kind: not indexed
	} {
		mustTables(t, e, "PutItem", `{"TableName":"tb1","Item":`+it+`}`)
	}
	body := mustTables(t, e, "UpdateTable", createByG)
	for _, want := range []string{`"IndexName":"byG"`, `"IndexStatus":"CREATING"`, `"Backfilling":true`, `{"AttributeName":"g","AttributeType":"S"}`} {
		if !strings.Contains(body, want) {
			t.Errorf("UpdateTable answer lacks %s: %s", want, body)
		}
	}
	body = mustTables(t, e, "DescribeTable", `{"TableName":"tb1"}`)
	if !strings.Contains(body, `"IndexStatus":"ACTIVE"`) || !strings.Contains(body, `"ItemCount":3`) || strings.Contains(body, "Backfilling") {
		t.Errorf("DescribeTable after the create: %s", body)
	}
	body = mustTables(t, e, "Query", `{"TableName":"tb1","IndexName":"byG","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"x"}},"Select":"COUNT"}`)
	if !strings.Contains(body, `"Count":2`) {
		t.Errorf("Query on the backfilled index: %s", body)
	}
	// Later writes maintain it.
	mustTables(t, e, "PutItem", `{"TableName":"tb1","Item":{"pk":{"S":"c"},"sk":{"S":"1"},"g":{"S":"x"}}}`)
	body = mustTables(t, e, "Query", `{"TableName":"tb1","IndexName":"byG","KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"x"}},"Select":"COUNT"}`)
	if !strings.Contains(body, `"Count":3`) {
		t.Errorf("Query after a write: %s", body)
	}
}

func TestUpdateTableGSIErrors(t *testing.T) {
	e := newTablesEmulator(t)
	mustTables(t, e, "CreateTable", gsiTable)
	mustTables(t, e, "UpdateTable", createByG)
	tests := []struct {
		name, body, typ, msg string
	}{
		{"existing GSI name", createByG, "ValidationException", apierr.MsgIndexExists},
		{"existing LSI name", strings.Replace(createByG, `"IndexName":"byG"`, `"IndexName":"byL"`, 1), "ValidationException", apierr.MsgIndexExists},
		{"key not defined", strings.Replace(strings.Replace(createByG, `"IndexName":"byG"`, `"IndexName":"byH"`, 1), `"KeySchema":[{"AttributeName":"g"`, `"KeySchema":[{"AttributeName":"h"`, 1),
			"ValidationException", apierr.MsgKeysNotDefined([]string{"h"}, []string{"g"})},
		{"two creates", `{"TableName":"tb1","AttributeDefinitions":[{"AttributeName":"h","AttributeType":"S"}],"GlobalSecondaryIndexUpdates":[` +
			`{"Create":{"IndexName":"idx1","KeySchema":[{"AttributeName":"h","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}},` +
			`{"Create":{"IndexName":"idx2","KeySchema":[{"AttributeName":"h","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}}]}`,
			"LimitExceededException", apierr.MsgOneOnlineIndex},
		{"delete an LSI", `{"TableName":"tb1","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"byL"}}]}`, "ValidationException", apierr.MsgDeleteNotGSI},
		{"create with throughput on demand", strings.Replace(strings.Replace(createByG, `"IndexName":"byG"`, `"IndexName":"byH"`, 1), `"Projection":{"ProjectionType":"ALL"}`,
			`"Projection":{"ProjectionType":"ALL"},"ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}`, 1),
			"ValidationException", apierr.MsgGSIPPRWithThroughput("byH")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tablesDo(t, e, "UpdateTable", tc.body)
			if r.typ != tc.typ || r.msg != tc.msg {
				t.Errorf("got %s %q\nwant %s %q", r.typ, r.msg, tc.typ, tc.msg)
			}
		})
	}
}

func TestUpdateTableGSIDelayedStatuses(t *testing.T) {
	clock := testkit.NewClock(tablesClock)
	e := newTestService(t, Config{Clock: clock.Now, TransientDelay: time.Second})
	mustTables(t, e, "CreateTable", gsiTable)
	clock.Advance(time.Second) // the table ACTIVE: UpdateTable refuses a CREATING one
	mustTables(t, e, "UpdateTable", createByG)
	if body := mustTables(t, e, "DescribeTable", `{"TableName":"tb1"}`); !strings.Contains(body, `"IndexStatus":"CREATING","Backfilling":true`) {
		t.Errorf("DescribeTable within the delay: %s", body)
	}
	r := tablesDo(t, e, "UpdateTable", `{"TableName":"tb1","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"byG"}}]}`)
	if r.typ != "ResourceInUseException" || r.msg != apierr.MsgIndexBeingCreated {
		t.Errorf("delete while creating: %s %q", r.typ, r.msg)
	}
	clock.Advance(time.Second)
	if body := mustTables(t, e, "DescribeTable", `{"TableName":"tb1"}`); !strings.Contains(body, `"IndexStatus":"ACTIVE"`) {
		t.Errorf("DescribeTable after the delay: %s", body)
	}
	mustTables(t, e, "UpdateTable", `{"TableName":"tb1","GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"byG"}}]}`)
	if body := mustTables(t, e, "DescribeTable", `{"TableName":"tb1"}`); !strings.Contains(body, `"IndexStatus":"DELETING"`) {
		t.Errorf("DescribeTable within the delete's delay: %s", body)
	}
	clock.Advance(time.Second)
	if body := mustTables(t, e, "DescribeTable", `{"TableName":"tb1"}`); strings.Contains(body, "GlobalSecondaryIndexes") {
		t.Errorf("DescribeTable after the delete's delay: %s", body)
	}
}
