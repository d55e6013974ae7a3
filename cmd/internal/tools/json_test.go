package tools

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestJSON: values read and written back, compact and as the AWS CLI
// prints them.
func TestJSON(t *testing.T) {
	v, err := parseJSON(` {"TableNames": ["a", "\u00e9\ud83d\ude00"], "n": -1.5e3, "ok": true, "none": null, "o": {}, "l": []} `)
	require.NoError(t, err)
	require.Equal(t, jsonObject{{"TableNames", []any{"a", "é😀"}}, {"n", jsonNumber("-1.5e3")}, {"ok", true}, {"none", nil}, {"o", jsonObject{}}, {"l", []any{}}}, v)
	require.Equal(t, `{"TableNames":["a","é😀"],"n":-1.5e3,"ok":true,"none":null,"o":{},"l":[]}`, string(appendJSON(nil, v, "", 0)))
	require.Equal(t, "{\n    \"TableNames\": [\n        \"a\",\n        \"é😀\"\n    ],\n    \"n\": -1.5e3,\n    \"ok\": true,\n    \"none\": null,\n    \"o\": {},\n    \"l\": []\n}",
		string(appendJSON(nil, v, "    ", 0)))
	require.Equal(t, `"q\"\\\n\t\u0001`+"\uFFFD"+`"`, string(appendJSON(nil, "q\"\\\n\t\x01\xff", "", 0)), "a bad byte as U+FFFD")
	v, err = parseJSON(`{"a":1,"a":2}`)
	require.NoError(t, err)
	require.Equal(t, jsonObject{{"a", jsonNumber("2")}}, v, "the last of repeated names, as encoding/json")
	for _, bad := range []string{"", "{", `{"a"}`, `{"a":}`, "[1,]", "01", "1.", "-", "1e", `"\x"`, `"\u12"`, "\"a\nb\"", "tru", "1 2", `{"a":1,}`, "[" + string(bytes.Repeat([]byte("["), 600))} {
		_, err := parseJSON(bad)
		require.ErrorIs(t, err, errJSON, "%q", bad)
	}
}

// FuzzJSON: the reader takes what encoding/json takes and nothing else,
// and what it writes is the same value to encoding/json.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x",true,null,{"b":-0.5e+2}]}`, `"\ud800x"`, `"\ud83d\ude00"`, "\"\xff\"", `[]`, ` 0 `, `{"a":1,"a":2}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parseJSON(s)
		valid := json.Valid([]byte(s))
		if err != nil {
			// Only nesting past our bound may be refused beyond encoding/json's.
			require.False(t, valid && !bytes.Contains([]byte(err.Error()), []byte("nested deeper")), "%q: %v", s, err)
			return
		}
		require.True(t, valid, "%q read, but it is not JSON", s)
		var want, got any
		dec := json.NewDecoder(bytes.NewReader([]byte(s)))
		dec.UseNumber()
		require.NoError(t, dec.Decode(&want))
		out := appendJSON(nil, v, "", 0)
		dec = json.NewDecoder(bytes.NewReader(out))
		dec.UseNumber()
		require.NoError(t, dec.Decode(&got), "%q wrote %q", s, out)
		require.Equal(t, want, got, "%q wrote %q", s, out)
		require.True(t, json.Valid(appendJSON(nil, v, "  ", 0)))
	})
}
