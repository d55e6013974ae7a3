package service

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/catalog"
	"github.com/stretchr/testify/require"
)

// TestFeatureSlotsRecorded: a feature's slot is part of the table's
// recorded definition, under the feature's name, so a rebuild from the
// record has it; a slot of a feature not in use is not read back; a
// slot in the record's "ext" member (where a feature kept its part
// before it moved behind the seam), or made of several members there
// (Registrar.ExtMembers), is read back as the slot.
func TestFeatureSlotsRecorded(t *testing.T) {
	sm := &seams{features: []string{"alpha", "beta"}}

	tb := &table{name: "t", arn: "arn"}
	m := &tableMeta{
		Features: map[string]json.RawMessage{"beta": json.RawMessage(`[{"doc":"d","rev":"7"}]`), "alpha": json.RawMessage(`{"on":true}`)},
	}
	rec := encodeTableMeta(tb, m)
	var top map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(rec, &top), "the record with slots is one JSON object: %s", rec)
	require.JSONEq(t, `{"on":true}`, string(top["alpha"]))

	_, back, err := sm.decodeTableRecord(rec, tb.schema)
	require.NoError(t, err)
	require.Len(t, back.Features, 2)
	require.JSONEq(t, string(m.Features["alpha"]), string(back.Features["alpha"]))
	require.JSONEq(t, string(m.Features["beta"]), string(back.Features["beta"]))

	sm.features = []string{"beta"}
	_, back, err = sm.decodeTableRecord(rec, tb.schema)
	require.NoError(t, err)
	require.Len(t, back.Features, 1, "a slot of a feature not in use is not read back")

	// A record without slots (none in use when it was written) reads
	// back without them.
	_, back, err = sm.decodeTableRecord(encodeTableMeta(tb, &tableMeta{}), tb.schema)
	require.NoError(t, err)
	require.Nil(t, back.Features)

	// A slot kept in "ext" by a record of an earlier version.
	sm.features = []string{"alpha", "beta"}
	legacy := []byte(`{"v":1,"name":"t","arn":"arn","ext":{"alpha":[{"arn":"s","status":"ACTIVE"}],"globalVersion":"2019.11.21"}}`)
	_, back, err = sm.decodeTableRecord(legacy, tb.schema)
	require.NoError(t, err)
	require.JSONEq(t, `[{"arn":"s","status":"ACTIVE"}]`, string(back.Features["alpha"]))
	require.Nil(t, back.Features["beta"])
	// Written again, the slot is a member of the record, no longer in "ext".
	again := encodeTableMeta(tb, back)
	require.NoError(t, json.Unmarshal(again, &top))
	require.JSONEq(t, `[{"arn":"s","status":"ACTIVE"}]`, string(top["alpha"]))
	require.NotContains(t, top, "ext", "nothing is written in \"ext\" any more")

	// A feature that kept its part as several members of "ext"
	// (Registrar.ExtMembers): an old record's slot is the object of those it has.
	sm = &seams{features: []string{"alpha", "gamma"}, extMembers: map[string][]string{"gamma": {"one", "two", "three"}}}
	legacy = []byte(`{"v":1,"name":"t","arn":"arn","ext":{"alpha":[],"two":"x","one":[1,{"a":2}]}}`)
	_, back, err = sm.decodeTableRecord(legacy, tb.schema)
	require.NoError(t, err)
	require.JSONEq(t, `{"one":[1,{"a":2}],"two":"x"}`, string(back.Features["gamma"]))
	require.JSONEq(t, `[]`, string(back.Features["alpha"]))
	_, back, err = sm.decodeTableRecord([]byte(`{"v":1,"name":"t","arn":"arn","ext":{"alpha":[]}}`), tb.schema)
	require.NoError(t, err)
	require.NotContains(t, back.Features, "gamma", "none of its members: no slot")
	again = encodeTableMeta(tb, &tableMeta{Features: map[string]json.RawMessage{"gamma": json.RawMessage(`{"one":[1]}`)}})
	_, back, err = sm.decodeTableRecord(again, tb.schema)
	require.NoError(t, err)
	require.JSONEq(t, `{"one":[1]}`, string(back.Features["gamma"]), "written again, the slot is a member of its own")
}

