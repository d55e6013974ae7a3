package conformance

// Transactions far over their 100 actions: the emulator reads such a body
// as it arrives and keeps its first actions only (docs/server.md, "What
// one request can cost"); the answer is the one a transaction of 101
// gets, with the echo of the actions cut at 64 KB (apierr.MaxEcho).

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// farOver is the number of actions of the transactions below: 3,000
// actions of 200 bytes, a body of 600 KB and more.
const farOver = 3000

// TestTransactionsFarOverLimit: TransactWriteItems, TransactGetItems and
// ExecuteTransaction of 3,000 actions are refused as those of 101 are,
// and nothing is written. DynamoDB Local answers the transactions'
// count with the bare constraint, AWS with the list echoed
// (TestTransactItemsLimit): the message is checked for the constraint
// and a bounded size only.
func TestTransactionsFarOverLimit(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	h := hashTable(t, c)
	pad := strings.Repeat("x", 150)
	var writes []types.TransactWriteItem
	var gets []types.TransactGetItem
	for i := range farOver {
		writes = append(writes, txPut(h, item{"pk": s(fmt.Sprint("far", i)), "v": s(pad)}))
		gets = append(gets, types.TransactGetItem{Get: &types.Get{TableName: &h, Key: item{"pk": s(fmt.Sprint("far", i, pad))}}})
	}
	_, werr := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: writes})
	_, gerr := c.TransactGetItems(ctx(t), &dynamodb.TransactGetItemsInput{TransactItems: gets})
	for op, err := range map[string]error{"TransactWriteItems": werr, "TransactGetItems": gerr} {
		requireAPIError(t, err, "ValidationException", "")
		msg := apiMessage(err)
		if !strings.HasSuffix(msg, "Member must have length less than or equal to 100") || len(msg) > 70_000 {
			t.Errorf("%s: got %d bytes: %.200q...%.200q", op, len(msg), msg, msg[max(0, len(msg)-200):])
		}
	}
	requireItem(t, mustGet(t, c, h, item{"pk": s("far0")}), nil)

	p := partiqlTable(t, c)
	texts := make([]string, farOver)
	for i := range texts {
		texts[i] = fmt.Sprintf("INSERT INTO %s VALUE {'pk': 'far', 'sk': %d, 'v': '%s'}", quoted(p), i, pad)
	}
	_, err := execTx(t, c, texts...)
	requireValidation(t, err, "Member must have length less than or equal to 100")
	out, err := c.ExecuteStatement(ctx(t), &dynamodb.ExecuteStatementInput{Statement: aws.String("SELECT * FROM " + quoted(p) + " WHERE pk = 'far'")})
	if err != nil || len(out.Items) != 0 {
		t.Errorf("after the refused transaction: %d items, %v", len(out.Items), err)
	}
}
