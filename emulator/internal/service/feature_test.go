package service

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFeatureSlotsRecorded: a feature's slot is part of the table's
// recorded definition, under the feature's name, so a rebuild from the
// record has it; a slot of a feature not in use is not read back; the
// core's own extension (Kinesis destinations) is recorded beside it.
func TestFeatureSlotsRecorded(t *testing.T) {
	saved := features
	t.Cleanup(func() { features = saved })
	features = []string{"alpha", "beta"}

	tb := &table{name: "t", arn: "arn"}
	m := &tableMeta{
		features: map[string]json.RawMessage{"beta": json.RawMessage(`[{"doc":"d","rev":"7"}]`), "alpha": json.RawMessage(`{"on":true}`)},
		ext:      &tableExt{Kinesis: []kinesisDest{{StreamArn: "arn:aws:kinesis:us-east-1:000000000000:stream/s", Status: destActive}}},
	}
	rec := encodeTableMeta(tb, m)
	var top map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(rec, &top), "the record with slots is one JSON object: %s", rec)
	require.JSONEq(t, `{"on":true}`, string(top["alpha"]))

	_, back, err := decodeTableRecord(rec, tb.schema)
	require.NoError(t, err)
	require.Len(t, back.features, 2)
	require.JSONEq(t, string(m.features["alpha"]), string(back.features["alpha"]))
	require.JSONEq(t, string(m.features["beta"]), string(back.features["beta"]))
	require.NotNil(t, back.ext)
	require.Equal(t, m.ext.Kinesis, back.ext.Kinesis)

	features = []string{"beta"}
	_, back, err = decodeTableRecord(rec, tb.schema)
	require.NoError(t, err)
	require.Len(t, back.features, 1, "a slot of a feature not in use is not read back")

	// A record without slots (none in use when it was written) reads
	// back without them.
	_, back, err = decodeTableRecord(encodeTableMeta(tb, &tableMeta{}), tb.schema)
	require.NoError(t, err)
	require.Nil(t, back.features)
}
