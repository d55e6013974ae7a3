package insights

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestInferKey: a key value read as literal text around the item's
// attribute values that are no key attributes; constants, type tags and
// variables when nothing explains it; the same rules for an entity's
// sample items and for one example value.
func TestInferKey(t *testing.T) {
	keyAttr := func(a string) bool { return a == "PK" || a == "SK" || a == "GSI1SK" || a == "k" }
	tests := []struct {
		name     string
		items    []sampleItem
		example  bool
		variable bool
		want     string
	}{
		{"a prefix and an attribute", []sampleItem{{"k": "Post_2021-12-03", "created_at": "2021-12-03"}}, false, false, "Post_{created_at}"},
		{"two attributes", []sampleItem{{"k": "USER#ann#ORDER#42", "user": "ann", "order": "42"}}, false, false, "USER#{user}#ORDER#{order}"},
		{"items agree", []sampleItem{{"k": "A#11", "id": "11"}, {"k": "A#22", "id": "22"}}, false, false, "A#{id}"},
		{"one item lacks the attribute", []sampleItem{{"k": "A#11", "id": "11"}, {"k": "A#22"}}, false, false, "A#{id}"},
		{"one-character values explain nothing: the type tag", []sampleItem{{"k": "A#1", "id": "1"}}, false, false, "A#{name}"},
		{"items disagree", []sampleItem{{"k": "A#1", "id": "1"}, {"k": "B#2", "id": "2"}}, false, false, "{name}"},
		{"the tag the values share", []sampleItem{{"k": "USER#u7"}, {"k": "USER#u8"}}, false, false, "USER#{name}"},
		{"a tag of one value", []sampleItem{{"k": "USER#u7"}}, false, false, "USER#{name}"},
		{"an e-mail is no tag", []sampleItem{{"k": "ann.lee@example.com"}}, false, false, "{name}"},
		{"a date is no tag", []sampleItem{{"k": "2024-05-01"}, {"k": "2024-05-03"}}, false, false, "{name}"},
		{"a word every item holds", []sampleItem{{"k": "post"}}, false, false, "post"},
		{"an id one item holds", []sampleItem{{"k": "77fcab6b"}}, false, false, "{name}"},
		{"an id two items hold", []sampleItem{{"k": "x1"}, {"k": "x1"}}, false, false, "x1"},
		{"an example two items hold is no constant", []sampleItem{{"k": "x1"}, {"k": "x1"}}, true, false, "{name}"},
		{"an example word is a constant", []sampleItem{{"k": "PROFILE"}, {"k": "PROFILE"}}, true, false, "PROFILE"},
		{"a declared variable is no constant", []sampleItem{{"k": "post"}, {"k": "post"}}, false, true, "{name}"},
		{"no items", nil, false, false, "{name}"},
		{"never another key attribute's value", []sampleItem{{"k": "77fcab6b", "PK": "77fcab6b"}}, false, false, "{name}"},
		{"a tag's key, not the item's sort key", []sampleItem{{"k": "TAG#go", "SK": "TAG#go", "tag": "go"}, {"k": "TAG#db", "SK": "TAG#db", "tag": "db"}}, false, false, "TAG#{tag}"},
		{"a user's key, not the item's key", []sampleItem{{"k": "USER#u7", "PK": "USER#u7", "GSI1SK": "USER", "userId": "u7"}}, false, false, "USER#{userId}"},
		{"braces in the value", []sampleItem{{"k": "{x}", "x": "x"}}, false, false, "{name}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := inferKey(keyEvidence{attr: "k", items: tc.items, keyAttr: keyAttr, name: "name", example: tc.example, variable: tc.variable})
			require.Equal(t, tc.want, got.String())
		})
	}
}

