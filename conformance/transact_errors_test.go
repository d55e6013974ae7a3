package conformance

// Transaction errors: an item-level fault of one action cancels the
// transaction with a ValidationError reason for that action and None for
// the others; request-level faults stay ValidationExceptions. AWS's
// answers as recorded in paritysuite/dynamodb-conformance (captured
// against AWS: tests/tier3/error-messages/transactWriteItems.test.ts,
// transactGetItems.test.ts).

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"
)

const (
	msgTypeMismatchS = "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N"
	msgSchemaKey     = "The provided key element does not match the schema"
)

func txUpdate(table string, key item) types.TransactWriteItem {
	return types.TransactWriteItem{Update: &types.Update{TableName: &table, Key: key,
		UpdateExpression: aws.String("SET a = :v"), ExpressionAttributeValues: item{":v": s("x")}}}
}

// TestTransactWriteItemFaults: a key that does not fit the table's key
// schema (wrong type, not a scalar, missing) is the ValidationError reason
// of its action, None for the others, and nothing is written.
func TestTransactWriteItemFaults(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	h := hashTable(t, c)
	ok := txPut(h, item{"pk": s("tx-fault-ok")})
	tests := []struct {
		name   string
		items  []types.TransactWriteItem
		codes  []string
		msgs   []string // reason messages; "" for None
		differ string   // non-empty: DynamoDB Local answers otherwise
	}{
		{"put key of another type", []types.TransactWriteItem{txPut(h, item{"pk": n("5")})},
			[]string{"ValidationError"}, []string{msgTypeMismatchS},
			"DynamoDB Local's reason message stops at \"Type mismatch for key\""},
		{"put key not a scalar", []types.TransactWriteItem{txPut(h, item{"pk": l(s("x"))})},
			[]string{"ValidationError"}, []string{"One or more parameter values were invalid: Type mismatch for key pk expected: S actual: L"},
			"DynamoDB Local answers ValidationException \"Invalid attribute value type\""},
		// AWS's record pins the code of a missing key (TransactGetItems);
		// the reason's message is PutItem's, as for the other Put faults.
		{"put key missing", []types.TransactWriteItem{ok, txPut(h, item{"other": s("x")})},
			[]string{"None", "ValidationError"}, []string{"", "One or more parameter values were invalid: Missing the key pk in the item"},
			"DynamoDB Local answers ValidationException \"One of the required keys was not given a value\""},
		{"delete key of another type", []types.TransactWriteItem{txDelete(h, item{"pk": n("5")}), ok},
			[]string{"ValidationError", "None"}, []string{msgSchemaKey, ""},
			"DynamoDB Local's reason message is \"One or more parameter values were invalid: Type mismatch for key\""},
		{"delete key not a scalar", []types.TransactWriteItem{txDelete(h, item{"pk": l(s("x"))})},
			[]string{"ValidationError"}, []string{msgSchemaKey},
			"DynamoDB Local answers ValidationException \"Invalid attribute value type\""},
		{"update key of another type", []types.TransactWriteItem{ok, txUpdate(h, item{"pk": n("5")})},
			[]string{"None", "ValidationError"}, []string{"", msgSchemaKey},
			"DynamoDB Local's reason message is \"One or more parameter values were invalid: Type mismatch for key\""},
		{"condition check key not a scalar", []types.TransactWriteItem{txCheck(h, item{"pk": l(s("x"))}, "attribute_not_exists(pk)")},
			[]string{"ValidationError"}, []string{msgSchemaKey},
			"DynamoDB Local answers ValidationException \"Invalid attribute value type\""},
		{"condition check key of another type", []types.TransactWriteItem{txCheck(h, item{"pk": n("5")}, "attribute_not_exists(pk)")},
			[]string{"ValidationError"}, []string{msgSchemaKey},
			"DynamoDB Local's reason message is \"One or more parameter values were invalid: Type mismatch for key\""},
		{"delete key with an extra attribute", []types.TransactWriteItem{txDelete(h, item{"pk": s("a"), "other": s("b")})},
			[]string{"ValidationError"}, []string{msgSchemaKey},
			"DynamoDB Local answers TransactionCanceledException \"The number of conditions on the keys is invalid\" without reasons"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.differ != "" {
				AWSDiffers(t, tc.differ)
			}
			_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: tc.items})
			reasons := requireCanceled(t, err, tc.codes...)
			for i, r := range reasons {
				if got := aws.ToString(r.Message); got != tc.msgs[i] {
					t.Errorf("reason %d: got %q, want %q", i, got, tc.msgs[i])
				}
			}
		})
	}
	requireItem(t, mustGet(t, c, h, item{"pk": s("tx-fault-ok")}), nil)
}

