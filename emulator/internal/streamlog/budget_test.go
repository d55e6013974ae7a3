package streamlog

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestBudgetBoundsLogs: records of two logs attached to one budget stay
// within it (and one record); the oldest records go first, whichever log
// holds them, and a read before a log's trim horizon is ErrTrimmed. A
// log whose records all went is unlisted, and counted again by its next
// record.
func TestBudgetBoundsLogs(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	img := storage.EncodedItemOf(strings.Repeat("x", 1000)) // never decoded here
	rec := Record{Event: Insert, HasNew: true, New: img}
	one := recordBytes(&rec)
	b := NewBudget(50 * one)
	old, young := New(24*time.Hour), New(24*time.Hour)
	old.Attach(b)
	young.Attach(b)
	for i := range 40 {
		rec.At = now.Unix() + int64(i)
		old.Append(rec, now)
	}
	require.Equal(t, 40*one, b.Used())
	for i := range 100 {
		rec.At = now.Unix() + 100 + int64(i)
		young.Append(rec, now)
		require.LessOrEqual(t, b.Used(), b.Max(), "after record %d", i)
	}
	require.Equal(t, b.Used(), old.Bytes(now)+young.Bytes(now))
	first, next := old.Bounds(now)
	require.Equal(t, first, next, "the older log's records went first")
	_, _, _, err := old.Read(FirstSequenceNumber, 10, 1<<20, now, func(*Record) int { return 1 })
	require.ErrorIs(t, err, ErrTrimmed)
	first, next = young.Bounds(now)
	require.Equal(t, uint64(50), next-first, "the younger log keeps the newest that fit")
	_, _, _, err = young.Read(first-1, 10, 1<<20, now, func(*Record) int { return 1 })
	require.ErrorIs(t, err, ErrTrimmed)
	recs, _, _, err := young.Read(first, 100, 1<<20, now, func(*Record) int { return 1 })
	require.NoError(t, err)
	require.Len(t, recs, 50)

	// The emptied log comes back with its next record, and its bytes
	// count; retention by time counts them out too.
	rec.At = now.Unix() + 300
	old.Append(rec, now)
	require.Equal(t, one, old.Bytes(now))
	require.LessOrEqual(t, b.Used(), b.Max())
	later := now.Add(48 * time.Hour)
	require.Zero(t, old.Bytes(later))
	require.Zero(t, young.Bytes(later))
	require.Zero(t, b.Used())
}
