package streamlog

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestRecordsRoundTrip: records written by AppendRecords read back as
// they were (the images' own round trip is the service's streams across
// a restart), and a cut or grown encoding is an error.
func TestRecordsRoundTrip(t *testing.T) {
	recs := []Record{
		{Seq: 1, At: 1_800_000_000, Event: Insert, Key: storage.Key{Partition: storage.S("a")}},
		{Seq: 2, At: 1_800_000_001, Event: Modify, Key: storage.Key{Partition: storage.S("a"), Sort: storage.N("7")}},
		{Seq: 9, At: -5, Event: Remove, Service: true, Key: storage.Key{Partition: storage.S("b")}},
	}
	tests := []struct {
		name string
		recs []Record
	}{
		{"none", nil},
		{"one", recs[:1]},
		{"events, sort keys, a deletion by the service", recs},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := AppendRecords([]byte{0xff}, tc.recs)
			require.NoError(t, err)
			require.Equal(t, byte(0xff), b[0], "appended to what was there")
			got, err := ParseRecords(b[1:])
			require.NoError(t, err)
			require.Len(t, got, len(tc.recs))
			for i, r := range tc.recs {
				require.Equal(t, r.Seq, got[i].Seq)
				require.Equal(t, r.At, got[i].At)
				require.Equal(t, r.Event, got[i].Event)
				require.Equal(t, r.Service, got[i].Service)
				require.Equal(t, r.Key, got[i].Key, "key %d", i)
			}
			if len(tc.recs) > 0 {
				_, err = ParseRecords(b[1 : len(b)-1])
				require.Error(t, err, "cut")
			}
			_, err = ParseRecords(append(b[1:], 0))
			require.Error(t, err, "trailing bytes")
		})
	}
}

// FuzzParseRecords: parsing never panics, and what parses writes back
// to records that parse the same.
func FuzzParseRecords(f *testing.F) {
	b, err := AppendRecords(nil, []Record{
		{Seq: 1, At: 1_800_000_000, Event: Insert, Key: storage.Key{Partition: storage.S("a")}},
		{Seq: 2, At: 1, Event: Remove, Service: true, Key: storage.Key{Partition: storage.S("b"), Sort: storage.N("1")}},
	})
	require.NoError(f, err)
	f.Add(b)
	f.Add([]byte{0})
	f.Add([]byte{1, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, err := ParseRecords(b)
		if err != nil {
			return
		}
		again, err := AppendRecords(nil, recs)
		require.NoError(t, err)
		back, err := ParseRecords(again)
		require.NoError(t, err)
		require.Len(t, back, len(recs))
	})
}
