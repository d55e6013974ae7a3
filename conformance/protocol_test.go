package conformance

// The wire protocol below the SDK: malformed requests, unknown operations, tagging.

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestSerializationErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, op, body string }{
		{"malformed JSON", "ListTables", "not json"},
		{"truncated JSON", "ListTables", `{"Limit":`},
		{"table name a number", "DescribeTable", `{"TableName":123}`},
		{"limit a string", "ListTables", `{"Limit":"ten"}`},
		{"attribute value S a number", "PutItem", `{"TableName":"abc","Item":{"pk":{"S":1}}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			AWSDiffers(t, "AWS answers 400 SerializationException; DynamoDB Local answers 500 or a validation error")
			r := rawCall(t, tc.op, tc.body)
			if r.Status != 400 || r.Type != "SerializationException" {
				t.Fatalf("got %d %s: %s, want 400 SerializationException", r.Status, r.Type, r.Body)
			}
		})
	}
}

func TestUnknownOperation(t *testing.T) {
	t.Parallel()
	r := rawCall(t, "FooBar", "{}")
	if r.Status != 400 || r.Type != "UnknownOperationException" {
		t.Fatalf("got %d %s: %s, want 400 UnknownOperationException", r.Status, r.Type, r.Body)
	}
}

func TestTagging(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local does not support tagging (UnknownOperationException)")
	c := newClient(t)
	table := hashTable(t, c)
	arn := mustDescribe(t, c, table).TableArn
	_, err := c.TagResource(ctx(t), &dynamodb.TagResourceInput{ResourceArn: arn, Tags: []types.Tag{{Key: strp("team"), Value: strp("db")}}})
	mustNoError(t, err)
	out, err := c.ListTagsOfResource(ctx(t), &dynamodb.ListTagsOfResourceInput{ResourceArn: arn})
	mustNoError(t, err)
	if len(out.Tags) != 1 || *out.Tags[0].Key != "team" || *out.Tags[0].Value != "db" {
		t.Fatalf("Tags = %+v, want team=db", out.Tags)
	}
}

func strp(s string) *string { return &s }