// TestTransactWriteItemFaultCodes: the part of the answer DynamoDB Local
// shares with AWS, checked against both: the codes, in action order.
func TestTransactWriteItemFaultCodes(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	h := hashTable(t, c)
	_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		txDelete(h, item{"pk": n("5")}), txPut(h, item{"pk": s("tx-codes")}),
	}})
	requireCanceled(t, err, "ValidationError", "None")
	requireItem(t, mustGet(t, c, h, item{"pk": s("tx-codes")}), nil)
}

// TestTransactEmptyKeyIsRequestLevel: an empty key value is refused up
// front as a ValidationException, on every action kind (AWS's record).
func TestTransactEmptyKeyIsRequestLevel(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	h := hashTable(t, c)
	const msg = "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk"
	for _, ti := range []types.TransactWriteItem{
		txPut(h, item{"pk": s("")}), txDelete(h, item{"pk": s("")}), txUpdate(h, item{"pk": s("")}),
		txCheck(h, item{"pk": s("")}, "attribute_not_exists(pk)"),
	} {
		_, err := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{ti}})
		requireValidation(t, err, msg)
	}
}

// TestTransactGetItemFaults: TransactGetItems cancels for a Get whose key
// does not fit the schema (AWS's record: Key {} is a ValidationError
// reason, not a ValidationException).
func TestTransactGetItemFaults(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local answers TransactionCanceledException without reasons (\"The number of conditions on the keys is invalid\", \"... Type mismatch for key\")")
	c := newClient(t)
	h := hashTable(t, c)
	get := func(key item) types.TransactGetItem {
		return types.TransactGetItem{Get: &types.Get{TableName: &h, Key: key}}
	}
	tests := []struct {
		name  string
		items []types.TransactGetItem
		codes []string
	}{
		{"empty key", []types.TransactGetItem{get(item{})}, []string{"ValidationError"}},
		{"second key of another type", []types.TransactGetItem{get(item{"pk": s("a")}), get(item{"pk": n("1")})}, []string{"None", "ValidationError"}},
	}
	for _, tc := range tests {
		_, err := c.TransactGetItems(ctx(t), &dynamodb.TransactGetItemsInput{TransactItems: tc.items})
		reasons := requireCanceled(t, err, tc.codes...)
		last := reasons[len(reasons)-1]
		if got := aws.ToString(last.Message); got != msgSchemaKey {
			t.Errorf("%s: reason message %q, want %q", tc.name, got, msgSchemaKey)
		}
	}
}

// TestTransactItemsLimit: more than 100 actions is a constraint violation
// that echoes the list, as AWS words it ("1 validation error detected:
// Value '[...]' at 'transactItems' failed to satisfy constraint: Member
// must have length less than or equal to 100"; AWS's record matches the
// echo with a pattern, as its contents are Java object identities).
func TestTransactItemsLimit(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local answers the bare constraint \"Member must have length less than or equal to 100\"")
	c := newClient(t)
	h := hashTable(t, c)
	want := regexp.MustCompile(`^1 validation error detected: Value '\[.+\]' at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100$`)
	var writes []types.TransactWriteItem
	var gets []types.TransactGetItem
	for i := range 101 {
		writes = append(writes, txPut(h, item{"pk": s(fmt.Sprint("lim", i))}))
		gets = append(gets, types.TransactGetItem{Get: &types.Get{TableName: &h, Key: item{"pk": s(fmt.Sprint("lim", i))}}})
	}
	_, werr := c.TransactWriteItems(ctx(t), &dynamodb.TransactWriteItemsInput{TransactItems: writes})
	_, gerr := c.TransactGetItems(ctx(t), &dynamodb.TransactGetItemsInput{TransactItems: gets})
	for op, err := range map[string]error{"TransactWriteItems": werr, "TransactGetItems": gerr} {
		requireAPIError(t, err, "ValidationException", "")
		if msg := apiMessage(err); !want.MatchString(msg) {
			t.Errorf("%s: got %.200q, want %s", op, msg, want)
		}
	}
	requireItem(t, mustGet(t, c, h, item{"pk": s("lim0")}), nil)
}

// apiMessage is the message of an API error, or "" for another error.
func apiMessage(err error) string {
	var ae smithy.APIError
	if !asErr(err, &ae) {
		return ""
	}
	return ae.ErrorMessage()
}
