package conformance

// Expressions and updates: where AWS and DynamoDB Local
// disagree and no record of AWS's answer was found. Each test pins the
// emulator's answer and says what is unknown (AWSUnknown).

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestReplayedTokenNoneOption: a TransactWriteItems replayed with its
// ClientRequestToken and ReturnItemCollectionMetrics NONE where the first
// request left it out. The API reference: "a change in other parameters"
// answers IdempotentParameterMismatchException, which the emulator reads
// literally (ReturnConsumedCapacity alone is left out of the comparison,
// as AWS's recorded answers show); whether AWS counts an explicit NONE as
// a change is not known. DynamoDB Local accepts the replay.
func TestReplayedTokenNoneOption(t *testing.T) {
	t.Parallel()
	AWSUnknown(t, "a replay adding ReturnItemCollectionMetrics NONE: DynamoDB Local accepts it; no AWS record found")
	c := newClient(t)
	table := hashTable(t, c)
	token := uniqueKey(t)
	write := func(metrics types.ReturnItemCollectionMetrics) error {
		_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{ClientRequestToken: &token,
			ReturnItemCollectionMetrics: metrics,
			TransactItems:               []types.TransactWriteItem{{Put: &types.Put{TableName: &table, Item: item{"pk": s("k")}}}}})
		return err
	}
	mustNoError(t, write(""))
	var mismatch *types.IdempotentParameterMismatchException
	if err := write(types.ReturnItemCollectionMetricsNone); !errors.As(err, &mismatch) {
		t.Fatalf("replay with NONE: got %v, want IdempotentParameterMismatchException", err)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
