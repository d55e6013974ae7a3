package mcp

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestValueOf: each type of attribute value decodes into storage's
// value, and what a type does not take is an error that says what the
// type takes and what it got.
func TestValueOf(t *testing.T) {
	n := storage.MustNumber
	for _, tc := range []struct {
		raw  string
		want storage.Value
	}{
		{`{"S":"x"}`, storage.S("x")},
		{`{"N":"-1.50E1"}`, storage.N(n("-15"))},
		{`{"B":"AQI="}`, storage.B([]byte{1, 2})},
		{`{"BOOL":true}`, storage.Bool(true)},
		{`{"NULL":true}`, storage.Null()},
		{`{"L":[{"S":"a"},{"N":"2"}]}`, storage.L([]storage.Value{storage.S("a"), storage.N(n("2"))})},
		{`{"M":{"k":{"BOOL":false}}}`, storage.M(storage.Item{"k": storage.Bool(false)})},
		{`{"SS":["b","a"]}`, storage.SS([]string{"b", "a"})},
		{`{"NS":["2","1.0"]}`, storage.NS([]storage.Number{n("2"), n("1")})},
		{`{"BS":["AA==","AQ=="]}`, storage.BS([][]byte{{0}, {1}})},
	} {
		got, err := valueOf([]byte(tc.raw))
		require.NoError(t, err, tc.raw)
		require.True(t, storage.Equal(tc.want, got), "%s: %v, want %v", tc.raw, got, tc.want)
	}
	for _, tc := range []struct{ raw, want string }{
		{`{"S":1}`, `an S value takes a string, not 1`},
		{`{"N":1}`, `an N value takes a number as a string, not 1`},
		{`{"N":"one"}`, `one`},
		{`{"B":1}`, `a B value takes a base64 string, not 1`},
		{`{"B":"!"}`, `a B value takes a base64 string: illegal base64`},
		{`{"BOOL":"yes"}`, `a BOOL value takes true or false, not "yes"`},
		{`{"L":{}}`, `an L value takes an array, not {}`},
		{`{"L":[{"S":"a"},{"S":2}]}`, `an S value takes a string, not 2`},
		{`{"M":[]}`, `an item is an object of attribute names to values, not []`},
		{`{"M":{"k":{"N":true}}}`, `attribute "k": an N value takes a number as a string, not true`},
		{`{"SS":[]}`, `an SS value takes a non-empty array of strings, not []`},
		{`{"SS":[1]}`, `an SS value takes a non-empty array of strings, not [1]`},
		{`{"NS":[]}`, `an NS value takes a non-empty array of numbers as strings, not []`},
		{`{"NS":["1","x"]}`, `x`},
		{`{"BS":[]}`, `a BS value takes a non-empty array of base64 strings, not []`},
		{`{"BS":["AA==",2]}`, `a B value takes a base64 string, not 2`},
		{`{"X":"1"}`, `unknown attribute value type "X" (S, N, B, BOOL, NULL, L, M, SS, NS, BS)`},
		{`{"S":"a","N":"1"}`, `an attribute value is an object of one type, such as {"S": "x"}, not {"S":"a","N":"1"}`},
		{`{}`, `an attribute value is an object of one type, such as {"S": "x"}, not {}`},
		{`"x"`, `an attribute value is an object of one type, such as {"S": "x"}, not "x"`},
	} {
		_, err := valueOf([]byte(tc.raw))
		require.ErrorContains(t, err, tc.want, tc.raw)
	}
}

// TestValueDepth: lists and maps nest maxValueDepth deep, and no deeper.
func TestValueDepth(t *testing.T) {
	nest := func(open, close string, depth int) string {
		return strings.Repeat(open, depth) + `{"S":"x"}` + strings.Repeat(close, depth)
	}
	for _, c := range []struct{ open, close string }{{`{"L":[`, `]}`}, {`{"M":{"k":`, `}}`}} {
		_, err := valueOf([]byte(nest(c.open, c.close, maxValueDepth)))
		require.NoError(t, err, c.open)
		_, err = valueOf([]byte(nest(c.open, c.close, maxValueDepth+1)))
		require.ErrorContains(t, err, "an attribute value nested more than 32 deep", c.open)
	}
}
