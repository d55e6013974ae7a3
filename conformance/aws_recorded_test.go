package conformance

// Expressions and updates: answers once pinned as unknown
// (AWSUnknown) for which a record of AWS's answer has been found since.

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
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
