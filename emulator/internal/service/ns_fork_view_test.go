package service

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestForkReadsHoldNothing: branches only read hold no namespace and no
// table, not even of the tables they read: every read (each operation of
// sharedReads) is answered from the one view their snapshot's forks
// share, which goes with the last of them.
func TestForkReadsHoldNothing(t *testing.T) {
	s := forkBase(t)
	forkServe(t, s, "base", "CreateTable", `{"TableName":"untouched","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}`)
	snap := s.Namespace("base/us-east-1").DB().Snapshot(nil)
	const branches = 20
	for i := range branches {
		key := fmt.Sprintf("b%d", i)
		require.NoError(t, s.Fork(key+"/us-east-1", snap))
		require.Contains(t, forkGet(t, s, key, "a"), `"base"`)
		require.Contains(t, forkServe(t, s, key, "Query", `{"TableName":"tbl","KeyConditionExpression":"pk = :a","ExpressionAttributeValues":{":a":{"S":"a"}}}`), `"Count":1`)
		require.Contains(t, forkServe(t, s, key, "Scan", `{"TableName":"tbl"}`), `"Count":1`)
		require.Contains(t, forkServe(t, s, key, "BatchGetItem", `{"RequestItems":{"tbl":{"Keys":[{"pk":{"S":"a"}}]}}}`), `"base"`)
		require.Contains(t, forkServe(t, s, key, "DescribeTable", `{"TableName":"tbl"}`), `"ItemCount"`)
		require.Contains(t, forkServe(t, s, key, "ListTables", `{}`), `"TableNames":["tbl","untouched"]`)
		require.NotNil(t, s.Forked(key+"/us-east-1"), "a read makes no branch")
	}
	require.Len(t, s.dbs.owned(), 1, "only the base owns its catalog")
	s.dbs.mu.RLock()
	require.Len(t, s.dbs.shared, 1, "the forks share one catalog")
	s.dbs.mu.RUnlock()

	// A write makes its branch alone, with what the fork holds.
	forkServe(t, s, "b0", "PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"mine"}}}`)
	require.Nil(t, s.Forked("b0/us-east-1"))
	require.Len(t, s.dbs.owned(), 2)
	require.Equal(t, `{}`, forkGet(t, s, "b1", "mine"))
	require.Equal(t, `{}`, forkGet(t, s, "base", "mine"))

	for i := range branches {
		require.NoError(t, s.Fork(fmt.Sprintf("b%d/us-east-1", i), nil))
	}
	s.dbs.mu.RLock()
	defer s.dbs.mu.RUnlock()
	require.Empty(t, s.dbs.shared, "the shared catalog goes with its last fork")
	require.Len(t, s.dbs.byKey, 1, "only the base is left")
}

// TestForkViewRaces: forks, reads, first writes of forks and writes of
// the base at once. A fork is a snapshot: no read of a branch, made or
// only read, sees a write of the base after its fork or of another
// branch; each branch sees its own writes. Run under -race.
func TestForkViewRaces(t *testing.T) {
	s := forkBase(t)
	base := s.Namespace("base/us-east-1")
	const branches, rounds = 8, 20
	var wg, forked sync.WaitGroup
	forked.Add(branches)
	var mu sync.Mutex // held by a base write and its note, and by a fork
	note := "base"
	wg.Go(func() { // the base changes while the branches are forked and used
		for j := range rounds {
			mu.Lock()
			note = fmt.Sprintf("base%d", j)
			forkServe(t, s, "base", "PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"a"},"note":{"S":"`+note+`"}}}`)
			mu.Unlock()
		}
		forked.Wait()
		for j := range rounds { // items no fork holds, written after every fork
			forkServe(t, s, "base", "PutItem", fmt.Sprintf(`{"TableName":"tbl","Item":{"pk":{"S":"late%d"}}}`, j))
		}
	})
	notes := make([]string, branches) // the note of a at each branch's fork
	for i := range branches {
		wg.Go(func() {
			key := fmt.Sprintf("b%d", i)
			mu.Lock()
			notes[i] = note
			require.NoError(t, s.Fork(key+"/us-east-1", base.DB().Snapshot(nil)))
			mu.Unlock()
			forked.Done()
			forked.Wait()
			for j := range rounds {
				if i%2 == 0 && j == rounds/2 { // half the branches write half way
					forkServe(t, s, key, "PutItem", fmt.Sprintf(`{"TableName":"tbl","Item":{"pk":{"S":"own%d"}}}`, i))
				}
				require.Contains(t, forkGet(t, s, key, "a"), `"`+notes[i]+`"`, key)
				for _, other := range []string{fmt.Sprintf("late%d", j), fmt.Sprintf("own%d", (i+1)%branches)} {
					require.Equal(t, `{}`, forkGet(t, s, key, other), key)
				}
			}
			if i%2 == 0 {
				require.Contains(t, forkGet(t, s, key, fmt.Sprintf("own%d", i)), `"pk"`)
			} else {
				require.NotNil(t, s.Forked(key+"/us-east-1"), "a branch only read is not made")
			}
		})
	}
	wg.Wait()
	for i := range branches {
		require.Equal(t, `{}`, forkGet(t, s, "base", fmt.Sprintf("own%d", i)))
	}
}
