package conformance

// TagResource and UntagResource answer 200 with an empty body, not "{}"
// (AWS's responses as erlcloud/erlcloud#502 records them: "TagResource
// and UntagResource both return *empty* HTTP responses").

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTaggingAnswersEmptyBody(t *testing.T) {
	t.Parallel()
	AWSDiffers(t, "DynamoDB Local does not support tagging (UnknownOperationException)")
	c := newClient(t)
	table := hashTable(t, c)
	arn := *mustDescribe(t, c, table).TableArn
	tests := []struct{ op, body string }{
		{"TagResource", `{"ResourceArn":"` + arn + `","Tags":[{"Key":"a","Value":"b"}]}`},
		{"UntagResource", `{"ResourceArn":"` + arn + `","TagKeys":["a"]}`},
	}
	for _, tc := range tests {
		r := rawSend(t, tc.op, []byte(tc.body), nil)
		require.Equal(t, 200, r.Status, "%s: %s %s", tc.op, r.Type, r.Message)
		require.Empty(t, r.Body, "%s's body", tc.op)
	}
}
