package conformance

// Hostile input: text that is not Unicode, oversized attribute
// names, arithmetic overflow, malformed access keys.

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestAccessKeyCharacters(t *testing.T) {
	t.Parallel()
	if !target(t).FakeCredentials() {
		t.Skip("made-up access keys need a fake-credential target")
	}
	tests := []struct {
		key string
		ok  bool
	}{
		{"local", true}, {"fakeMyKeyId", true}, {"A1", true}, {strings.Repeat("K", 128), true},
		{"bad-key", false}, {"bad_key", false}, {"bad.key", false},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			t.Parallel()
			c := newClient(t, withAccessKey(tt.key))
			_, err := c.ListTables(ctx(t), &dynamodb.ListTablesInput{})
			if tt.ok {
				mustNoError(t, err)
				return
			}
			requireAPIError(t, err, "UnrecognizedClientException", "The Access Key ID or security token is invalid.")
		})
	}
}

func TestAccessKeyTooLong(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local accepts access keys of any length; AWS's are at most 128 characters")
	if !target(t).FakeCredentials() {
		t.Skip("made-up access keys need a fake-credential target")
	}
	c := newClient(t, withAccessKey(strings.Repeat("K", 129)))
	_, err := c.ListTables(ctx(t), &dynamodb.ListTablesInput{})
	requireAPIError(t, err, "UnrecognizedClientException", "The Access Key ID or security token is invalid.")
}

func TestTextNotUnicodeRefused(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "AWS answers a body that is not UTF-8 with 400 SerializationException; DynamoDB Local answers 500 InternalFailure for raw bytes and stores lone surrogate escapes")
	c := newClient(t)
	table := hashTable(t, c)
	for _, key := range []string{"k\xff", "k\xfe", `k\ud800`, `k\udc00`} {
		r := rawCall(t, "PutItem", `{"TableName":"`+table+`","Item":{"pk":{"S":"`+key+`"}}}`)
		if r.Status != 400 || r.Type != "SerializationException" {
			t.Errorf("key %q: got %d %s: %s, want 400 SerializationException", key, r.Status, r.Type, r.Body)
		}
	}
	out, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table})
	mustNoError(t, err)
	if out.Count != 0 {
		t.Fatalf("got %d items stored, want none", out.Count)
	}
}

func TestAttributeNameTooLargeInExpressionAttributeNames(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	key := item{"pk": s("a")}
	_, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: key,
		ProjectionExpression: aws.String("#n"), ExpressionAttributeNames: map[string]string{"#n": strings.Repeat("n", 65536)}})
	requireValidation(t, err, "ExpressionAttributeNames contains invalid value: Attribute name is too large, must be less than 65536 bytes for key #n")
	_, err = c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: key,
		ProjectionExpression: aws.String("#n"), ExpressionAttributeNames: map[string]string{"#n": strings.Repeat("n", 65535)}})
	mustNoError(t, err)
}

func TestAttributeNameEmptyInLegacyParameters(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	table := hashTable(t, c)
	key := item{"pk": s("a")}
	_, err := c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: key, AttributesToGet: []string{""}})
	requireValidation(t, err, "Empty attribute name")
	_, err = c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key,
		AttributeUpdates: map[string]types.AttributeValueUpdate{"": {Action: types.AttributeActionPut, Value: s("x")}}})
	requireValidation(t, err, "Empty attribute name")
}

func TestAttributeNameTooLarge(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "AWS refuses attribute names of 64 KB or more; DynamoDB Local answers 500 InternalFailure for item names and AttributeUpdates and accepts them in AttributesToGet")
	c := newClient(t)
	table := hashTable(t, c)
	over := strings.Repeat("n", 65536)
	const msg = "Attribute name is too large, must be less than 65536 bytes"
	key := item{"pk": s("a")}
	_, err := c.PutItem(ctx(t), &dynamodb.PutItemInput{TableName: &table, Item: item{"pk": s("a"), over: s("x")}})
	requireValidation(t, err, msg)
	_, err = c.GetItem(ctx(t), &dynamodb.GetItemInput{TableName: &table, Key: key, AttributesToGet: []string{over}})
	requireValidation(t, err, msg)
	_, err = c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: key,
		AttributeUpdates: map[string]types.AttributeValueUpdate{over: {Action: types.AttributeActionPut, Value: s("x")}}})
	requireValidation(t, err, msg)
	mustPut(t, c, table, item{"pk": s("b"), strings.Repeat("n", 65535): s("x")})
}

func TestArithmeticOverflow(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "AWS answers a sum past the number range with the overflow error; DynamoDB Local with \"DynamoDB only supports precision up to 38 digits\"")
	c := newClient(t)
	table := hashTable(t, c)
	max := strings.Repeat("9", 38) + "E88" // 9.99...9E125
	mustPut(t, c, table, item{"pk": s("a"), "v": n(max)})
	const overflow = "Number overflow. Attempting to store a number with magnitude larger than supported range"
	for _, upd := range []string{"SET v = v + :x", "ADD v :x"} {
		_, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("a")},
			UpdateExpression: aws.String(upd), ExpressionAttributeValues: item{":x": n("9E100")}})
		requireValidation(t, err, overflow)
	}
}
