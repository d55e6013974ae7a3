package wire

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// FuzzNumberValue decodes an N value outside an item's text, where its
// text is read as a view of the input (numberValue): the number is
// storage.ParseNumber's, a fault for a text it refuses, and nothing of
// it changes when the input is overwritten afterwards.
func FuzzNumberValue(f *testing.F) {
	for _, s := range []string{"0", "-0", "1", "007", "-1.5", "0.5", "00.5", "1.50", "1e3", "+5", "",
		"12345678901234567890123456789012345678", "123456789012345678901234567890123456789", ".5", "5.", "x", `\u0031`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		body, err := json.Marshal(map[string]string{"N": s})
		require.NoError(t, err)
		var v AttributeValue
		gerr := v.UnmarshalJSON(body)
		var want storage.Number
		var werr error
		if json.Valid(body) && ValidJSONText(body) {
			want, werr = storage.ParseNumber(s)
		}
		if werr != nil || gerr != nil {
			require.Error(t, gerr, "%q", s)
			msg := gerr.Error()
			for i := range body {
				body[i] = 'x'
			}
			require.Equal(t, msg, gerr.Error(), "%q: the error after its input was overwritten", s)
			return
		}
		got := v.Number()
		require.Equal(t, want, got, "%q", s)
		for i := range body {
			body[i] = 'x'
		}
		require.Equal(t, want, v.Number(), "%q: the number after its input was overwritten", s)
	})
}

// TestLargeItemStrings decodes an item larger than maxBodyText, whose
// strings are each their own (no copy of its text): its values are those
// of the same item decoded small, and stay so when the input is
// overwritten.
func TestLargeItemStrings(t *testing.T) {
	small := `{"s":{"S":"a\"b"},"n":{"N":"007"},"c":{"N":"-1.5"},"u":{"S":"\u00e9t\u00e9"},"l":{"L":[{"N":"1e2"},{"S":"x"}]},"m":{"M":{"k":{"N":"5"}}},"ss":{"SS":["a","b"]},"ns":{"NS":["01","2"]}}`
	want, err := DecodeItem([]byte(small))
	require.NoError(t, err)
	pad := strings.Repeat("p", maxBodyText)
	big := []byte(small[:len(small)-1] + `,"pad":{"S":"` + pad + `"}}`)
	got, err := DecodeItem(big)
	require.NoError(t, err)
	for i := range big {
		big[i] = 'x'
	}
	require.Equal(t, pad, got["pad"].Str())
	delete(got, "pad")
	require.Len(t, got, len(want))
	for name, v := range want {
		require.True(t, storage.Equal(v, got[name]), "%s: got %v, want %v", name, got[name], v)
	}
	_, err = DecodeItem([]byte(`{"n":{"N":"1x"},"pad":{"S":"` + pad + `"}}`))
	require.ErrorContains(t, err, "1x")
}

// FuzzTrimmedNumber: the canonical text trimmedCanonical finds in a
// number's text is storage.ParseNumber's.
func FuzzTrimmedNumber(f *testing.F) {
	for _, s := range []string{"007", "0000000", "1.50", "00.50", "-1.50", "-007", "-0.0", "0.0", "100.000", "1.", ".5",
		"-0", "00", "0.000", "1e3", "+1.0", "12345678901234567890123456789012345678.0", "0012345678901234567890123456789012345678"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := trimmedCanonical(s)
		if !ok {
			return
		}
		want, err := storage.ParseNumber(s)
		require.NoError(t, err, "%q", s)
		require.Equal(t, string(want), got, "%q", s)
	})
}
