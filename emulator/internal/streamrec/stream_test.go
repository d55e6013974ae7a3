package streamrec

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
	"github.com/stretchr/testify/require"
)

// countingHold numbers the records it stamps and shows the first shown.
type countingHold struct{ stamped, shown atomic.Uint64 }

func (h *countingHold) Stamp() uint64   { return h.stamped.Add(1) }
func (h *countingHold) Visible() uint64 { return h.shown.Load() }

func testStream(now *time.Time, retention time.Duration) Stream {
	schema := storage.KeySchema{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS}}
	return New(Table{ARN: "arn:aws:dynamodb:us-east-1:000000000000:table/T", Name: "T", Schema: schema},
		ID{Label: "2026-11-26T00:00:00.000", Shard: "shardId-1", Region: "us-east-1", Created: *now},
		"NEW_AND_OLD_IMAGES", Options{Retention: retention, Clock: func() time.Time { return *now }})
}

// TestReadShowsWhatTheHoldShows: a stream with a hold returns only the
// records the hold shows, and its position stays at the first it does not.
func TestReadShowsWhatTheHoldShows(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	s := testStream(&now, time.Hour)
	require.Equal(t, "arn:aws:dynamodb:us-east-1:000000000000:table/T/stream/2026-11-26T00:00:00.000", s.ARN())
	h := &countingHold{}
	got, base, ok := s.HoldWith(func() Hold { return h }, now)
	require.True(t, ok)
	require.Same(t, h, got)
	for _, k := range []string{"a", "b", "c"} {
		s.Observer().Observe(storage.Committed{Key: storage.Key{Partition: storage.S(k)}, HasNew: true})
	}
	require.Equal(t, uint64(3), h.stamped.Load())
	first, next := s.Bounds(now)
	require.Equal(t, uint64(3), next-first)

	recs, pos, closed, err := s.Read(first, 10, 1<<20, now)
	require.NoError(t, err)
	require.Empty(t, recs)
	require.Equal(t, first, pos)
	require.False(t, closed)

	h.shown.Store(2)
	recs, pos, _, err = s.Read(first, 10, 1<<20, now)
	require.NoError(t, err)
	require.Len(t, recs, 2)
	require.Equal(t, base+3, pos)
	require.Equal(t, "a", recs[0].Key.Partition.Str())

	again, _, ok := s.HoldWith(nil, now)
	require.True(t, ok)
	require.Same(t, h, again, "a stream keeps its first hold")
}

// TestReadTrimmed: a position before the oldest record kept is
// TrimmedDataAccessException, and a disabled stream is forgotten by its
// set once past its retention.
func TestReadTrimmed(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	s := testStream(&now, time.Minute)
	s.Observer().Observe(storage.Committed{Key: storage.Key{Partition: storage.S("a")}, HasNew: true})
	first, _ := s.Bounds(now)
	now = now.Add(2 * time.Minute)
	s.Observer().Observe(storage.Committed{Key: storage.Key{Partition: storage.S("b")}, HasNew: true})
	_, _, _, err := s.Read(first, 10, 1<<20, now)
	require.ErrorIs(t, err, apierr.ErrTrimmedDataAccess)

	var set Set
	set.Add(s)
	got, ok := set.Find(s.ARN(), now)
	require.True(t, ok)
	require.True(t, got == s)
	s.Disable(now)
	status, _ := s.State(now)
	require.Equal(t, Disabled, status)
	now = now.Add(2 * time.Minute)
	require.Empty(t, set.All(now))
}

// TestSetRegisterLabels: a table's new stream gets a label later than
// every stream of a table of that name, even within one millisecond.
func TestSetRegisterLabels(t *testing.T) {
	now := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	var set Set
	mk := func(table string) func(label string) Stream {
		return func(label string) Stream {
			return New(Table{ARN: "arn:" + table, Name: table}, ID{Label: label}, ViewKeysOnly, Options{Clock: func() time.Time { return now }})
		}
	}
	a := set.Register("T", "", now, mk("T"))
	b := set.Register("T", "", now, mk("T"))
	c := set.Register("U", "", now, mk("U"))
	require.Equal(t, "2026-11-26T00:00:00.000", a.Label())
	require.Equal(t, "2026-11-26T00:00:00.001", b.Label())
	require.Equal(t, "2026-11-26T00:00:00.000", c.Label())
	set.Remove(b)
	require.Len(t, set.All(now), 2)
	set.Retain(map[string]bool{"U": true})
	require.Equal(t, []Stream{c}, set.All(now))
}
