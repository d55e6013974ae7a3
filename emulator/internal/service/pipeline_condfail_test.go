package service

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// TestConditionFailedCharged: a write refused by its condition (and a
// PartiQL INSERT over an existing item, and a transaction cancelled by a
// condition) is counted by the report with the units AWS charges for it:
// the larger of the existing item and the item the write would store, at
// least one unit; twice that for a transaction's action.
func TestConditionFailedCharged(t *testing.T) {
	big := strings.Repeat("x", 2500)   // the stored item: 3 units
	grown := strings.Repeat("y", 1200) // an update that grows it to 4 units
	const putBig = `{"TableName":"tbl","Item":{"pk":{"S":"a"},"v":{"S":"` + "%BIG%" + `"}}}`
	tests := []struct {
		name, op, body string
		tx             bool // a transaction: TransactionCanceledException
		gsi            bool // the table has a GSI (UpdateItem takes the map path)
		gets, writes   int64
		rcu, wcu       float64
	}{
		{name: "PutItem over an existing item", op: "PutItem",
			body:   `{"TableName":"tbl","Item":{"pk":{"S":"a"}},"ConditionExpression":"attribute_not_exists(pk)"}`,
			writes: 1, wcu: 3},
		{name: "PutItem of a missing item", op: "PutItem",
			body:   `{"TableName":"tbl","Item":{"pk":{"S":"b"}},"ConditionExpression":"attribute_exists(pk)"}`,
			writes: 1, wcu: 1},
		{name: "DeleteItem", op: "DeleteItem",
			body:   `{"TableName":"tbl","Key":{"pk":{"S":"a"}},"ConditionExpression":"v = :no","ExpressionAttributeValues":{":no":{"S":"no"}}}`,
			writes: 1, wcu: 3},
		{name: "DeleteItem of a missing item", op: "DeleteItem",
			body:   `{"TableName":"tbl","Key":{"pk":{"S":"b"}},"ConditionExpression":"attribute_exists(pk)"}`,
			writes: 1, wcu: 1},
		{name: "UpdateItem, patch path", op: "UpdateItem",
			body: `{"TableName":"tbl","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET w = :w","ConditionExpression":"v = :no",` +
				`"ExpressionAttributeValues":{":no":{"S":"no"},":w":{"S":"` + grown + `"}}}`,
			writes: 1, wcu: 4},
		{name: "UpdateItem, map path", op: "UpdateItem", gsi: true,
			body: `{"TableName":"tbl","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET w = :w","ConditionExpression":"v = :no",` +
				`"ExpressionAttributeValues":{":no":{"S":"no"},":w":{"S":"` + grown + `"}}}`,
			writes: 1, wcu: 4},
		{name: "UpdateItem, map path, ALL_OLD on failure", op: "UpdateItem",
			body: `{"TableName":"tbl","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET w = :w","ConditionExpression":"v = :no",` +
				`"ReturnValues":"ALL_NEW","ReturnValuesOnConditionCheckFailure":"ALL_OLD",` +
				`"ExpressionAttributeValues":{":no":{"S":"no"},":w":{"S":"w"}}}`,
			writes: 1, wcu: 3},
		{name: "ExecuteStatement INSERT of an existing item", op: "ExecuteStatement",
			body:   `{"Statement":"INSERT INTO tbl VALUE {'pk':'a'}"}`,
			writes: 1, wcu: 3},
		{name: "ExecuteStatement UPDATE", op: "ExecuteStatement",
			body:   `{"Statement":"UPDATE tbl SET w = 'w' WHERE pk = 'a' AND v = 'no'"}`,
			writes: 1, wcu: 3},
		{name: "ExecuteStatement DELETE", op: "ExecuteStatement",
			body:   `{"Statement":"DELETE FROM tbl WHERE pk = 'a' AND v = 'no'"}`,
			writes: 1, wcu: 3},
		{name: "BatchExecuteStatement", op: "BatchExecuteStatement",
			body: `{"Statements":[{"Statement":"UPDATE tbl SET w = 'w' WHERE pk = 'a' AND v = 'no'"},` +
				`{"Statement":"UPDATE tbl SET w = 'w' WHERE pk = 'c'"}]}`,
			writes: 2, wcu: 3 + 1},
		{name: "TransactWriteItems cancelled by a ConditionCheck", op: "TransactWriteItems", tx: true,
			body: `{"TransactItems":[{"ConditionCheck":{"TableName":"tbl","Key":{"pk":{"S":"a"}},"ConditionExpression":"v = :no",` +
				`"ExpressionAttributeValues":{":no":{"S":"no"}}}},{"Put":{"TableName":"tbl","Item":{"pk":{"S":"b"}}}}]}`,
			gets: 1, writes: 1, rcu: 2, wcu: 2},
		{name: "TransactWriteItems cancelled by an Update's condition", op: "TransactWriteItems", tx: true,
			body: `{"TransactItems":[{"Update":{"TableName":"tbl","Key":{"pk":{"S":"a"}},"UpdateExpression":"SET w = :w",` +
				`"ConditionExpression":"v = :no","ExpressionAttributeValues":{":no":{"S":"no"},":w":{"S":"w"}}}}]}`,
			writes: 1, wcu: 6},
		{name: "ExecuteTransaction", op: "ExecuteTransaction", tx: true,
			body:   `{"TransactStatements":[{"Statement":"UPDATE tbl SET w = 'w' WHERE pk = 'a' AND v = 'no'"}]}`,
			writes: 1, wcu: 6},
	}
	const ak, region = "AKIDCONDFAIL", "us-east-1"
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestService(t, Config{})
			serve := func(op, body string) ([]byte, error) {
				t.Helper()
				o, err := s.Lookup(TargetPrefix + op)
				if err != nil {
					t.Fatal(err)
				}
				return s.Serve(o, &Request{Ctx: context.Background(), AccessKey: ak, Region: region, Body: []byte(body)})
			}
			create := `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",` +
				`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`
			if tc.gsi {
				create = `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",` +
					`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"g","AttributeType":"S"}],` +
					`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],"GlobalSecondaryIndexes":[{"IndexName":"GSI",` +
					`"KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}`
			}
			for _, r := range [][2]string{{"CreateTable", create}, {"PutItem", strings.Replace(putBig, "%BIG%", big, 1)}} {
				if _, err := serve(r[0], r[1]); err != nil {
					t.Fatalf("%s: %v", r[0], err)
				}
			}
			ReportHooks.SetReporting(s, true)
			out, err := serve(tc.op, tc.body)
			want := apierr.ErrConditionalCheckFailed
			switch {
			case tc.tx:
				want = apierr.ErrTransactionCanceled
			case tc.op == "BatchExecuteStatement":
				if err != nil || strings.Count(string(out), `"ConditionalCheckFailed"`) != 2 {
					t.Fatalf("got %s, %v; want two ConditionalCheckFailed statements", out, err)
				}
				want = nil
			case strings.Contains(tc.body, "INSERT"):
				want = apierr.ErrDuplicateItem
			}
			if want != nil && !errors.Is(err, want) {
				t.Fatalf("got %s, %v; want %v", out, err, want)
			}
			rep := ReportHooks.Recorder(s.SpaceFor(ak, region)).Report(nil) // the counts, without the catalog (its stage's)
			if len(rep.Tables) != 1 || len(rep.Tables[0].Resources) == 0 {
				t.Fatalf("got report %+v", rep)
			}
			r := rep.Tables[0].Resources[0]
			if r.Gets != tc.gets || r.Writes != tc.writes || r.ReadUnits != tc.rcu || r.WriteUnits != tc.wcu {
				t.Errorf("got gets %d writes %d, %v RCU %v WCU; want %d %d, %v %v",
					r.Gets, r.Writes, r.ReadUnits, r.WriteUnits, tc.gets, tc.writes, tc.rcu, tc.wcu)
			}
		})
	}
}
