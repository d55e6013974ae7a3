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
