package conformance

// BatchWriteItem far over its 25 writes a table: the emulator reads such
// a body as it arrives, keeps each table's first writes and the echo the
// answer shows (docs/server.md, "What one request can cost"), and
// answers as for the whole body: nothing is written.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"
)

// TestBatchWriteFarOverLimit: a BatchWriteItem of 3,000 puts for one
// table and 3 for another (a body of 600 KB and more) is refused and
// writes nothing, in either table. AWS's answer echoes the whole map,
// tables by name (TestBatchWriteLongListEcho: the emulator cuts the echo
// at 64 KB, as no public record shows AWS's answer for a list this
// long); DynamoDB Local answers its own sentence, so only the error's
// type is checked against it.
func TestBatchWriteFarOverLimit(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	big, small := hashTable(t, c), hashTable(t, c)
	pad := strings.Repeat("x", 150)
	put := func(i int) types.WriteRequest {
		return types.WriteRequest{PutRequest: &types.PutRequest{Item: item{"pk": s(fmt.Sprint("far", i)), "v": s(pad)}}}
	}
	var writes []types.WriteRequest
	for i := range farOver {
		writes = append(writes, put(i))
	}
	_, err := c.BatchWriteItem(ctx(t), &dynamodb.BatchWriteItemInput{RequestItems: map[string][]types.WriteRequest{
		big: writes, small: {put(0), put(1), put(2)},
	}})
	requireAPIError(t, err, "ValidationException", "")
	if target(t).Oracle == "" {
		msg := apiMessage(err)
		first, second := min(big, small), max(big, small)
		require.True(t, strings.HasPrefix(msg, "1 validation error detected: Value '{"+first+"=[WriteRequest(putRequest=PutRequest(item={pk="), "%.200q", msg)
		require.True(t, strings.HasSuffix(msg, "' at 'requestItems' failed to satisfy constraint: "+mapValueRules), "%.200q", msg[max(0, len(msg)-200):])
		require.Contains(t, msg, "...(echo cut at 65536 bytes by dynamoemu)")
		require.LessOrEqual(t, len(msg), 70_000)
		if first == small { // the small table's echo, then the big one's name, before the cut
			require.Contains(t, msg, "], "+second+"=[WriteRequest(")
		}
	}
	for _, table := range []string{big, small} {
		requireItem(t, mustGet(t, c, table, item{"pk": s("far0")}), nil)
	}
}
