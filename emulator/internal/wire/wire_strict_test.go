package wire

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// strictInput is a strict request: a required member after an optional
// one, and a member with no strict tag.
type strictInput struct {
	Plain *string `json:"Plain"`
	Limit *int64  `json:"Limit" strict:"i32"`
	Name  *string `json:"Name" strict:"a string,required"`
	Items []int64 `json:"Items" strict:"a sequence,required"`
}

// TestStrictFields: the strict members with what a null of them is
// expected as, the required ones in the struct's order; a struct with
// no strict tag is not strict.
func TestStrictFields(t *testing.T) {
	typ := reflect.TypeFor[strictInput]()
	members, _ := structFields(typ)
	s := strictFields(typ, members)
	require.NotNil(t, s)
	require.Equal(t, []string{"Name", "Items"}, s.required)
	for name, want := range map[string]struct {
		what     string
		required int
	}{"Plain": {"", -1}, "Limit": {"i32", -1}, "Name": {"a string", 0}, "Items": {"a sequence", 1}} {
		require.Equal(t, want.what, s.fields[name].what, name)
		require.Equal(t, want.required, s.fields[name].required, name)
	}
	plain := reflect.TypeFor[struct{ A *string }]()
	members, _ = structFields(plain)
	require.Nil(t, strictFields(plain, members))
}

// TestStrictDecode: a strict member's null and a missing required member
// are refused in the strict deserializer's words, the first required in
// the struct's order; other members read as usual, null or not, unknown
// ones too; a strict tag of an unknown option cannot be decoded into.
func TestStrictDecode(t *testing.T) {
	var in strictInput
	require.NoError(t, DecodeRequest([]byte(`{"Plain":null,"Other":null,"Items":[1,2],"Name":"n","Limit":3}`), &in))
	require.Nil(t, in.Plain)
	require.Equal(t, "n", *in.Name)
	require.Equal(t, []int64{1, 2}, in.Items)
	require.Equal(t, int64(3), *in.Limit)
	for body, want := range map[string]struct{ class, msg string }{
		"{\"Name\":\"n\",\n \"Limit\":null}": {"SerializationException", "invalid type: null, expected i32 at line 2 column 13"},
		`{"Items":[],"Name":null}`:           {"SerializationException", "invalid type: null, expected a string at line 1 column 23"},
		`{"Limit":1}`:                        {"ValidationException", "missing field `Name` at line 1 column 11"},
		`{"Name":"n"}`:                       {"ValidationException", "missing field `Items` at line 1 column 12"},
	} {
		err := DecodeRequest([]byte(body), new(strictInput))
		require.Error(t, err, body)
		class, _ := apierr.Classify(err)
		require.Equal(t, want.class, class.Class.Name, body)
		require.ErrorContains(t, err, want.msg, body)
	}
	var odd struct {
		A *string `json:"A" strict:"a string,sometimes"`
	}
	require.ErrorContains(t, DecodeRequest([]byte(`{}`), &odd), `does not support strict tag "sometimes"`)
}
