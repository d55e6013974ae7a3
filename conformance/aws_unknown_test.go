package conformance

// Expressions and updates: where AWS and DynamoDB Local
// disagree and no record of AWS's answer was found. Each test pins the
// emulator's answer and says what is unknown (AWSUnknown).

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
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

// TestAddToStringSetOrder: the order of a string set's members after
// ADD. Sets have no order (developer guide: "the order of the values
// within a set is not preserved"), and AWS's answers are recorded both
// sorted (fake_dynamo#9, 2013) and not (aws-sdk-php-laravel#46: [1, 2, 3]
// came back {2, 3, 1}); the emulator keeps the members in the order they
// were added, DynamoDB Local sorts them.
func TestAddToStringSetOrder(t *testing.T) {
	t.Parallel()
	AWSUnknown(t, "the member order of a set after ADD: DynamoDB Local sorts; AWS's records disagree")
	c := newClient(t)
	table := hashTable(t, c)
	mustPut(t, c, table, item{"pk": s("k"), "ss": ss("b", "d", "a")})
	out, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("k")},
		UpdateExpression: aws.String("ADD ss :v"), ExpressionAttributeValues: item{":v": ss("c", "aa")},
		ReturnValues: types.ReturnValueUpdatedNew})
	mustNoError(t, err)
	got := out.Attributes["ss"].(*types.AttributeValueMemberSS).Value
	if want := []string{"b", "d", "a", "c", "aa"}; !equalStrings(got, want) {
		t.Errorf("got %v, want %v", got, want)
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
