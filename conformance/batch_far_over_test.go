package conformance

// BatchWriteItem far over its 25 writes a table, and BatchGetItem far
// over its 100 keys: the emulator reads such a body as it arrives, keeps
// each table's first writes or keys and the echo the answer shows
// (docs/server.md, "What one request can cost"), and answers as for the
// whole body: nothing is written.

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

// TestBatchExecuteStatementFarOverLimit: BatchExecuteStatement of 3,000
// statements is refused by the kinds it holds, whatever their number:
// all writes, all reads, or writes with one read at the end, far past
// the 26th statement (the emulator reads such a body as it arrives,
// keeping the first 26 statements and the first later one of each
// kind). Nothing is written.
func TestBatchExecuteStatementFarOverLimit(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	p := partiqlTable(t, c)
	pad := strings.Repeat("x", 150)
	writes, reads := make([]string, farOver), make([]string, farOver)
	for i := range farOver {
		writes[i] = fmt.Sprintf("INSERT INTO %s VALUE {'pk': 'far', 'sk': %d, 'v': '%s'}", quoted(p), i, pad)
		reads[i] = fmt.Sprintf("SELECT * FROM %s WHERE pk = 'far' AND sk = %d", quoted(p), i)
	}
	mixed := append(append([]string(nil), writes[:farOver-1]...), reads[0])
	for _, tc := range []struct {
		stmts []string
		want  string
	}{
		{writes, "BatchWriteItem cannot write more than 25 items"},
		{reads, "BatchGetItem cannot fetch more than 25 items"},
		{mixed, "Read and write requests together in the same batch is not supported."},
	} {
		_, err := c.BatchExecuteStatement(ctx(t), &dynamodb.BatchExecuteStatementInput{Statements: batchStatements(tc.stmts...)})
		requireValidation(t, err, tc.want)
	}
	requireItem(t, mustGet(t, c, p, item{"pk": s("far"), "sk": n("0")}), nil)
}

// TestBatchGetFarOverLimit: a BatchGetItem of 3,000 keys for one table
// and 3 for another (a body of 400 KB and more, read as it arrives) is
// refused for the long table's Keys, as AWS words it (no echo; the
// record in batch_errors_test.go). With a table name that is no name,
// AWS's answer echoes the whole map as JSON; the emulator cuts that echo
// at 64 KB, as no public record shows AWS's answer for a map this long.
// Keys over the limit beside a long AttributesToGet (whose names past
// the echo the emulator drops as they arrive) get the Keys' violation.
// DynamoDB Local answers its own sentences, so only the error's type is
// checked against it.
func TestBatchGetFarOverLimit(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	big, small := hashTable(t, c), hashTable(t, c)
	pad := strings.Repeat("x", 120)
	keys := func(table string, n int) string { return keysObject(table, "far", pad, n, `,"ConsistentRead":true`) }
	r := rawCall(t, "BatchGetItem", `{"RequestItems":{`+keys(big, farOver)+`,`+keys(small, 3)+`},"ReturnConsumedCapacity":"TOTAL"}`)
	require.Equal(t, 400, r.Status, r.Message)
	require.Equal(t, "ValidationException", r.Type, r.Message)
	if target(t).Oracle == "" {
		require.Equal(t, "1 validation error detected: Value at 'RequestItems."+big+".member.Keys' failed to satisfy constraint: Member must have length less than or equal to 100", r.Message)
	}

	r = rawCall(t, "BatchGetItem", `{"RequestItems":{`+keys(small, 3)+`,`+keys("bad!name", farOver)+`}}`)
	require.Equal(t, 400, r.Status, r.Message)
	require.Equal(t, "ValidationException", r.Type, r.Message)
	if target(t).Oracle == "" {
		require.True(t, strings.HasPrefix(r.Message, `2 validation errors detected: Value '{"bad!name":{"Keys":[{"pk":{"S":"far0`+pad+`"}},`), "%.200q", r.Message)
		require.Contains(t, r.Message, "...(echo cut at 65536 bytes by dynamoemu)' at 'requestItems' failed to satisfy constraint: "+mapKeysRules+
			"; Value at 'RequestItems.bad!name.member.Keys' failed to satisfy constraint: Member must have length less than or equal to 100")
		if small > "bad!name" { // tables by name: the small one after the cut
			require.NotContains(t, r.Message, small)
		}
		require.LessOrEqual(t, len(r.Message), 70_000)
	}

	// Keys over the limit with an AttributesToGet of 60,000 names (about
	// 900 KB, far past the echo an answer shows): the same violation.
	names := make([]string, 60_000)
	for i := range names {
		names[i] = fmt.Sprintf(`"name%07d"`, i)
	}
	withNames := strings.TrimSuffix(keys(big, 150), `}`) + `,"AttributesToGet":[` + strings.Join(names, ",") + `]}`
	r = rawCall(t, "BatchGetItem", `{"RequestItems":{`+withNames+`}}`)
	require.Equal(t, 400, r.Status, r.Message)
	require.Equal(t, "ValidationException", r.Type, r.Message)
	if target(t).Oracle == "" {
		require.Equal(t, "1 validation error detected: Value at 'RequestItems."+big+".member.Keys' failed to satisfy constraint: Member must have length less than or equal to 100", r.Message)
	}
}

// TestBatchGetOverTotal: a BatchGetItem of four tables of 100 keys of
// 1 KB each (a body of 400 KB and more, read as it arrives) is refused
// for its total of 400 keys: the emulator parks the keys of the tables
// after the first 101 keys and lets them go once the body has ended
// with no table named twice. With each table named again after them with
// one key (JSON keeps the last), the map holds 4 keys and is served: the
// keys parked come back (checked in process: an SDK writes no map twice).
func TestBatchGetOverTotal(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	tables := []string{hashTable(t, c), hashTable(t, c), hashTable(t, c), hashTable(t, c)}
	pad := strings.Repeat("x", 1000)
	keys := func(table string, n int) string { return keysObject(table, "tot", pad, n, "") }
	var parts, again []string
	for _, table := range tables {
		parts = append(parts, keys(table, 100))
		again = append(again, keys(table, 1))
	}
	r := rawCall(t, "BatchGetItem", `{"RequestItems":{`+strings.Join(parts, ",")+`}}`)
	require.Equal(t, 400, r.Status, r.Message)
	require.Equal(t, "ValidationException", r.Type, r.Message)
	require.Equal(t, "Too many items requested for the BatchGetItem call", r.Message)

	if target(t).Oracle == "" {
		r = rawCall(t, "BatchGetItem", `{"RequestItems":{`+strings.Join(parts, ",")+`,`+strings.Join(again, ",")+`}}`)
		require.Equal(t, 200, r.Status, r.Message)
	}
}

// keysObject is a BatchGetItem's table and its object: Keys of n keys
// (stem, their number, pad), then more.
func keysObject(table, stem, pad string, n int, more string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `"%s":{"Keys":[`, table)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"pk":{"S":"%s%d%s"}}`, stem, i, pad)
	}
	return b.String() + `]` + more + `}`
}
