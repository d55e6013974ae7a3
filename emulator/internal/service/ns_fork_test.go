package service

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// Forks (ns_snapshot.go): what a request sees in one is the base as it
// was at the fork, and what it writes stays in it.

// forkServe runs operation op in the namespace of access key key
// (us-east-1) and returns its answer.
func forkServe(t testing.TB, s *Service, key, op, body string) string {
	t.Helper()
	o, err := s.Lookup(TargetPrefix + op)
	require.NoError(t, err)
	out, err := s.Serve(o, &Request{Ctx: context.Background(), AccessKey: key, Region: "us-east-1", Body: []byte(body)})
	require.NoError(t, err, "%s in %s", op, key)
	return string(out)
}

// forkBase returns a service whose namespace "base/us-east-1" holds
// table tbl (pk, a stream of new images) with item pk=a, note=base.
func forkBase(t *testing.T) *Service {
	s := newTestService(t, Config{})
	forkServe(t, s, "base", "CreateTable", `{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],`+
		`"StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_IMAGE"}}`)
	forkServe(t, s, "base", "PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"a"},"note":{"S":"base"}}}`)
	return s
}

func forkGet(t testing.TB, s *Service, key, pk string) string {
	t.Helper()
	return forkServe(t, s, key, "GetItem", `{"TableName":"tbl","ConsistentRead":true,"Key":{"pk":{"S":"`+pk+`"}}}`)
}

func TestForkOwnsItsCatalogAtFirstWrite(t *testing.T) {
	s := forkBase(t)
	base := s.Namespace("base/us-east-1")
	require.NoError(t, s.Fork("b1/us-east-1", base.DB().Snapshot(nil)))
	require.NoError(t, s.Fork("b2/us-east-1", base.DB().Snapshot(nil)))
	require.Same(t, s.Forked("b1/us-east-1"), s.Forked("b2/us-east-1"), "forks of an unchanged base share its snapshot")
	require.Equal(t, []string{"b1/us-east-1", "b2/us-east-1", "base/us-east-1"}, s.NamespaceIDs())
	require.Equal(t, 3, s.NamespaceCount())
	require.Len(t, s.Spaces(), 1, "the forks share their catalog")

	// The base changes after the fork: a fork does not see it.
	forkServe(t, s, "base", "PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"a"},"note":{"S":"changed"}}}`)
	forkServe(t, s, "base", "PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"late"}}}`)
	require.NotNil(t, s.Forked("b1/us-east-1"))

	// A read reads the forks' shared catalog: it makes nothing and sees
	// the base as it was at the fork. A write gives b1 its own.
	require.Contains(t, forkGet(t, s, "b1", "a"), `"base"`)
	require.Equal(t, `{}`, forkGet(t, s, "b1", "late"))
	require.NotNil(t, s.Forked("b1/us-east-1"), "a read does not give b1 its own catalog")
	require.Len(t, s.Spaces(), 1)
	forkServe(t, s, "b1", "PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"other"}}}`)
	require.Nil(t, s.Forked("b1/us-east-1"), "b1 owns its catalog")
	require.NotNil(t, s.Forked("b2/us-east-1"), "b2 is not")
	require.Equal(t, `{}`, forkGet(t, s, "b1", "late"))
	require.Len(t, s.Spaces(), 2)

	// A write in b1 is seen neither by the base nor by b2.
	forkServe(t, s, "b1", "PutItem", `{"TableName":"tbl","Item":{"pk":{"S":"a"},"note":{"S":"b1"}}}`)
	require.Contains(t, forkGet(t, s, "b1", "a"), `"b1"`)
	require.Contains(t, forkGet(t, s, "base", "a"), `"changed"`)
	require.Contains(t, forkGet(t, s, "b2", "a"), `"base"`)

	// Each has its own stream: b1's holds b1's write alone.
	b1, b2 := s.Namespace("b1/us-east-1"), s.Namespace("b2/us-east-1")
	require.True(t, streamOf(t, b1) != streamOf(t, base), "b1 shares base's stream")
	require.True(t, streamOf(t, b1) != streamOf(t, b2), "b1 shares b2's stream")
	require.Equal(t, 2, streamRecordCount(t, b1))
	require.Equal(t, 0, streamRecordCount(t, b2))
	require.Equal(t, 3, streamRecordCount(t, base))

	// Dropped before its first use, a fork leaves nothing.
	require.NoError(t, s.Fork("b3/us-east-1", base.DB().Snapshot(nil)))
	require.NoError(t, s.Fork("b3/us-east-1", nil))
	require.Nil(t, s.Forked("b3/us-east-1"))
	require.NotContains(t, s.NamespaceIDs(), "b3/us-east-1")
	require.Contains(t, forkServe(t, s, "b3", "ListTables", `{}`), `"TableNames":[]`)
}

// streamOf returns the one stream of namespace ns.
func streamOf(t testing.TB, ns *Namespace) Stream {
	t.Helper()
	all := ns.kept().streams.All(ns.svc.clock())
	require.Len(t, all, 1)
	return all[0]
}

// streamRecordCount returns how many records the one stream of ns holds.
func streamRecordCount(t testing.TB, ns *Namespace) int {
	first, next := streamOf(t, ns).Bounds(ns.svc.clock())
	return int(next - first)
}

// TestForkSnapshotAndRewind: an emulator's snapshot holds a fork not
// changed yet as it is, and a rewind puts it back as a fork sharing its
// snapshot's catalog.
func TestForkSnapshotAndRewind(t *testing.T) {
	s := forkBase(t)
	require.NoError(t, s.Fork("b1/us-east-1", s.Namespace("base/us-east-1").DB().Snapshot(nil)))
	spaces := s.SnapshotAll()
	require.Len(t, spaces, 2)
	require.Same(t, s.Forked("b1/us-east-1"), spaces["b1/us-east-1"])

	require.NoError(t, s.Fork("b1/us-east-1", nil))
	require.NoError(t, s.Fork("b9/us-east-1", spaces["base/us-east-1"]))
	forkServe(t, s, "base", "DeleteItem", `{"TableName":"tbl","Key":{"pk":{"S":"a"}}}`)
	require.NoError(t, s.RewindAll(spaces))
	require.NotNil(t, s.Forked("b1/us-east-1"), "put back as a fork")
	require.Nil(t, s.Forked("b9/us-east-1"), "forked since the snapshot: gone")
	require.Equal(t, []string{"b1/us-east-1", "base/us-east-1"}, s.NamespaceIDs())
	require.Contains(t, forkGet(t, s, "b1", "a"), `"base"`)
	require.Contains(t, forkGet(t, s, "base", "a"), `"base"`)
}

// TestForkConcurrentFirstWrites: many requests are the first of a fork at
// once, each writing its own item of the same table: the fork gets its
// own catalog once, holds every write, and neither the base nor a
// sibling sees any. Run under -race.
func TestForkConcurrentFirstWrites(t *testing.T) {
	s := forkBase(t)
	snap := s.Namespace("base/us-east-1").DB().Snapshot(nil)
	require.NoError(t, s.Fork("b1/us-east-1", snap))
	require.NoError(t, s.Fork("b2/us-east-1", snap))
	const writers = 16
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			forkServe(t, s, "b1", "PutItem", fmt.Sprintf(`{"TableName":"tbl","Item":{"pk":{"S":"w%d"}}}`, i))
		})
	}
	wg.Wait()
	b1 := s.Namespace("b1/us-east-1")
	require.Equal(t, writers+1, b1.DB().Table("tbl").ItemCount())
	require.Equal(t, writers, streamRecordCount(t, b1))
	require.Equal(t, 1, s.Namespace("base/us-east-1").DB().Table("tbl").ItemCount())
	require.Equal(t, 1, s.Namespace("b2/us-east-1").DB().Table("tbl").ItemCount())
	for i := range writers {
		require.Contains(t, forkGet(t, s, "b1", fmt.Sprintf("w%d", i)), `"pk"`)
		require.Equal(t, `{}`, forkGet(t, s, "b2", fmt.Sprintf("w%d", i)))
	}
	require.Len(t, s.Spaces(), 3)
}
