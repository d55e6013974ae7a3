package service

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/catalog"
	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestForkReadsHoldNothing: branches only read hold no catalog and no
// table of their own, not even of the tables they read: every read (each
// operation readOnly names) is answered from the one catalog their
// snapshot's forks share, which goes with the last of them.
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
		require.NotNil(t, s.Forked(key+"/us-east-1"), "a read leaves the branch its shared catalog")
	}
	require.Len(t, s.Spaces(), 1, "only the base owns its catalog")
	_, _, shared := s.dbs.Counts()
	require.Equal(t, 1, shared, "the forks share one catalog")

	// A write makes its branch alone, with what the fork holds.
	forkServe(t, s, "b0", "PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"mine"}}}`)
	require.Nil(t, s.Forked("b0/us-east-1"))
	require.Len(t, s.Spaces(), 2)
	require.Equal(t, `{}`, forkGet(t, s, "b1", "mine"))
	require.Equal(t, `{}`, forkGet(t, s, "base", "mine"))

	for i := range branches {
		require.NoError(t, s.Fork(fmt.Sprintf("b%d/us-east-1", i), nil))
	}
	kept, _, shared := s.dbs.Counts()
	require.Zero(t, shared, "the shared catalog goes with its last fork")
	require.Equal(t, 1, kept, "only the base is left")
}

// TestForkRaces: forks, reads, first writes of forks and writes of the
// base at once. A fork is a snapshot: no read of a branch, written or
// only read, sees a write of the base after its fork or of another
// branch; each branch sees its own writes. Run under -race.
func TestForkRaces(t *testing.T) {
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
				require.NotNil(t, s.Forked(key+"/us-east-1"), "a branch only read shares its catalog")
			}
		})
	}
	wg.Wait()
	for i := range branches {
		require.Equal(t, `{}`, forkGet(t, s, "base", fmt.Sprintf("own%d", i)))
	}
}

// TestForkIsAPointerCopy: forks of one snapshot hold one catalog (the
// same pointer), which nothing changes: its DB refuses every change, and
// its tables' namespace keeps no state. A fork's first write gives it a
// catalog of its own, and the shared one stays the other forks'.
func TestForkIsAPointerCopy(t *testing.T) {
	s := forkBase(t)
	snap := s.Namespace("base/us-east-1").DB().Snapshot(nil)
	for _, id := range []string{"b1/us-east-1", "b2/us-east-1"} {
		require.NoError(t, s.Fork(id, snap))
	}
	b1, b2 := s.dbs.Kept(catalog.Key{AccessKey: "b1", Region: "us-east-1"}), s.dbs.Kept(catalog.Key{AccessKey: "b2", Region: "us-east-1"})
	shared := b1.cat.Load()
	require.Same(t, shared, b2.cat.Load())
	require.True(t, shared.Frozen)
	require.Equal(t, 2, shared.Forks())
	require.Nil(t, b1.more.Load(), "a fork keeps no state till its first change")

	_, err := shared.DB.Table("tbl").Put(storage.Key{Partition: storage.S("x")}, storage.Item{"pk": storage.S("x")})
	require.ErrorIs(t, err, catalog.ErrShared, "the shared catalog's DB refuses every change")
	require.Equal(t, `{}`, forkGet(t, s, "b1", "x"))
	tbl := shared.Reader.getTable("tbl")
	require.Same(t, shared.Reader, tbl.ns)
	require.Nil(t, shared.Reader.kept().states.Load())
	require.Same(t, shared, shared.Reader.own(), "the reader never gets a catalog of its own")

	forkServe(t, s, "b1", "PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"mine"}}}`)
	require.NotSame(t, shared, b1.cat.Load())
	require.False(t, b1.cat.Load().Frozen)
	require.NotNil(t, b1.kept().states.Load())
	require.Same(t, shared, b2.cat.Load())
	require.Equal(t, 1, shared.Forks())
	require.Same(t, b1, s.dbs.Kept(catalog.Key{AccessKey: "b1", Region: "us-east-1"}), "the same namespace, its catalog replaced")
}

// TestNewKeysKeepNothing: requests of ever new access keys that make
// nothing share each key's namespace while they run, and leave nothing
// once done: the namespaces in use are held weakly, and go.
func TestNewKeysKeepNothing(t *testing.T) {
	s := newTestService(t, Config{})
	o, err := s.Lookup(TargetPrefix + "GetItem")
	require.NoError(t, err)
	for i := range 200 {
		_, err := s.Serve(o, &Request{Ctx: context.Background(), AccessKey: fmt.Sprintf("new%d", i), Region: "us-east-1",
			Body: []byte(`{"TableName":"tbl","Key":{"pk":{"S":"a"}}}`)})
		require.ErrorIs(t, err, apierr.ErrResourceNotFound)
	}
	require.Zero(t, s.NamespaceCount())
	require.Same(t, s.lookup(catalog.Key{AccessKey: "k", Region: "us-east-1"}, true), s.lookup(catalog.Key{AccessKey: "k", Region: "us-east-1"}, false),
		"a key's requests share its namespace")
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		_, left, _ := s.dbs.Counts()
		if left == 0 {
			break
		}
		require.True(t, time.Now().Before(deadline), "%d namespaces of new keys left", left)
		time.Sleep(time.Millisecond)
	}
}
