package conformance

// Expressions and updates: answers once pinned as unknown
// (AWSUnknown) for which a record of AWS's answer has been found since.

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

// TestUpdatedValuesAfterListRemove: UPDATED_OLD and UPDATED_NEW of a
// REMOVE of a list element: the element before, and what holds its index
// after (the next element shifted back; nothing when it was the last), a
// removed index that did not exist left out. AWS's answers as recorded by
// ScyllaDB's tests run against DynamoDB (test/alternator/
// test_returnvalues.py, test_update_item_returnvalues_nested: "REMOVE
// a.c[1], a.c[3]" answers UPDATED_OLD {a: {c: [3]}}, and "REMOVE a.c[1]"
// UPDATED_NEW the element shifted into a.c[1]).
func TestUpdatedValuesAfterListRemove(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local returns the whole list")
	c := newClient(t)
	table := hashTable(t, c)
	cases := []struct {
		list   []types.AttributeValue
		update string
		rv     types.ReturnValue
		want   item
	}{
		{[]types.AttributeValue{s("a"), s("b"), s("c")}, "REMOVE l[1]", types.ReturnValueUpdatedOld, item{"l": l(s("b"))}},
		{[]types.AttributeValue{s("a"), s("b"), s("c")}, "REMOVE l[1]", types.ReturnValueUpdatedNew, item{"l": l(s("c"))}},
		{[]types.AttributeValue{s("a"), s("b")}, "REMOVE l[1]", types.ReturnValueUpdatedNew, nil},
		{[]types.AttributeValue{n("1"), n("3"), n("3")}, "REMOVE l[1], l[3]", types.ReturnValueUpdatedOld, item{"l": l(n("3"))}},
	}
	for _, tc := range cases {
		mustPut(t, c, table, item{"pk": s("k"), "l": l(tc.list...)})
		out, err := c.UpdateItem(ctx(t), &dynamodb.UpdateItemInput{TableName: &table, Key: item{"pk": s("k")},
			UpdateExpression: aws.String(tc.update), ReturnValues: tc.rv})
		mustNoError(t, err)
		if got, want := renderItem(out.Attributes), renderItem(tc.want); got != want {
			t.Errorf("%d elements, %s, %s: got %s, want %s", len(tc.list), tc.update, tc.rv, got, want)
		}
	}
}

// TestUnpaddedBase64: a B value in base64 without its "=" padding is
// refused: SerializationException "Base64 encoded length is expected a
// multiple of 4 bytes but found: 11", AWS's answer as recorded in
// scylladb/scylladb#6487.
func TestUnpaddedBase64(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local answers 500 InternalFailure")
	c := newClient(t)
	table := hashTable(t, c)
	for _, tc := range []struct{ b, msg string }{
		{"YWJjZGVmZ2g", "Base64 encoded length is expected a multiple of 4 bytes but found: 11"},
		{"YWI", "Base64 encoded length is expected a multiple of 4 bytes but found: 3"},
	} {
		r := rawCall(t, "PutItem", `{"TableName":"`+table+`","Item":{"pk":{"S":"k"},"b":{"B":"`+tc.b+`"}}}`)
		if r.Status != 400 || r.Type != "SerializationException" || r.Message != tc.msg {
			t.Errorf("%s: got %d %s %q, want 400 SerializationException %q", tc.b, r.Status, r.Type, r.Message, tc.msg)
		}
	}
	if got := mustGet(t, c, table, item{"pk": s("k")}); got != nil {
		t.Errorf("the refused item was written: %s", renderItem(got))
	}
}

// TestHashTableStartKey: an ExclusiveStartKey that is not the key of a
// table with a partition key only. AWS's answers as dynalite's tests
// against DynamoDB record them (test/scan.js "ExclusiveStartKey does not
// match schema", test/query.js "ExclusiveStartKey is invalid" and "does
// not match hash schema"): a Scan answers "The provided starting key is
// invalid: The provided key element does not match the schema" for every
// such key; a Query "The provided starting key is invalid" for a key of
// other attributes and "The provided key element does not match the
// schema" for a partition key of another type. ScyllaDB's AWS-verified
// test_scan.py quotes the Scan message too (spurious attribute). A start
// key that is the table's key starts a Scan after it; a Query refuses it
// (TestQueryNoSortKeyStartKey: Alternator's AWS-verified test_query.py).
func TestHashTableStartKey(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, `DynamoDB Local answers "Exclusive Start Key must have same size as table's key schema", "Type mismatch for attribute to update" or "The provided starting key is invalid"`)
	c := newClient(t)
	table := hashTable(t, c)
	mustPut(t, c, table, item{"pk": s("a")})
	mustPut(t, c, table, item{"pk": s("b")})
	const scanMsg = "The provided starting key is invalid: The provided key element does not match the schema"
	const (
		invalid  = "The provided starting key is invalid"
		mismatch = "The provided key element does not match the schema"
	)
	for _, tc := range []struct {
		name  string
		start item
		query string
	}{
		{"empty", item{}, invalid},
		{"another attribute", item{"b": s("a")}, invalid},
		{"the key and another attribute", item{"pk": s("a"), "b": s("a")}, invalid},
		{"a number key", item{"pk": n("1")}, mismatch},
		{"a binary key", item{"pk": b([]byte("abcd"))}, mismatch},
		{"a set", item{"pk": ss("a")}, mismatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, ExclusiveStartKey: tc.start})
			requireValidation(t, err, scanMsg)
			_, err = c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, ExclusiveStartKey: tc.start,
				KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": s("a")}})
			requireValidation(t, err, tc.query)
		})
	}
	t.Run("the table's key", func(t *testing.T) {
		t.Parallel()
		out, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table})
		mustNoError(t, err)
		require.Len(t, out.Items, 2)
		rest, err := c.Scan(ctx(t), &dynamodb.ScanInput{TableName: &table, ExclusiveStartKey: item{"pk": out.Items[0]["pk"]}})
		mustNoError(t, err)
		requireItems(t, rest.Items, out.Items[1:])
		_, err = c.Query(ctx(t), &dynamodb.QueryInput{TableName: &table, ExclusiveStartKey: item{"pk": s("a")},
			KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: item{":p": s("a")}})
		requireValidation(t, err, "The provided exclusive start key is invalid: ExclusiveStartKey: {pk=AttributeValue: {S:a}}")
	})
}
