package lambdaesm

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/streamsapi"
)

// A DynamoDB stream record as Lambda sends it, with the JSON values
// filters meet: strings, numbers, booleans, null, arrays, objects.
const sampleRecord = `{"eventID":"1","eventName":"INSERT","eventVersion":"1.1","eventSource":"aws:dynamodb","awsRegion":"us-east-1",
"dynamodb":{"ApproximateCreationDateTime":1700000000,"Keys":{"pk":{"S":"TENANT#acme"}},
"NewImage":{"pk":{"S":"TENANT#acme"},"status":{"S":"Paid"},"qty":{"N":"5"},"flag":{"BOOL":true},"gone":{"NULL":true},
"tags":{"SS":["red","blue"]},"note":{"S":""}},"SequenceNumber":"000000000000000000001","SizeBytes":120,"StreamViewType":"NEW_IMAGE"},
"eventSourceARN":"arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/x","extra":null,"list":[1,2,3]}`

// TestFilterOperators: each rule of Lambda's event filtering, matched
// and not matched.
func TestFilterOperators(t *testing.T) {
	cases := []struct {
		pattern string
		match   bool
	}{
		{`{"eventName":["INSERT"]}`, true},
		{`{"eventName":["MODIFY"]}`, false},
		{`{"eventName":["MODIFY","INSERT"]}`, true},
		{`{"extra":[null]}`, true},
		{`{"eventID":[null]}`, false},
		{`{"missing":[null]}`, false},
		{`{"dynamodb":{"NewImage":{"note":{"S":[""]}}}}`, true},
		{`{"dynamodb":{"NewImage":{"status":{"S":[""]}}}}`, false},
		{`{"dynamodb":{"NewImage":{"flag":{"BOOL":[true]}}}}`, true},
		{`{"dynamodb":{"NewImage":{"flag":{"BOOL":[false]}}}}`, false},
		{`{"dynamodb":{"NewImage":{"gone":{"NULL":[true]}}}}`, true},
		{`{"dynamodb":{"Keys":{"pk":{"S":[{"prefix":"TENANT#"}]}}}}`, true},
		{`{"dynamodb":{"Keys":{"pk":{"S":[{"prefix":"tenant#"}]}}}}`, false},
		{`{"dynamodb":{"Keys":{"pk":{"S":[{"suffix":"#acme"}]}}}}`, true},
		{`{"dynamodb":{"Keys":{"pk":{"S":[{"suffix":"#ACME"}]}}}}`, false},
		{`{"dynamodb":{"NewImage":{"status":{"S":[{"equals-ignore-case":"PAID"}]}}}}`, true},
		{`{"dynamodb":{"NewImage":{"status":{"S":["PAID"]}}}}`, false},
		{`{"dynamodb":{"NewImage":{"status":{"S":[{"anything-but":["Open","Closed"]}]}}}}`, true},
		{`{"dynamodb":{"NewImage":{"status":{"S":[{"anything-but":"Paid"}]}}}}`, false},
		{`{"dynamodb":{"NewImage":{"status":{"S":[{"anything-but":{"prefix":"Pa"}}]}}}}`, false},
		{`{"dynamodb":{"NewImage":{"status":{"S":[{"anything-but":{"suffix":"x"}}]}}}}`, true},
		{`{"dynamodb":{"NewImage":{"status":{"S":[{"anything-but":{"equals-ignore-case":"paid"}}]}}}}`, false},
		{`{"missing":[{"anything-but":"x"}]}`, false},
		{`{"dynamodb":{"SizeBytes":[{"numeric":["=",120]}]}}`, true},
		{`{"dynamodb":{"SizeBytes":[{"numeric":[">",100,"<=",120]}]}}`, true},
		{`{"dynamodb":{"SizeBytes":[{"numeric":[">",120]}]}}`, false},
		{`{"dynamodb":{"SizeBytes":[{"numeric":[">=",0,"<",120]}]}}`, false},
		{`{"dynamodb":{"SizeBytes":[120]}}`, true},
		{`{"dynamodb":{"SizeBytes":[120.0]}}`, false}, // numbers match by their text
		{`{"dynamodb":{"NewImage":{"qty":{"N":[{"numeric":["=",5]}]}}}}`, false},
		{`{"dynamodb":{"NewImage":{"qty":{"N":["5"]}}}}`, true},
		{`{"dynamodb":{"NewImage":{"status":{"S":[{"exists":true}]}}}}`, true},
		{`{"dynamodb":{"NewImage":{"other":{"S":[{"exists":true}]}}}}`, false},
		{`{"dynamodb":{"NewImage":{"other":{"S":[{"exists":false}]}}}}`, true},
		{`{"dynamodb":{"NewImage":{"status":{"S":[{"exists":false}]}}}}`, false},
		{`{"dynamodb":{"NewImage":[{"exists":true}]}}`, false}, // exists looks at leaves only
		{`{"dynamodb":{"NewImage":{"tags":{"SS":["blue"]}}}}`, true},
		{`{"dynamodb":{"NewImage":{"tags":{"SS":["green"]}}}}`, false},
		{`{"list":[{"numeric":[">",2]}]}`, true},
		{`{"eventName":["INSERT"],"awsRegion":["eu-west-1"]}`, false},
		{`{"$or":[{"eventName":["MODIFY"]},{"awsRegion":["us-east-1"]}]}`, true},
		{`{"$or":[{"eventName":["MODIFY"]},{"awsRegion":["eu-west-1"]}]}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.pattern, func(t *testing.T) {
			p, err := parsePattern(tc.pattern)
			require.NoError(t, err)
			require.Equal(t, tc.match, filterSet{p}.pass(jsonRecord([]byte(sampleRecord))))
		})
	}
}

// TestFilterOrAcrossFilters: a record passes when any filter matches;
// no filter at all passes every record.
func TestFilterOrAcrossFilters(t *testing.T) {
	a, err := parsePattern(`{"eventName":["MODIFY"]}`)
	require.NoError(t, err)
	b, err := parsePattern(`{"eventName":["INSERT"]}`)
	require.NoError(t, err)
	require.False(t, filterSet{a}.pass(jsonRecord([]byte(sampleRecord))))
	require.True(t, filterSet{a, b}.pass(jsonRecord([]byte(sampleRecord))))
	require.True(t, filterSet(nil).pass(jsonRecord([]byte(sampleRecord))))
}

// TestFilterInvalidPatterns: patterns Lambda refuses at creation.
func TestFilterInvalidPatterns(t *testing.T) {
	for _, p := range []string{
		``, `[]`, `"x"`, `{}`, `{"a":"x"}`, `{"a":[]}`, `{"a":1}`, `{"a":[{"prefix":1}]}`, `{"a":[{"nope":"x"}]}`,
		`{"a":[{"numeric":[">"]}]}`, `{"a":[{"numeric":["~",1]}]}`, `{"a":[{"numeric":[">","1"]}]}`,
		`{"a":[{"exists":"yes"}]}`, `{"a":[{"anything-but":[]}]}`, `{"a":[{"anything-but":{"numeric":[">",1]}}]}`,
		`{"a":[{"prefix":"x","suffix":"y"}]}`, `{"$or":[{"a":["x"]}]}`, `{"$or":"x"}`, `{"a":["x"]} {}`,
	} {
		_, err := parsePattern(p)
		require.Error(t, err, p)
	}
}

// FuzzParsePattern: any pattern text parses or is refused, never
// panics, and a parsed pattern matches the sample record without
// panicking.
func FuzzParsePattern(f *testing.F) {
	for _, s := range []string{`{"eventName":["INSERT"]}`, `{"dynamodb":{"NewImage":{"s":{"S":[{"prefix":"a"}]}}}}`,
		`{"a":[{"numeric":[">",1,"<=",5]}]}`, `{"$or":[{"a":[null]},{"b":[{"exists":false}]}]}`,
		`{"a":[{"anything-but":{"prefix":"x"}}]}`, `{"a":[{"equals-ignore-case":"X"}]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parsePattern(s)
		if err != nil {
			return
		}
		_ = filterSet{p}.pass(jsonRecord([]byte(sampleRecord)))
		_ = filterSet{p}.pass(jsonRecord([]byte(s)))
	})
}

// jsonObj is a record's JSON, decoded (numbers kept as their text), as a
// filter sees it: what the record view (filter_record.go) must equal.
type jsonObj map[string]any

func (o jsonObj) Field(name string) node {
	v, ok := o[name]
	if !ok {
		return node{}
	}
	return jsonNode(v)
}

func jsonNode(v any) node {
	switch x := v.(type) {
	case map[string]any:
		return streamsapi.ObjectField(jsonObj(x))
	case []any:
		out := node{Kind: streamsapi.FieldList}
		for _, e := range x {
			out.List = append(out.List, jsonNode(e))
		}
		return out
	case string:
		return streamsapi.StringField(x)
	case json.Number:
		return streamsapi.NumberField(string(x))
	case bool:
		return streamsapi.BoolField(x)
	}
	return node{Kind: streamsapi.FieldNull, Text: "null"}
}

// jsonRecord decodes a record's JSON; nil when it is not an object.
func jsonRecord(b []byte) object {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var obj map[string]any
	if d.Decode(&obj) != nil || obj == nil {
		return nil
	}
	return jsonObj(obj)
}
