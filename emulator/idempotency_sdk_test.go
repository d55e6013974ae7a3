package emulator_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestSDKTransactionTokensHoldNoRequests: aws-sdk-go-v2 fills a
// ClientRequestToken on every TransactWriteItems, so each ordinary
// transaction leaves a token behind for ten minutes. 300 transactions of
// about 1 MB each leave the heap within 10 MB of where it started, and
// once the emulator's clock passes the ten minutes the tokens are gone
// without another request. (Before: each token kept its whole decoded
// request, 300 MB for 11 minutes.) Under the race detector the
// transactions are 100 KB unless DYNAMOEMU_FULLSIZE=1 (emulator.FullSize):
// 30 MB, still three times the slack if requests were kept.
func TestSDKTransactionTokensHoldNoRequests(t *testing.T) {
	if testing.Short() {
		t.Skip("300 transactions of 1 MB")
	}
	e, db := emulatortest.NewWith(t, emulator.Options{})
	ctx := context.Background()
	if _, err := db.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:            aws.String("tokens"),
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash}},
		BillingMode:          types.BillingModePayPerRequest,
	}); err != nil {
		t.Fatal(err)
	}
	// Three items of 340 KB, the same keys every time, so the table holds
	// 1 MB whatever the number of transactions; each request differs.
	itemBytes := 340 << 10
	if !testkit.FullSize() {
		itemBytes = 34 << 10
	}
	tx := func(i int, token *string) error {
		var items []types.TransactWriteItem
		for k := range 3 {
			items = append(items, types.TransactWriteItem{Put: &types.Put{
				TableName: aws.String("tokens"),
				Item: map[string]types.AttributeValue{
					"pk":   &types.AttributeValueMemberS{Value: fmt.Sprint("k", k)},
					"n":    &types.AttributeValueMemberN{Value: fmt.Sprint(i)},
					"blob": &types.AttributeValueMemberS{Value: strings.Repeat(string(rune('a'+(i+k)%26)), itemBytes)},
				},
			}})
		}
		_, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items, ClientRequestToken: token})
		return err
	}
	if err := tx(-1, nil); err != nil { // warm up the client and the pools
		t.Fatal(err)
	}
	before := testkit.LiveHeap()
	const n = 300
	for i := range n {
		if err := tx(i, nil); err != nil {
			t.Fatalf("transaction %d: %v", i, err)
		}
	}
	// A token of our own, to see the window work: its replay writes nothing.
	if err := tx(1000, aws.String("mine")); err != nil {
		t.Fatal(err)
	}
	if err := tx(1000, aws.String("mine")); err != nil {
		t.Fatalf("replay within the window: %v", err)
	}
	var mismatch *types.IdempotentParameterMismatchException
	if err := tx(1001, aws.String("mine")); !errors.As(err, &mismatch) {
		t.Fatalf("another request under the token within the window: %v, want IdempotentParameterMismatchException", err)
	}
	held := testkit.LiveHeap()
	e.Clock().Advance(10*time.Minute + time.Second)
	after := testkit.LiveHeap()
	t.Logf("live heap: %d KB before, %d KB after %d transactions of %d KB, %d KB once the clock passed 10 minutes",
		before>>10, held>>10, n+3, 3*itemBytes>>10, after>>10)
	const slack = 10 << 20
	if held > before+slack {
		t.Errorf("after %d transactions the heap grew by %d MB, want at most 10 MB", n, (held-before)>>20)
	}
	if after > before+slack {
		t.Errorf("once the clock passed 10 minutes the heap is %d MB above where it started, want at most 10 MB", (after-before)>>20)
	}
	// The token is gone: the same request under it is a new transaction
	// again, and the same token with another request is no mismatch.
	if err := tx(1001, aws.String("mine")); err != nil {
		t.Errorf("token reused with another request after the window: %v, want success", err)
	}
}
