package wire

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The shapes of an input written with embedded structs, and written flat.
type (
	embKeys struct {
		A      string
		B      *int
		Shadow string // hidden by embOuter's own Shadow
	}
	EmbPaging struct {
		C []string
		D map[string]string `json:"Dict"`
	}
	EmbNamed struct{ X string }
	embLeft  struct{ Both string }
	embRight struct{ Both string }
	embOuter struct {
		embKeys
		*EmbPaging
		EmbNamed `json:"Named"` // a member of its own, not promoted
		embLeft
		embRight // Both at one depth twice: neither is decoded
		Shadow   int
		E        string
	}
	embFlat struct {
		A      string
		B      *int
		C      []string
		D      map[string]string `json:"Dict"`
		Named  EmbNamed
		Shadow int
		E      string
	}
)

// flat is what o decoded, written as embFlat.
func (o embOuter) flat() embFlat {
	f := embFlat{A: o.A, B: o.B, Named: o.EmbNamed, Shadow: o.Shadow, E: o.E}
	if o.EmbPaging != nil {
		f.C, f.D = o.C, o.D
	}
	return f
}

// TestDecodeEmbedded: an input's embedded structs' members decode as
// encoding/json decodes them: promoted, hidden by a nearer field of the
// same name, dropped when two at one depth share it; an embedded
// pointer is made when one of its members is decoded.
func TestDecodeEmbedded(t *testing.T) {
	body := `{"A":"a","B":2,"C":["c"],"Dict":{"k":"v"},"Named":{"X":"x"},"Shadow":7,"E":"e","Both":"b","X":"no"}`
	var got embOuter
	require.NoError(t, DecodeRequest([]byte(body), &got))
	var want embOuter
	require.NoError(t, json.Unmarshal([]byte(body), &want))
	require.Equal(t, want, got)
	require.Equal(t, "a", got.A)
	require.Equal(t, 7, got.Shadow)
	require.Empty(t, got.embKeys.Shadow)
	require.Empty(t, got.embLeft.Both)
	require.Equal(t, "x", got.EmbNamed.X)

	var none embOuter
	require.NoError(t, DecodeRequest([]byte(`{"A":"a"}`), &none))
	require.Nil(t, none.EmbPaging, "no member of it: not made")

	var bad embOuter
	err := DecodeRequest([]byte(`{"C":"not a list"}`), &bad)
	require.Error(t, err)
	var flatBad embFlat
	require.True(t, sameErr(err, DecodeRequest([]byte(`{"C":"not a list"}`), &flatBad)))
}

// FuzzDecodeEmbedded: whatever the body, an input written with embedded
// structs decodes to the same values and the same error as one written
// flat.
func FuzzDecodeEmbedded(f *testing.F) {
	for _, s := range []string{
		`{"A":"a","B":2,"C":["c"],"Dict":{"k":"v"},"Named":{"X":"x"},"Shadow":7,"E":"e"}`,
		`{"B":"x"}`, `{"C":null}`, `{"Dict":[1]}`, `{"Named":5}`, `{"Shadow":"s","A":1}`, `{"Both":1}`,
		`{"A":"a","A":"b"}`, `{"C":[`, `{"E":"\ud800"}`, "{\"E\":\"\xff\"}", `{"X":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var e embOuter
		var fl embFlat
		eerr := DecodeRequest(body, &e)
		ferr := DecodeRequest(body, &fl)
		require.True(t, sameErr(eerr, ferr), "%q: embedded %v, flat %v", body, eerr, ferr)
		if eerr != nil {
			return
		}
		require.Equal(t, fl, e.flat())
	})
}

// FuzzUnknownMember: whatever the body, UnknownMember does not fail, and
// a member it reports is one its object does not take.
func FuzzUnknownMember(f *testing.F) {
	for _, s := range []string{
		`{"A":"a","Zz":1}`, `{"Named":{"X":"x","Y":1}}`, `{"C":["c",{"q":1}],"Dict":{"k":"v"}}`, `{"Both":1}`, `[1]`, `{"A":`,
		`{"B":null,"Shadow":{"x":1}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		path, known, found := UnknownMember(body, reflect.TypeFor[embOuter]())
		if !found {
			return
		}
		require.NotEmpty(t, path)
		last := path[strings.LastIndexAny(path, ".]")+1:]
		require.NotContains(t, known, last, "%q: %s reported, yet taken", body, path)
	})
}