// TestPatternsFromTraffic: a table whose format declares no patterns
// takes one per request shape, names it by the shape, counts the same
// shape again in it, never makes a Scan a pattern, and stops at
// maxLearned.
func TestPatternsFromTraffic(t *testing.T) {
	d, err := ParseDesign([]byte(`{"tables":[{"TableName":"T","KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
		"GlobalSecondaryIndexes":[{"IndexName":"g","KeySchema":[{"AttributeName":"gpk","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"}}]}],"items":{},"access_patterns":[]}`))
	require.NoError(t, err)
	tb := d.Tables[0]
	require.True(t, tb.FromTraffic)
	r := New(Options{Clock: fixedClock})
	r.SetDesign(d)
	r.SetReporting(true)
	reqs := []Request{
		{Op: "Query", Access: Query, Table: "T", Key: KeyCondition{Partition: s("u1"), SortOp: SortBeginsWith, Sort: s("ORDER#")}},
		{Op: "Query", Access: Query, Table: "T", Key: KeyCondition{Partition: s("u2"), SortOp: SortBeginsWith, Sort: s("ORDER#")}},
		{Op: "Query", Access: Query, Table: "T", Key: KeyCondition{Partition: s("u2"), SortOp: SortBetween, Sort: s("a"), Sort2: s("b")}},
		{Op: "GetItem", Access: Get, Table: "T", Key: KeyCondition{Partition: s("u1"), SortOp: SortEQ, Sort: s("x")}},
		{Op: "Query", Access: Query, Table: "T", Index: "g", Key: KeyCondition{Partition: s("v")}},
		{Op: "Scan", Access: Scan, Table: "T"},
		{Op: "Query", Access: Query, Table: "T", Index: "nope", Key: KeyCondition{Partition: s("v")}},
	}
	for _, q := range reqs {
		r.Record(&q)
	}
	rep := r.Report(nil)
	var got []string
	for _, p := range rep.Design.Patterns {
		require.True(t, p.FromTraffic, p.Name)
		got = append(got, p.Name+" "+p.Condition+" "+itoa(p.Requests))
	}
	require.Equal(t, []string{
		"query-table-ORDER# pk = {pk} and sk begins_with ORDER# 2",
		"query-table-between pk = {pk} and sk between {sk} and {sk} 1",
		"get-table pk = {pk} and sk = {sk} 1",
		"query-g pk = {gpk} 1",
	}, got)
	var kinds []string
	for _, f := range rep.Design.Findings {
		kinds = append(kinds, f.Kind)
	}
	require.Equal(t, []string{FindingFromTraffic, FindingScanRequest, FindingUnmatchedRequest}, kinds)

	for i := 0; i < 2*maxLearned; i++ {
		q := Request{Op: "Query", Access: Query, Table: "T", Key: KeyCondition{Partition: s("u"), SortOp: SortBeginsWith, Sort: s("P" + itoa(int64(i)) + "#")}}
		r.Record(&q)
	}
	held := r.Design().Tables[0]
	require.Len(t, held.Patterns, maxLearned)
	require.Empty(t, tb.Patterns, "the recorder's copy took the patterns, not the design set")
	require.Contains(t, d.View().Tables[0].Note, "takes them from the shapes of the traffic's requests")

	// A reset forgets them with the counts.
	r.Reset()
	require.Empty(t, held.Patterns)
	require.Empty(t, r.Report(nil).Design.Patterns)
}

// TestOneTableEqualIsGet: a saved query with Equal on the table's full
// key is a get; on an index, or with another operation, a query.
func TestOneTableEqualIsGet(t *testing.T) {
	d, err := ParseDesign([]byte(`{"indexes":{"primary":{"hash":"pk","sort":"sk"},"g":{"hash":"gpk","sort":"gsk"}},
	"models":{"M":{"pk":{"value":"m#${id}"},"sk":{"value":"m"},"gpk":{"value":"g#${x}"},"gsk":{"value":"m"}}},
	"queries":{"one":{"index":"primary","model":"M","hash":"m#${id}","operation":"Equal","sort":"m"},
		"some":{"index":"primary","model":"M","hash":"m#${id}","operation":"Begins with","sort":"m"},
		"by g":{"index":"g","model":"M","hash":"g#${x}","operation":"Equal","sort":"m"}}}`))
	require.NoError(t, err)
	var got []string
	for _, p := range d.Tables[0].Patterns {
		got = append(got, p.Name+" "+p.Access.String())
	}
	require.Equal(t, []string{"one get", "some query", "by g query"}, got)
	require.True(t, d.Tables[0].Unnamed)
}
