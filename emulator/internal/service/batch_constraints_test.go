package service

import (
	"slices"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

func TestBatchWriteTableConstraint(t *testing.T) {
	put := WriteRequest{PutRequest: &PutRequest{Item: wire.WireItem{"id": storage.S("a")}}}
	del := WriteRequest{DeleteRequest: &DeleteRequest{Key: wire.WireItem{"id": storage.S("b")}}}
	reqs := make([]WriteRequest, 26)
	for i := range reqs {
		reqs[i] = put
	}
	reqs[25] = del
	if got := batchWriteTableConstraint(&BatchWriteItemInput{RequestItems: map[string][]WriteRequest{"T": reqs[:25]}}); got != nil {
		t.Errorf("25 requests: got %q, want none", slices.Collect(got))
	}
	got := strings.Join(slices.Collect(batchWriteTableConstraint(&BatchWriteItemInput{RequestItems: map[string][]WriteRequest{"T": reqs, "U": {put}}})), "")
	wantPrefix := "Value '{T=[WriteRequest(putRequest=PutRequest(item={id=com.amazonaws.dynamodb.v20120810.AttributeValue@"
	wantSuffix := "}, workloadProfileName=null), deleteRequest=null), WriteRequest(putRequest=null, deleteRequest=DeleteRequest(key={id=com.amazonaws.dynamodb.v20120810.AttributeValue@"
	wantEnd := ")], U=[WriteRequest(putRequest=PutRequest(item={id=com.amazonaws.dynamodb.v20120810.AttributeValue@"
	const constraint = "' at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have length greater than or equal to 1]"
	if !strings.HasPrefix(got, wantPrefix) || !strings.Contains(got, wantSuffix) || !strings.Contains(got, wantEnd) || !strings.HasSuffix(got, constraint) {
		t.Errorf("got %q", got)
	}
	if n := strings.Count(got, "WriteRequest("); n != 27 {
		t.Errorf("got %d echoed requests, want 27", n)
	}
}
