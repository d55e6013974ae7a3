package conformance

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestTransactWriteIdempotencyLongValue: a ClientRequestToken's request
// compared whole when it holds a long value (100 KB): the same request
// again is answered and not applied again; one byte changed deep in the
// value is another request (IdempotentParameterMismatchException).
func TestTransactWriteIdempotencyLongValue(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	h := hashTable(t, c)
	long := strings.Repeat("abcdefghij", 10_000)
	changed := long[:54_321] + "X" + long[54_322:]
	// One member per map: the SDK writes map members in random order,
	// and DynamoDB Local compares request bodies (see
	// TestTransactWriteIdempotency).
	set := func(token, v string) error {
		_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{
			ClientRequestToken: aws.String(token),
			TransactItems: []types.TransactWriteItem{{Update: &types.Update{TableName: &h, Key: item{"pk": s("long")},
				UpdateExpression: aws.String("SET d = :d"), ExpressionAttributeValues: item{":d": s(v)}}}},
		})
		return err
	}
	token := uniqueKey(t)
	mustNoError(t, set(token, long))
	mustNoError(t, set(token, long)) // replayed
	requireItem(t, mustGet(t, c, h, item{"pk": s("long")}), item{"pk": s("long"), "d": s(long)})
	err := set(token, changed)
	var ipm *types.IdempotentParameterMismatchException
	if !errors.As(err, &ipm) {
		t.Fatalf("same token, one byte of a 100 KB value changed: got %v, want IdempotentParameterMismatchException", err)
	}
	requireItem(t, mustGet(t, c, h, item{"pk": s("long")}), item{"pk": s("long"), "d": s(long)})
}
