package wire

import (
	"errors"
	"fmt"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// refValues decodes as ExpressionValues did before decodeExpressionValues:
// through its UnmarshalJSON, after the request decoder skipped the value.
type refValues ExpressionValues

func (r *refValues) UnmarshalJSON(data []byte) error {
	return (*ExpressionValues)(r).UnmarshalJSON(data)
}

type valuesRequest struct {
	TableName                 string
	ExpressionAttributeValues ExpressionValues
	Key                       WireItem
}

type refValuesRequest struct {
	TableName                 string
	ExpressionAttributeValues refValues
	Key                       WireItem
}

// FuzzExpressionValuesCodec: the request decoder's own ExpressionValues
// codec answers as UnmarshalJSON does, for any value of the member and
// with other members around it: the same error, the same deferred value
// fault, the same map.
func FuzzExpressionValuesCodec(f *testing.F) {
	for _, s := range []string{
		`{":one":{"N":"1"},":s":{"S":"text"}}`, `null`, `[]`, `"x"`, `{}`, `{":a":null}`,
		`{":a":{"S":1}}`, `{":a":{"N":"x"}}`, `{":a":{"N":"1e999"}}`, `{":a":{"S":"x"},":b":{{`,
		`{":a":{"N":"x"},":b":{"S":2}}`, `{":a":{"S":1},":b":{{`, `{":a":{"L":[{"M":{"b":{"SS":["x","x"]}}}]}}`, `{"a":{"S":"\u00e9"}}`,
		`{":a":{"S":"x"},":a":{"N":"2"}}`, `{":a":{"B":"!!"}}`, `{":a":{"S":"x"}`, `{":a":{"NULL":false}}`,
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, member string, twice bool) {
		body := `{"TableName":"t","ExpressionAttributeValues":` + member + `,"Key":{"pk":{"S":"k"}}}`
		if twice {
			body = `{"ExpressionAttributeValues":{":z":{"S":"z"}},"ExpressionAttributeValues":` + member + `,"Key":{"pk":{"S":"k"}}}`
		}
		var got valuesRequest
		var want refValuesRequest
		gotDef, gotErr := DecodeRequestDeferred([]byte(body), &got)
		wantDef, wantErr := DecodeRequestDeferred([]byte(body), &want)
		if errText(gotErr) != errText(wantErr) {
			t.Fatalf("%s: error %q, want %q", body, errText(gotErr), errText(wantErr))
		}
		if (gotDef == nil) != (wantDef == nil) || gotDef != nil && (errText(gotDef.Err) != errText(wantDef.Err) || gotDef.Index != wantDef.Index) {
			t.Fatalf("%s: deferred %+v, want %+v", body, gotDef, wantDef)
		}
		if gotErr != nil {
			return
		}
		if (got.ExpressionAttributeValues == nil) != (want.ExpressionAttributeValues == nil) ||
			!storage.ItemsEqual(storage.Item(got.ExpressionAttributeValues), storage.Item(want.ExpressionAttributeValues)) {
			t.Fatalf("%s: values %v, want %v", body, got.ExpressionAttributeValues, want.ExpressionAttributeValues)
		}
		if !storage.ItemsEqual(storage.Item(got.Key), storage.Item(want.Key)) {
			t.Fatalf("%s: key %v, want %v", body, got.Key, want.Key)
		}
	})
}

// errText is an error's class and message ("" for none).
func errText(err error) string {
	var e *apierr.Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return fmt.Sprintf("%v: %s", e.Class, e.Msg)
	}
	return fmt.Sprintf("%T: %v", err, err)
}
