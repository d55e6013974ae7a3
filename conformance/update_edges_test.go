package conformance

// Update edges: updates that only take away on a
// missing item, attribute_type with a value operand.

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestRemoveOnlyUpdateOfMissingItem: an UpdateItem (or a
// transaction's Update) whose actions only take away (REMOVE, DELETE,
// AttributeUpdates DELETE) leaves a missing item missing, returns no
// Attributes for ALL_NEW, and accepts a nested REMOVE (REMOVE a.b) since
// nothing is applied. ScyllaDB's test_item.py, run against AWS: "an update
// that only deletes an attribute on a non-existent item, does NOT create
// it" (AttributeUpdates DELETE and REMOVE a); the API reference of
// AttributeUpdates: "DELETE - Nothing happens; there is no attribute to
// delete". An update that sets something, or none at all, creates the item.
func TestRemoveOnlyUpdateOfMissingItem(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local creates the item holding its key, and refuses REMOVE a.b on a missing item (\"The document path provided in the update expression is invalid for update\")")
	c := newClient(t)
	table := hashTable(t, c)
	cases := []struct {
		name    string
		in      dynamodb.UpdateItemInput
		created bool
	}{
		{"REMOVE", dynamodb.UpdateItemInput{UpdateExpression: aws.String("REMOVE a, b")}, false},
		{"REMOVE nested", dynamodb.UpdateItemInput{UpdateExpression: aws.String("REMOVE a.b")}, false},
		{"REMOVE list element", dynamodb.UpdateItemInput{UpdateExpression: aws.String("REMOVE a[0]")}, false},
		{"DELETE", dynamodb.UpdateItemInput{UpdateExpression: aws.String("DELETE s :v"),
			ExpressionAttributeValues: item{":v": ss("x")}}, false},
		{"AttributeUpdates DELETE", dynamodb.UpdateItemInput{AttributeUpdates: map[string]types.AttributeValueUpdate{
			"a": {Action: types.AttributeActionDelete}}}, false},
		{"SET creates", dynamodb.UpdateItemInput{UpdateExpression: aws.String("SET a = :v REMOVE b"),
			ExpressionAttributeValues: item{":v": s("x")}}, true},
		{"no update creates", dynamodb.UpdateItemInput{}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			key := item{"pk": s(uniqueKey(t))}
			in := tc.in
			in.TableName, in.Key, in.ReturnValues = &table, key, types.ReturnValueAllNew
			out, err := c.UpdateItem(ctx(t), &in)
			mustNoError(t, err)
			got := mustGet(t, c, table, key)
			if (got != nil) != tc.created {
				t.Errorf("item after the update: %s, want created %v", renderItem(got), tc.created)
			}
			if !tc.created && len(out.Attributes) != 0 {
				t.Errorf("ALL_NEW returned %s, want nothing", renderItem(out.Attributes))
			}
		})
	}
	t.Run("TransactWriteItems", func(t *testing.T) {
		key := item{"pk": s(uniqueKey(t))}
		_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			{Update: &types.Update{TableName: &table, Key: key, UpdateExpression: aws.String("REMOVE a")}}}})
		mustNoError(t, err)
		if got := mustGet(t, c, table, key); got != nil {
			t.Errorf("item after the transaction: %s, want none", renderItem(got))
		}
	})
}

// TestAttributeTypeOfValue: attribute_type takes a value as its first
// operand and is true when the value has the type (DynamoDB Local accepts
// it; the suites recorded against AWS expect AWS to accept it too; AWS's documentation shows only a path).
func TestAttributeTypeOfValue(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	mustPut(t, c, table, item{"pk": s("a")})
	for _, tc := range []struct {
		typ  string
		want int32
	}{{"S", 1}, {"N", 0}} {
		out, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table,
			FilterExpression:          aws.String("attribute_type(:v, :t)"),
			ExpressionAttributeValues: item{":v": s("x"), ":t": s(tc.typ)}})
		mustNoError(t, err)
		if out.Count != tc.want {
			t.Errorf("attribute_type(\"x\", %s): Count %d, want %d", tc.typ, out.Count, tc.want)
		}
	}
}

// TestImpreciseArithmeticWordedAsOverflow: a sum or difference inside the
// range that needs more than 38 digits (1e50 + 1) is refused with the
// overflow message, and nothing is written (ScyllaDB's AWS-verified
// test_number.py, test_update_expression_plus_imprecise: "Strangely,
// DynamoDB says that the error is: Number overflow ...").
func TestImpreciseArithmeticWordedAsOverflow(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, `1e50 + 1: DynamoDB Local says "DynamoDB only supports precision up to 38 digits"`)
	c := newClient(t)
	table := hashTable(t, c)
	for _, expr := range []string{"SET b = :a + :b", "SET b = :a - :b"} {
		_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("k")},
			UpdateExpression: aws.String(expr), ExpressionAttributeValues: item{":a": n("1e50"), ":b": n("1")}})
		requireValidation(t, err, "Number overflow. Attempting to store a number with magnitude larger than supported range")
	}
	requireItem(t, mustGet(t, c, table, item{"pk": s("k")}), nil)
}
