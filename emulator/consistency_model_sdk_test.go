package emulator_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/internal/adminpath"
)

// TestConsistencyFuzzModel: in consistency fuzzing, against a map of
// what was committed, every strongly consistent read (GetItem, Query,
// TransactGetItems) answers the latest write, whatever the lag; an
// eventually consistent read answers some value the item had, never a
// value from the future, and a reader that retries sees the latest
// within three reads of the view; every stale answer is in the report.
func TestConsistencyFuzzModel(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	e, db := emulatortest.NewWith(t, emulator.Options{Consistency: "fuzz:" + strconv.FormatUint(seed, 10)})
	ctx := context.Background()
	suiteTable(t, db, "model")
	table := aws.String("model")
	latest := map[string]string{}    // id -> owner last written
	history := map[string][]string{} // id -> every owner written, "" for none
	get := func(id string, consistent bool) string {
		t.Helper()
		out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: table, Key: orderKey(id), ConsistentRead: aws.Bool(consistent)})
		require.NoError(t, err)
		if out.Item == nil {
			return ""
		}
		return out.Item["owner"].(*types.AttributeValueMemberS).Value
	}
	staleSeen := 0
	for step := range 300 {
		id := "o" + strconv.Itoa(rng.IntN(5))
		switch rng.IntN(6) {
		case 0, 1:
			owner := fmt.Sprintf("u%d", step)
			require.NoError(t, putOrder(ctx, suiteEnv{db: db, table: "model"}, id, owner))
			if len(history[id]) == 0 {
				history[id] = []string{""}
			}
			latest[id] = owner
			history[id] = append(history[id], owner)
		case 2:
			require.Equal(t, latest[id], get(id, true), "step %d: a strongly consistent GetItem of %s", step, id)
		case 3:
			out, err := db.Query(ctx, &dynamodb.QueryInput{TableName: table, ConsistentRead: aws.Bool(true),
				KeyConditionExpression: aws.String("pk = :p"), ExpressionAttributeValues: map[string]types.AttributeValue{
					":p": &types.AttributeValueMemberS{Value: id}}})
			require.NoError(t, err)
			if latest[id] == "" {
				require.Empty(t, out.Items)
			} else {
				require.Len(t, out.Items, 1)
				require.Equal(t, latest[id], out.Items[0]["owner"].(*types.AttributeValueMemberS).Value, "step %d: a strongly consistent Query", step)
			}
		case 4:
			out, err := db.TransactGetItems(ctx, &dynamodb.TransactGetItemsInput{TransactItems: []types.TransactGetItem{
				{Get: &types.Get{TableName: table, Key: orderKey(id)}}}})
			require.NoError(t, err)
			got := ""
			if it := out.Responses[0].Item; it != nil {
				got = it["owner"].(*types.AttributeValueMemberS).Value
			}
			require.Equal(t, latest[id], got, "step %d: TransactGetItems", step)
		case 5:
			got := get(id, false)
			if len(history[id]) == 0 {
				require.Empty(t, got)
				continue
			}
			require.Contains(t, history[id], got, "step %d: an eventually consistent read answers a value %s had", step, id)
			if got != latest[id] {
				staleSeen++
			}
			for tries := 0; got != latest[id]; tries++ {
				require.Less(t, tries, 3, "step %d: a retrying reader sees %s's latest within three reads", step, id)
				got = get(id, false)
			}
		}
	}
	rep := e.Reports().Consistency()
	require.Equal(t, "fuzz", rep.Mode)
	require.GreaterOrEqual(t, len(rep.StaleReads), staleSeen, "every stale answer is reported")
	for _, r := range rep.StaleReads {
		require.NotEmpty(t, r.Missed)
		require.Equal(t, "table", r.View, "only eventually consistent reads of the table were made")
	}

	// The admin endpoint answers the same report.
	srv := httptest.NewServer(e.Handler())
	defer srv.Close()
	res, err := http.Get(srv.URL + adminpath.Consistency)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	req, _ := http.NewRequest(http.MethodDelete, srv.URL+adminpath.Consistency, nil)
	req.Header.Set("Content-Type", "application/json") // the admin guard's
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Empty(t, e.Reports().Consistency().StaleReads)
}

