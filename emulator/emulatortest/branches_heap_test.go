package emulatortest_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator"
	"github.com/dynamoemu/dynamoemu/emulator/emulatortest"
	"github.com/dynamoemu/dynamoemu/internal/lease"
)

// TestDropBranchFreesItsHeap: a branch forked, read, written and dropped
// leaves nothing behind. Each round forks the base, reads it (a GetItem
// and a Query of its GSI), writes an item (which gives the branch its own
// catalog: its namespace, DB, tables and stream), writes another in a
// transaction with a ClientRequestToken, and drops it; after
// warm-up rounds, the live heap (runtime.ReadMemStats after a GC) once
// 1,000 more rounds ran (10,000 with DYNAMOEMU_HEAVY_TESTS) is within 1%
// of what it was before them. Without and with consistency fuzzing,
// which keeps a view of each table it lags until the table is gone. A
// written branch kept about 750 B when a dropped branch's namespace
// stayed registered, and its whole tables under fuzzing (23 KB here);
// a token kept the whole branch for the token's 10 minutes (100 KB).
func TestDropBranchFreesItsHeap(t *testing.T) {
	rounds := 1_000
	if os.Getenv("DYNAMOEMU_HEAVY_TESTS") != "" {
		rounds = 10_000
	}
	for _, consistency := range []string{"strong", "fuzz:7"} {
		t.Run(consistency, func(t *testing.T) {
			e, base := emulatortest.NewWith(t, emulator.Options{Consistency: consistency})
			seedOrders(t, base, 100)
			ctx := context.Background()
			opts := base.Options()
			cred, err := opts.Credentials.Retrieve(ctx)
			require.NoError(t, err)
			ns := e.Branches().NamespaceID(cred.AccessKeyID, opts.Region)
			round := func(i int) {
				name := fmt.Sprintf("heap%d", i)
				_, err := e.Branches().Fork(ns, name)
				require.NoError(t, err)
				c := dynamodb.New(opts, emulatortest.BranchHeader(name))
				got, err := c.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("orders"), Key: avs{"pk": str("TENANT#acme#ORDER#0000"), "sk": str("00")}})
				require.NoError(t, err)
				require.NotNil(t, got.Item)
				require.Equal(t, int32(100), countStatus(t, c, "NEW"))
				_, err = c.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("orders"), Item: avs{"pk": str(name), "sk": str("1"), "status": str("PAID")}})
				require.NoError(t, err)
				_, err = c.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{ClientRequestToken: aws.String(name), TransactItems: []types.TransactWriteItem{
					{Put: &types.Put{TableName: aws.String("orders"), Item: avs{"pk": str(name), "sk": str("2"), "status": str("PAID")}}}}})
				require.NoError(t, err)
				require.NoError(t, e.Branches().Drop(name))
			}
			// Warm-up: pools, the SDK's caches, the maps' sizes; under the
			// race detector also the ring of pointers its pools' checks
			// remember (lease.Checked: 4,096 of them, held weakly), about
			// 90 KB once full.
			warm := 200
			if lease.Checked() {
				warm = 1_000
			}
			for i := range warm {
				round(i)
			}
			start := liveHeap()
			for i := range rounds {
				round(warm + i)
			}
			end := liveHeap()
			t.Logf("live heap %d B before %d rounds, %d B after (%+.1f B a round)", start, rounds, end, float64(int64(end)-int64(start))/float64(rounds))
			require.LessOrEqual(t, end, start+start/100, "the heap grew by %d B over %d dropped branches", int64(end)-int64(start), rounds)
			require.Empty(t, e.Branches().List())
		})
	}
}

// liveHeap is the heap's live bytes after a collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC() // the first runs the cleanups of what it freed, whose memory the second frees
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
