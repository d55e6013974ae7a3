package service

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// deepValue is an attribute value nested n maps deep, as JSON.
func deepValue(n int) string {
	return strings.Repeat(`{"M":{"n":`, n) + `{"S":"x"}` + strings.Repeat(`}}`, n)
}

// TestDeferredIndex: the decoder reports the first value fault with the
// position of the transaction action that holds it, and the fault of an
// item in AWS's rank (its own names, then depth, then the rest).
func TestDeferredIndex(t *testing.T) {
	put := func(item string) string { return `{"Put":{"TableName":"t","Item":` + item + `}}` }
	tests := []struct {
		name, body string
		index      int
		msg        string
	}{
		{"none", `{"TransactItems":[` + put(`{"pk":{"S":"a"}}`) + `]}`, 0, ""},
		{"second action", `{"TransactItems":[` + put(`{"pk":{"S":"a"}}`) + `,` + put(`{"pk":{"N":"x"}}`) + `]}`, 1,
			"The parameter cannot be converted to a numeric value: x"},
		{"first of two", `{"TransactItems":[` + put(`{"d":`+deepValue(40)+`}`) + `,` + put(`{"":{"S":"a"}}`) + `]}`, 0, apierr.MsgNestingExceeded},
		{"top-level name before depth", `{"TransactItems":[` + put(`{"d":`+deepValue(40)+`,"":{"S":"a"}}`) + `]}`, 0, apierr.MsgEmptyAttributeName},
		{"depth before a nested name", `{"TransactItems":[` + put(`{"m":{"M":{"":{"S":"a"}}},"d":`+deepValue(40)+`}`) + `]}`, 0, apierr.MsgNestingExceeded},
		{"expression value", `{"TransactItems":[` + put(`{"pk":{"S":"a"}}`) + `,{"ConditionCheck":{"TableName":"t","Key":{"pk":{"S":"a"}},"ConditionExpression":"a = :v","ExpressionAttributeValues":{":v":{"SS":["a","a"]}}}}]}`, 1,
			"ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: Input collection [a, a] contains duplicates. for key :v"},
		{"after the list", `{"TransactItems":[` + put(`{"pk":{"S":"a"}}`) + `],"ReturnConsumedCapacity":"NONE"}`, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in TransactWriteItemsInput
			d, err := wire.DecodeRequestDeferred([]byte(tt.body), &in)
			if err != nil {
				t.Fatalf("got error %v", err)
			}
			if tt.msg == "" {
				if d != nil {
					t.Fatalf("got %v, want no fault", d.Err)
				}
				return
			}
			if d == nil {
				t.Fatalf("got no fault, want %q", tt.msg)
			}
			if d.Index != tt.index || d.Err.Error() != tt.msg {
				t.Errorf("got %d %q, want %d %q", d.Index, d.Err, tt.index, tt.msg)
			}
			if len(in.TransactItems) != strings.Count(tt.body, `"TableName"`) {
				t.Errorf("got %d actions decoded, want all", len(in.TransactItems))
			}
		})
	}
}

// FuzzDecodeRequestDeferred: reading past value faults never panics; a
// fault is one encoding/json's decoding (the wire types' own
// UnmarshalJSON) also refuses; its index names an element of the
// top-level list or none; DecodeRequest answers the fault when nothing
// else is wrong.
func FuzzDecodeRequestDeferred(f *testing.F) {
	for _, s := range decodeCorpus {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		`{"TransactItems":[{"Put":{"TableName":"t","Item":{"a":` + deepValue(33) + `}}},{"Put":{"TableName":"t","Item":{"":{"S":"a"}}}}]}`,
		`{"TransactItems":[{"Delete":{"TableName":"t","Key":{"a":{"NS":["1","1"]}}}}],"ReturnConsumedCapacity":5}`,
		`{"TableName":"t","Item":{"a":{"N":"1e999"},"b":{}},"Expected":{"x":{"Value":` + deepValue(34) + `}}}`,
		`{"TableName":"t","Key":{"a":{"S":"a"}},"ExpressionAttributeValues":{":a":{"BS":["AA==","AA=="]},":b":null}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, mk := range []func() any{
			func() any { return new(TransactWriteItemsInput) },
			func() any { return new(PutItemInput) },
			func() any { return new(UpdateItemInput) },
		} {
			in := mk()
			d, err := wire.DecodeRequestDeferred(body, in)
			plain := wire.DecodeRequest(body, mk())
			switch {
			case err != nil:
				if plain == nil || plain.Error() != err.Error() {
					t.Fatalf("%s: DecodeRequest %v, deferred decoding %v", body, plain, err)
				}
				continue
			case d == nil:
				if plain != nil {
					t.Fatalf("%s: DecodeRequest %v, deferred decoding none", body, plain)
				}
				continue
			}
			if plain == nil || plain.Error() != d.Err.Error() {
				t.Fatalf("%s: DecodeRequest %v, deferred %v", body, plain, d.Err)
			}
			if !errors.Is(d.Err, apierr.ErrValidation) {
				t.Fatalf("%s: deferred %v is no ValidationException", body, d.Err)
			}
			if tx, ok := in.(*TransactWriteItemsInput); ok && (d.Index < -1 || d.Index >= len(tx.TransactItems)) {
				t.Fatalf("%s: index %d of %d actions", body, d.Index, len(tx.TransactItems))
			}
			if json.Valid(body) && unmarshalStd(body, mk()) == nil {
				t.Fatalf("%s: encoding/json accepts what has the fault %v", body, d.Err)
			}
		}
	})
}
