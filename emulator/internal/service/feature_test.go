package service

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFeatureSlotsRecorded: a feature's slot is part of the table's
// recorded definition, under the feature's name, so a rebuild from the
// record has it; a slot of a feature not in use is not read back; the
// core's own extension (replica auto scaling) is recorded beside it; a
// slot in the record's "ext" member (where a feature kept its part
// before it moved behind the seam) is read back as the slot.
func TestFeatureSlotsRecorded(t *testing.T) {
	saved := features
	t.Cleanup(func() { features = saved })
	features = []string{"alpha", "beta"}

	tb := &table{name: "t", arn: "arn"}
	m := &tableMeta{
		features: map[string]json.RawMessage{"beta": json.RawMessage(`[{"doc":"d","rev":"7"}]`), "alpha": json.RawMessage(`{"on":true}`)},
		ext:      &tableExt{AutoScaling: []autoScalingRule{{Region: "eu-west-1", Write: true}}},
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
	require.Equal(t, m.ext.AutoScaling, back.ext.AutoScaling)

	features = []string{"beta"}
	_, back, err = decodeTableRecord(rec, tb.schema)
	require.NoError(t, err)
	require.Len(t, back.features, 1, "a slot of a feature not in use is not read back")

	// A record without slots (none in use when it was written) reads
	// back without them.
	_, back, err = decodeTableRecord(encodeTableMeta(tb, &tableMeta{}), tb.schema)
	require.NoError(t, err)
	require.Nil(t, back.features)

	// A slot kept in "ext" by a record of an earlier version.
	features = []string{"alpha", "beta"}
	legacy := []byte(`{"v":1,"name":"t","arn":"arn","ext":{"alpha":[{"arn":"s","status":"ACTIVE"}],"globalVersion":"2019.11.21"}}`)
	_, back, err = decodeTableRecord(legacy, tb.schema)
	require.NoError(t, err)
	require.JSONEq(t, `[{"arn":"s","status":"ACTIVE"}]`, string(back.features["alpha"]))
	require.Equal(t, "2019.11.21", back.ext.GlobalVersion)
	require.Nil(t, back.features["beta"])
	// Written again, the slot is a member of the record, no longer in "ext".
	again := encodeTableMeta(tb, back)
	require.NoError(t, json.Unmarshal(again, &top))
	require.JSONEq(t, `[{"arn":"s","status":"ACTIVE"}]`, string(top["alpha"]))
	require.NotContains(t, string(top["ext"]), "alpha")
}

// TestFeatureNameNotARecordMember: a feature may not be named as a member
// of the table record, since its slot is read from the member of its
// name: a feature named "pitr" read the recovery setting back as its
// slot and wrote it again after a change, so recovery switched off on a
// table loaded from disk came back on at the next load.
func TestFeatureNameNotARecordMember(t *testing.T) {
	for _, tc := range []struct {
		name   string
		member bool
	}{
		{"pitr", true}, {"tags", true}, {"ttlEnabled", true}, {"ext", true}, {"v", true},
		{"pointInTimeRecovery", false}, {"policies", false}, {"kinesis", false}, {"tagging", false},
	} {
		require.Equal(t, tc.member, recordMember(tc.name), tc.name)
	}
	require.PanicsWithValue(t, "emulator: a feature named as a member of the table record: tags",
		func() { Use(namedFeature("tags")) })
}

// namedFeature is a feature with a name and no operations.
type namedFeature string

func (f namedFeature) Name() string     { return string(f) }
func (namedFeature) Register(Registrar) {}
