package wire

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
)

// TestDecodeRequestTopLevel: a body that is not a JSON object is a
// SerializationException (null included: it is not read as {}); an empty
// body and {} decode to nothing given.
func TestDecodeRequestTopLevel(t *testing.T) {
	type input struct{ TableName *string }
	tests := []struct {
		body    string
		wantErr bool
		msg     string
	}{
		{"", false, ""},
		{"{}", false, ""},
		{" {} ", false, ""},
		{"null", true, ""},
		{" \t\r\nnull\n", true, ""},
		{"[]", true, apierr.MsgSerListStart},
		{`"x"`, true, "Expected null"},
		{"1", true, "Expected null"},
		{"nul", true, ""},
		{"null null", true, ""},
		{`{"TableName":null}`, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.body, func(t *testing.T) {
			var in input
			_, err := DecodeRequestDeferred([]byte(tc.body), &in)
			if !tc.wantErr {
				require.NoError(t, err)
				require.Nil(t, in.TableName)
				return
			}
			ae, ok := apierr.Classify(err)
			require.True(t, ok, "%v", err)
			require.Equal(t, apierr.ErrSerialization, ae.Class)
			require.Equal(t, tc.msg, ae.Msg)
		})
	}
}

// FuzzDecodeRequestTopLevel: whatever the body, decoding gives an answer
// (no panic), and a body that is JSON null, whitespace around it, is
// always refused.
func FuzzDecodeRequestTopLevel(f *testing.F) {
	for _, s := range []string{"", "{}", "null", " null ", "[]", `"x"`, "1", "nullx", `{"TableName":"t"}`, "\vnull"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var in struct{ TableName *string }
		_, err := DecodeRequestDeferred(body, &in)
		if isJSONNullSlow(body) {
			require.Error(t, err)
		}
	})
}