// TestUpdateTableMember: a member of UpdateTable's request a feature owns
// decodes in its place, comes alone or with the members it names (With),
// counts as a change only when given (and not NoChange), and is answered
// by the feature, which sees the whole request, once the core's checks
// passed.
func TestUpdateTableMember(t *testing.T) {
	f := &memberFeature{}
	e := newClockEnv(t, Config{Features: []Feature{f}})
	e.table("own", provisioned)
	out := e.must("UpdateTable", `{"TableName":"own","Extra":["a"],"Extra":["b","c"]}`)
	require.Contains(t, out, `"TableName":"own"`)
	require.Equal(t, []string{"b", "c"}, f.ran, "given twice: decoded twice into one place")

	tests := []struct{ name, body, errType, msg string }{
		{"with another change", `{"TableName":"own","Extra":["a"],"TableClass":"STANDARD"}`, "ValidationException", "Extra comes alone"},
		{"SSE's rule first", `{"TableName":"own","Extra":["a"],"SSESpecification":{"Enabled":true}}`, "ValidationException", "Server-Side Encryption"},
		{"an empty list is no change", `{"TableName":"own","Extra":[]}`, "ValidationException", apierr.MsgUpdateNothing(false)},
		{"wrong JSON type", `{"TableName":"own","Extra":[5]}`, "SerializationException", "NUMBER_VALUE cannot be converted to String"},
		{"an earlier wrong type wins", `{"TableName":5,"Extra":[5]}`, "SerializationException", "NUMBER_VALUE cannot be converted to String"},
		{"table not found", `{"TableName":"nope","Extra":["a"]}`, "ResourceNotFoundException", "Table: nope not found"},
		{"a NoChange member alone is no change", `{"TableName":"own","Aside":"x"}`, "ValidationException", apierr.MsgUpdateNothing(false)},
		{"a NoChange member with another change", `{"TableName":"own","Aside":"x","TableClass":"STANDARD"}`, "ValidationException", "Aside comes with Extra only"},
		{"members judged together", `{"TableName":"own","Aside":"x","Extra":["d","e"]}`, "ValidationException", "Aside ran, Extra d,e"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := e.refused("UpdateTable", tt.body, tt.errType)
			require.Contains(t, out, tt.msg)
		})
	}
	require.Equal(t, []string{"b", "c", "a"}, f.ran, "only the request that passed the core's checks reached the feature")
}

// memberFeature owns two members of UpdateTable's request: Aside, which
// changes nothing alone, and Extra, which it records in ran.
type memberFeature struct{ ran []string }

func (*memberFeature) Name() string { return "test" }

func (f *memberFeature) Register(r Registrar) {
	UpdateTableMember(r, "Aside", TableUpdate[string]{
		Given: func(v *string) bool { return *v != "" },
		Rules: MemberRules{Alone: apierr.Validation("Aside comes with Extra only"), With: []string{"Extra"}, NoChange: true},
		Run: func(c Call, in *UpdateTableInput, v *string) (*TableDescription, error) {
			return nil, apierr.Validation("Aside ran, Extra " + strings.Join(*in.Owned.Member("Extra").(*[]string), ","))
		},
	})
	UpdateTableMember(r, "Extra", TableUpdate[[]string]{
		Given: func(v *[]string) bool { return len(*v) > 0 },
		Rules: MemberRules{Alone: apierr.Validation("Extra comes alone"), With: []string{"Aside"}},
		Run: func(c Call, in *UpdateTableInput, v *[]string) (*TableDescription, error) {
			f.ran = append(f.ran, *v...)
			tb, err := c.LookupTable(*in.TableName)
			if err != nil {
				return nil, err
			}
			return tb.Describe(), nil
		},
	})
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
		require.Equal(t, tc.member, slices.Contains(recordMembers(), tc.name), tc.name)
	}
	require.PanicsWithValue(t, "emulator: a feature named as a member of the table record: tags",
		func() { _, _ = New(Config{Features: []Feature{namedFeature("tags")}}) })
}

// namedFeature is a feature with a name and no operations.
type namedFeature string

func (f namedFeature) Name() string     { return string(f) }
func (namedFeature) Register(Registrar) {}

// TestChangeStream: a stream an edit turns on (Edit.SetStream in
// Table.Change) is the table's, of its region, and hears its writes;
// turned off, it is closed and keeps what it heard.
func TestChangeStream(t *testing.T) {
	env := newItemsEnv(t)
	tb := Table{t: env.emu.get(catalog.Key{AccessKey: "ITEMS", Region: "us-east-1"}).getTable("tha")}
	set := func(view string) {
		t.Helper()
		require.NoError(t, tb.Change(func(e *Edit) (func(bool) error, error) {
			e.SetStream(view)
			return nil, nil
		}))
	}
	set("NEW_IMAGE")
	require.Equal(t, "NEW_IMAGE", tb.Definition().StreamView())
	s := tb.t.liveStream
	require.False(t, s.IsZero(), "the stream turned on is the table's")
	require.Equal(t, tb.StreamLabel(), s.Label())
	require.Equal(t, "us-east-1", s.Region())
	env.mustOK("PutItem", `{"TableName":"tha","Item":{"pk":{"S":"a"}}}`)
	now := env.emu.clock()
	status, _ := s.State(now)
	require.Equal(t, Enabled, status)
	first, next := s.Bounds(now)
	require.Equal(t, uint64(1), next-first, "the stream heard the write")

	set("")
	require.Empty(t, tb.Definition().StreamView())
	require.True(t, tb.t.liveStream.IsZero(), "no stream observes the table")
	env.mustOK("PutItem", `{"TableName":"tha","Item":{"pk":{"S":"b"}}}`)
	status, _ = s.State(now)
	require.Equal(t, "DISABLED", status)
	f2, n2 := s.Bounds(now)
	require.Equal(t, [2]uint64{first, next}, [2]uint64{f2, n2}, "the closed stream heard no more")
}