// TestConsistencyFuzzEveryRead: in consistency fuzzing BatchGetItem,
// Scan and a PartiQL SELECT without ConsistentRead miss a write made
// just before them, each reported; with ConsistentRead they see it.
func TestConsistencyFuzzEveryRead(t *testing.T) {
	e, db := emulatortest.NewWith(t, emulator.Options{Consistency: "fuzz:9"})
	ctx := context.Background()
	suiteTable(t, db, "reads")
	env := suiteEnv{db: db, table: "reads"}
	// Each read is of an item of its own ("b" and its op), written once.
	reads := []struct {
		op   string
		read func(consistent bool) int
	}{
		{"BatchGetItem", func(consistent bool) int {
			out, err := db.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: map[string]types.KeysAndAttributes{
				"reads": {Keys: []map[string]types.AttributeValue{orderKey("bBatchGetItem")}, ConsistentRead: aws.Bool(consistent)}}})
			require.NoError(t, err)
			return len(out.Responses["reads"])
		}},
		{"Scan", func(consistent bool) int {
			out, err := db.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("reads"), ConsistentRead: aws.Bool(consistent),
				FilterExpression: aws.String("pk = :p"), ExpressionAttributeValues: map[string]types.AttributeValue{
					":p": &types.AttributeValueMemberS{Value: "bScan"}}})
			require.NoError(t, err)
			return len(out.Items)
		}},
		{"ExecuteStatement", func(consistent bool) int {
			out, err := db.ExecuteStatement(ctx, &dynamodb.ExecuteStatementInput{ConsistentRead: aws.Bool(consistent),
				Statement: aws.String(`SELECT * FROM "reads" WHERE pk = 'bExecuteStatement'`)})
			require.NoError(t, err)
			return len(out.Items)
		}},
	}
	for _, r := range reads {
		stop := e.Reports().CollectStaleReads()
		require.NoError(t, putOrder(ctx, env, "b"+r.op, "ann"))
		require.Equal(t, 1, r.read(true), "%s with ConsistentRead sees the put", r.op)
		require.Equal(t, 0, r.read(false), "%s without ConsistentRead right after the put misses it", r.op)
		stale, _ := stop()
		require.Len(t, stale, 1, r.op)
		require.Equal(t, r.op, stale[0].Op)
		require.Equal(t, "PutItem", stale[0].Missed[0].Op)
	}
}

// TestConsistencyFuzzTransactionsAndMoves: a transaction's writes show
// together (never half of it) and are each named when missed; an update
// that moves an item between GSI partitions leaves a GSI read of the old
// partition stale, reported with the update.
func TestConsistencyFuzzTransactionsAndMoves(t *testing.T) {
	e, db := emulatortest.NewWith(t, emulator.Options{Consistency: "fuzz:11"})
	ctx := context.Background()
	suiteTable(t, db, "moves")
	env := suiteEnv{db: db, table: "moves"}
	table := aws.String("moves")

	stop := e.Reports().CollectStaleReads()
	owner := func(id, who string) map[string]types.AttributeValue {
		it := orderKey(id)
		it["owner"] = &types.AttributeValueMemberS{Value: who}
		return it
	}
	_, err := db.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: []types.TransactWriteItem{
		{Put: &types.Put{TableName: table, Item: owner("t1", "ann")}},
		{Put: &types.Put{TableName: table, Item: owner("t2", "ann")}},
	}})
	require.NoError(t, err)
	for tries := 0; ; tries++ {
		require.Less(t, tries, 4, "the transaction shows within three reads")
		n, err := ordersOf(ctx, env, "ann")
		require.NoError(t, err)
		require.Contains(t, []int{0, 2}, n, "a GSI read sees the whole transaction or none of it")
		if n == 2 {
			break
		}
	}
	stale, _ := stop()
	require.NotEmpty(t, stale)
	missed := stale[0].Missed
	require.Len(t, missed, 2, "both of the transaction's writes are named")
	require.Equal(t, "TransactWriteItems", missed[0].Op)
	require.Equal(t, missed[0].Commit, missed[1].Commit, "one commit")

	stop = e.Reports().CollectStaleReads()
	_, err = db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: table, Key: orderKey("t1"),
		UpdateExpression: aws.String("SET #o = :o"), ExpressionAttributeNames: map[string]string{"#o": "owner"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":o": &types.AttributeValueMemberS{Value: "bea"}}})
	require.NoError(t, err)
	n, err := ordersOf(ctx, env, "ann")
	require.NoError(t, err)
	require.Equal(t, 2, n, "right after the move, the old partition still holds t1")
	stale, _ = stop()
	require.Len(t, stale, 1)
	require.Equal(t, map[string]map[string]string{"owner": {"S": "ann"}}, stale[0].Key)
	require.Equal(t, "UpdateItem", stale[0].Missed[0].Op)
	require.Equal(t, "MODIFY", stale[0].Missed[0].Event)
}
