package tablerec

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/streamlog"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

func TestTableRoundTrip(t *testing.T) {
	at := time.Date(2026, 11, 25, 8, 0, 0, 0, time.UTC)
	in := &Table{Name: "t", ID: "id", ARN: "arn", Created: at, KeySchema: []Key{{Name: "pk", Value: "HASH"}},
		GSIs:     []Index{{Name: "g", Partition: []Key{{Name: "gpk", Value: "S"}}, Projection: "ALL"}},
		Restored: &tablespec.Restored{TableArn: "src", At: at}}
	slots := map[string]json.RawMessage{"zeta": json.RawMessage(`{"a":1}`), "alpha": json.RawMessage(`true`)}
	b := Encode(in, slots)
	require.Contains(t, string(b), `"alpha":true,"zeta":{"a":1}}`) // in name order, after the record's members
	out, got, err := Decode(b, []string{"alpha", "zeta", "absent"}, nil)
	require.NoError(t, err)
	require.Equal(t, in, out)
	require.Equal(t, slots, got)
}

func TestDecodeRefuses(t *testing.T) {
	cases := []struct{ name, rec string }{
		{"not JSON", `{`},
		{"other version", `{"v":2}`},
		{"ext not an object", `{"v":1,"ext":[]}`},
		{"index without partition key", `{"v":1,"lsis":[{"name":"l"}]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Decode([]byte(tc.rec), []string{"f"}, nil)
			require.ErrorIs(t, err, storage.ErrCorrupt)
		})
	}
}

func TestSlotsFromExt(t *testing.T) {
	b := []byte(`{"v":1,"ext":{"one":1,"two":2,"whole":{"x":1}}}`)
	slots, err := Slots(b, []string{"parts", "whole", "none"}, map[string][]string{"parts": {"two", "one", "three"}})
	require.NoError(t, err)
	require.Equal(t, map[string]json.RawMessage{"parts": json.RawMessage(`{"two":2,"one":1}`), "whole": json.RawMessage(`{"x":1}`)}, slots)
}

func TestPiecesRoundTrip(t *testing.T) {
	at := time.Date(2026, 11, 25, 8, 0, 0, 0, time.UTC)
	p := &StreamPiece{ARN: "arn", Label: "l", Table: "t", View: "KEYS_ONLY", Schema: []Key{{Name: "pk", Value: "S"}}, Next: 7, At: at}
	recs, err := EncodeRecordsPiece(nil)
	require.NoError(t, err)
	type got struct {
		p    *StreamPiece
		recs []streamlog.Record
	}
	var out []got
	err = ParsePieces([][]byte{EncodeStreamPiece(p), recs, EncodeStreamPiece(p)}, func(p *StreamPiece, recs []streamlog.Record) error {
		out = append(out, got{p, recs})
		return nil
	})
	require.NoError(t, err)
	require.Len(t, out, 2)
	require.Equal(t, p, out[0].p)
	stop := errors.New("stop")
	err = ParsePieces([][]byte{EncodeStreamPiece(p), EncodeStreamPiece(p)}, func(*StreamPiece, []streamlog.Record) error { return stop })
	require.ErrorIs(t, err, stop)
}

func TestParsePiecesRefuses(t *testing.T) {
	cases := []struct {
		name   string
		pieces [][]byte
	}{
		{"short", [][]byte{{1}}},
		{"version", [][]byte{{2, 1, '{', '}'}}},
		{"kind", [][]byte{{1, 9}}},
		{"records first", [][]byte{{1, 2}}},
		{"header not JSON", [][]byte{{1, 1, '{'}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := ParsePieces(tc.pieces, func(*StreamPiece, []streamlog.Record) error { return nil })
			require.ErrorIs(t, err, ErrPiece)
		})
	}
}

// FuzzDecode feeds table records to Decode: an error or a record, never
// a panic.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"v":1,"name":"t","keySchema":[{"n":"pk","v":"HASH"}],"ext":{"one":1}}`))
	f.Add([]byte(`{"v":1,"gsis":[{"name":"g","partition":[]}]}`))
	f.Add([]byte(`{"v":1,"f":{"x":[1,2]}}`))
	f.Add([]byte(`{"v":2}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, _, err := Decode(b, []string{"f", "parts"}, map[string][]string{"parts": {"one", "two"}})
		if err == nil && r.V != Version {
			t.Fatalf("decoded version %d", r.V)
		}
	})
}

// FuzzParsePieces feeds a snapshot's stream pieces, split at the zero
// bytes of the input, to ParsePieces: an error or streams, never a panic.
func FuzzParsePieces(f *testing.F) {
	p := EncodeStreamPiece(&StreamPiece{ARN: "arn", Schema: []Key{{Name: "pk", Value: "S"}}})
	recs, err := EncodeRecordsPiece(nil)
	require.NoError(f, err)
	f.Add(append(append(append([]byte{}, p...), 0), recs...))
	f.Add([]byte{1, 2, 0, 1, 1})
	f.Add([]byte{1, 1, '{', '}', 0, 1, 2, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		var pieces [][]byte
		start := 0
		for i, c := range b {
			if c == 0 {
				pieces, start = append(pieces, b[start:i]), i+1
			}
		}
		pieces = append(pieces, b[start:])
		_ = ParsePieces(pieces, func(p *StreamPiece, _ []streamlog.Record) error {
			if p == nil {
				t.Fatal("a nil stream")
			}
			return nil
		})
	})
}
