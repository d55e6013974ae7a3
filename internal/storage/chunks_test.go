package storage

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// chunkFixture is a table of each key schema's kind with a sparse GSI
// (only items with an email) and an index of two key attributes, and
// its snapshot.
func chunkFixture(t testing.TB, ks KeySchema, n int) *TableSnapshot {
	t.Helper()
	byStatus := IndexDef{Name: "byStatus", Schema: IndexSchema{Partition: []KeyAttr{{"status", KindS}}, Sort: []KeyAttr{{"count", KindN}, {"email", KindS}}}}
	tb, err := newDB(t, nil).CreateTable(TableDef{Name: "t", ID: "t", Schema: ks, Indexes: []IndexDef{emailIndex, byStatus}})
	require.NoError(t, err)
	for i := range n {
		it := Item{"status": S(fmt.Sprint("s", i%7)), "count": N(Number(fmt.Sprint(i % 13)))}
		if i%3 != 0 {
			it["email"] = S(fmt.Sprintf("u%d@example.com", i%50))
		}
		if i%5 == 0 && i < 100 {
			it["big"] = S(strings.Repeat("x", slabMaxRecord)) // stored on its own
		}
		switch ks.Partition.Kind {
		case KindS:
			it[ks.Partition.Name] = S(fmt.Sprint("p", i/4))
		case KindN:
			it[ks.Partition.Name] = N(Number(fmt.Sprint(i/4 - 20)))
		case KindB:
			it[ks.Partition.Name] = B([]byte{byte(i / 4), 0})
		}
		switch ks.Sort.Kind {
		case KindS:
			it[ks.Sort.Name] = S(fmt.Sprint("s", i%4))
		case KindN:
			it[ks.Sort.Name] = N(Number(fmt.Sprintf("%d.5", i%4-2)))
		case KindB:
			it[ks.Sort.Name] = B([]byte{byte(i % 4)})
		}
		put(t, tb, it)
	}
	return tb.Snapshot()
}

// buildFromChunks builds a table from snap's chunks (of size bytes),
// with the index orders given by orders (nil: snap's own).
func buildFromChunks(t *testing.T, snap *TableSnapshot, size int, orders [][]uint32) (*TableSnapshot, *TableBuilder) {
	t.Helper()
	b, err := NewTableBuilder(TableDef{Name: snap.Name(), ID: snap.ID(), Schema: snap.KeySchema(), Indexes: snap.Indexes()})
	require.NoError(t, err)
	for i := range snap.Indexes() {
		if orders == nil {
			b.IndexOrder(i, snap.IndexOrder(i))
		} else {
			b.IndexOrder(i, orders[i])
		}
	}
	chunks := 0
	require.NoError(t, snap.EachChunk(size, func(c []byte) error {
		chunks++
		_, err := b.AddChunk(bytes.Clone(c)) // c is reused
		return err
	}))
	require.Greater(t, chunks, 1)
	built, err := b.Finish()
	require.NoError(t, err)
	return built, b
}

// TestChunksRoundTrip: a table built from a snapshot's chunks and index
// orders holds what the snapshot holds, each index loaded in its order
// without a sort; with orders that do not fit, it holds the same,
// sorted. The tables have entries for several runs of an index fill
// (indexFillRun, lowered), and the last for one. The orders that do not
// fit are checked against one key schema (the check of an order does not
// look at the keys' types), and against all with heavyTestsEnv: the
// eight builds of each schema took 22-50 s under -race on a busy 2-core
// machine.
func TestChunksRoundTrip(t *testing.T) {
	defer func(n int) { indexFillRun = n }(indexFillRun)
	for _, c := range []struct {
		ks      KeySchema
		run     int
		badOnes bool // the orders that do not fit too, without heavyTestsEnv
	}{{schemaS, 64, false}, {schemaSN, 100, true}, {schemaNS, 64, false}, {schemaBB, 64, false}, {schemaSN, 1 << 16, false}} {
		ks := c.ks
		indexFillRun = c.run
		t.Run(fmt.Sprint(ks, c.run), func(t *testing.T) {
			snap := chunkFixture(t, ks, 500)
			var want strings.Builder
			dumpSnapshot(&want, snap)

			built, b := buildFromChunks(t, snap, 4<<10, nil)
			var got strings.Builder
			dumpSnapshot(&got, built)
			require.Equal(t, want.String(), got.String())
			require.Zero(t, b.sorts, "every index loaded in its order")
			if !c.badOnes && !heavyTests() {
				return
			}

			good := [][]uint32{snap.IndexOrder(0), snap.IndexOrder(1)}
			require.NotEmpty(t, good[0])
			swapped := slices.Clone(good[0])
			swapped[0], swapped[1] = swapped[1], swapped[0]
			for name, orders := range map[string][][]uint32{
				"none":      {nil, nil},
				"short":     {good[0][1:], good[1]},
				"long":      {append(slices.Clone(good[0]), 0), good[1]},
				"swapped":   {swapped, good[1]},
				"repeated":  {slices.Repeat([]uint32{0}, len(good[0])), good[1]},
				"too large": {slices.Repeat([]uint32{1 << 30}, len(good[0])), good[1]},
				"crossed":   {good[1], good[0]},
			} {
				built, b := buildFromChunks(t, snap, 4<<10, orders)
				var got strings.Builder
				dumpSnapshot(&got, built)
				require.Equal(t, want.String(), got.String(), name)
				require.Positive(t, b.sorts, name)
			}
		})
	}
}

