package conformance

// Transactions and index keys: a Put whose item gives a
// secondary index key a value of another type, or one over the index key
// limits (2048 bytes hash, 1024 range), cancels the transaction with a
// ValidationError reason for that action (PutItem's message) and None for
// the others; an empty index key value stays a request-level
// ValidationException. Sources: the type faults as recorded against AWS
// (eu-west-2) in dynamodb-conformance
// tests/tier3/error-messages/transactIndexKeys.test.ts; the size faults
// by AWS's API reference for TransactWriteItems, which lists among the
// cancellation reasons "a similar validation error occurs because of
// changes made by the transaction" (no recorded answer found; the
// message is PutItem's, TestGSIKeySizeOnWrite).

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestTransactIndexKeyFaults(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.AttributeDefinitions = append(in.AttributeDefinitions,
		types.AttributeDefinition{AttributeName: aws.String("gh"), AttributeType: types.ScalarAttributeTypeS},
		types.AttributeDefinition{AttributeName: aws.String("gr"), AttributeType: types.ScalarAttributeTypeB})
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsiDef("byG", "gh", "gr", types.ProjectionTypeAll)}
	table := createTable(t, c, in)
	ok := txPut(table, item{"pk": s("txik-ok"), "gh": s(strings.Repeat("h", 2048)), "gr": b(make([]byte, 1024))})
	const sizeDiffer = `DynamoDB Local answers ValidationException "One or more parameter values were invalid: Size limit exceeded"`
	tests := []struct {
		name   string
		items  []types.TransactWriteItem
		codes  []string
		msg    string // the ValidationError reason's message
		differ string
	}{
		{"hash key over 2048 bytes", []types.TransactWriteItem{ok, txPut(table, item{"pk": s("txik-1"), "gh": s(strings.Repeat("h", 2049))})},
			[]string{"None", "ValidationError"},
			"One or more parameter values were invalid: Size limit exceeded for Index Key gh Actual Size: 2049 bytes Max Size: 2048 bytes IndexName: byG", sizeDiffer},
		{"range key over 1024 bytes", []types.TransactWriteItem{txPut(table, item{"pk": s("txik-2"), "gh": s("x"), "gr": b(make([]byte, 1025))}), ok},
			[]string{"ValidationError", "None"},
			"One or more parameter values were invalid: Size limit exceeded for Index Key gr Actual Size: 1025 bytes Max Size: 1024 bytes IndexName: byG", sizeDiffer},
		{"hash key of another type", []types.TransactWriteItem{ok, txPut(table, item{"pk": s("txik-3"), "gh": n("5")})},
			[]string{"None", "ValidationError"},
			"One or more parameter values were invalid: Type mismatch for Index Key gh Expected: S Actual: N IndexName: byG",
			`DynamoDB Local's reason message stops at "Type mismatch for Index Key"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.differ != "" {
				AWSDiffers(t, tc.differ)
			}
			_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: tc.items})
			reasons := requireCanceled(t, err, tc.codes...)
			for i, r := range reasons {
				want := ""
				if tc.codes[i] == "ValidationError" {
					want = tc.msg
				}
				if got := aws.ToString(r.Message); got != want {
					t.Errorf("reason %d: got %q, want %q", i, got, want)
				}
			}
		})
	}
	t.Run("an empty index key value is request-level", func(t *testing.T) {
		_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
			ok, txPut(table, item{"pk": s("txik-4"), "gh": s("")}),
		}})
		requireValidation(t, err, "One or more parameter values are not valid. A value specified for a secondary index key is not supported. The AttributeValue for a key attribute cannot contain an empty string value. IndexName: byG, IndexKey: gh")
	})
	requireItem(t, mustGet(t, c, table, item{"pk": s("txik-ok")}), nil)
}

// TestTransactUpdateIndexKeyFaults: a transaction Update that sets a
// secondary index key to a value of another type cancels with a
// ValidationError reason; one that sets it to an empty string is a
// request-level ValidationException (AWS's record: transactIndexKeys.test.ts,
// see above).
func TestTransactUpdateIndexKeyFaults(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	in := tableDef(keyDef{"pk", "S"}, keyDef{})
	in.AttributeDefinitions = append(in.AttributeDefinitions,
		types.AttributeDefinition{AttributeName: aws.String("gh"), AttributeType: types.ScalarAttributeTypeS})
	in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{gsiDef("byG", "gh", "", types.ProjectionTypeAll)}
	table := createTable(t, c, in)
	upd := func(v types.AttributeValue) error {
		_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{{
			Update: &types.Update{TableName: &table, Key: item{"pk": s("txu")}, UpdateExpression: aws.String("SET gh = :v"),
				ExpressionAttributeValues: item{":v": v}}}}})
		return err
	}
	t.Run("another type", func(t *testing.T) {
		AWSDiffers(t, `DynamoDB Local's reason message stops at "Type mismatch for Index Key"`)
		reasons := requireCanceled(t, upd(n("5")), "ValidationError")
		const want = "One or more parameter values were invalid: Type mismatch for Index Key gh Expected: S Actual: N IndexName: byG"
		if got := aws.ToString(reasons[0].Message); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	})
	t.Run("empty string", func(t *testing.T) {
		requireValidation(t, upd(s("")), "One or more parameter values are not valid. The update expression attempted to update a secondary index key to a value that is not supported. The AttributeValue for a key attribute cannot contain an empty string value.")
	})
	requireItem(t, mustGet(t, c, table, item{"pk": s("txu")}), nil)
}