// TestAddChunkRefuses: a chunk that is not well-formed records of the
// table, in scan order, is refused with ErrCorrupt, and the builder
// refuses everything after.
func TestAddChunkRefuses(t *testing.T) {
	snap := chunkFixture(t, schemaSN, 20)
	var chunk []byte
	require.NoError(t, snap.EachChunk(1<<30, func(c []byte) error { chunk = bytes.Clone(c); return nil }))
	rec := func(pk, sk, body string) []byte {
		r := appendRecHeader(nil, pk, sk)
		r = append(r, body...)
		return append(appendUvarint(nil, len(r)), r...)
	}
	var one []byte
	require.NoError(t, snap.EachChunk(1, func(c []byte) error {
		if one == nil {
			one = bytes.Clone(c)
		}
		return nil
	}))
	d := decoder{s: string(one)}
	_, first, _, ok := splitRecord(d.str())
	require.True(t, ok)
	for name, c := range map[string][]byte{
		"length past the end": chunk[:len(chunk)-1],
		"empty record":        {0},
		"empty partition key": rec("", first, "\x01\x00"),
		"bad number sort key": rec("p", "\x03", "\x01\x00"),
		"bad image":           rec("p", first, "\x09"),
		"out of order":        append(slices.Clone(chunk), one...),
	} {
		b, err := NewTableBuilder(TableDef{Name: "t", ID: "t", Schema: schemaSN, Indexes: snap.Indexes()})
		require.NoError(t, err)
		_, err = b.AddChunk(c)
		require.ErrorIs(t, err, ErrCorrupt, name)
		_, err = b.AddChunk(chunk)
		require.ErrorIs(t, err, ErrCorrupt, name)
	}
}

func appendUvarint(dst []byte, n int) []byte {
	for n >= 0x80 {
		dst = append(dst, byte(n)|0x80)
		n >>= 7
	}
	return append(dst, byte(n))
}

// FuzzAddChunk: any chunk is refused or builds a table whose invariants
// hold, never a panic.
func FuzzAddChunk(f *testing.F) {
	for _, ks := range []KeySchema{schemaSN, schemaNS} {
		snap := chunkFixture(f, ks, 6)
		require.NoError(f, snap.EachChunk(1<<20, func(c []byte) error { f.Add(ks.Sort.Kind == KindN, bytes.Clone(c)); return nil }))
	}
	f.Fuzz(func(t *testing.T, numberSort bool, chunk []byte) {
		ks := schemaNS
		if numberSort {
			ks = schemaSN
		}
		b, err := NewTableBuilder(TableDef{Name: "t", ID: "t", Schema: ks, Indexes: []IndexDef{emailIndex}})
		require.NoError(t, err)
		b.IndexOrder(0, []uint32{1, 0, 2})
		if _, err := b.AddChunk(chunk); err != nil {
			require.ErrorIs(t, err, ErrCorrupt)
			return
		}
		snap, err := b.Finish()
		require.NoError(t, err)
		db := newDB(t, nil)
		_, err = db.RestoreTable("t", "t", snap)
		require.NoError(t, err) // checked at the end
	})
}
