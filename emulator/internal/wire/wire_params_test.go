package wire

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

type paramsRequest struct {
	Statement  string
	Parameters Params
}

type refParamsRequest struct {
	Statement  string
	Parameters []AttributeValue
}

// checkParamsSameAnswer decodes body with Parameters as Params and as
// []AttributeValue: the same error, the same deferred fault and where
// it was, the same count and the same first values.
func checkParamsSameAnswer(t *testing.T, body string) {
	t.Helper()
	var got paramsRequest
	var want refParamsRequest
	if !decodeSameDeferred(t, body, &got, &want) {
		return
	}
	require.Equal(t, want.Parameters != nil, got.Parameters.Given(), "%s", body)
	require.Equal(t, len(want.Parameters), got.Parameters.Len(), "%s", body)
	require.Equal(t, want.Parameters[:min(len(want.Parameters), KeptParams)], got.Parameters.Kept(), "%s", body)
	require.Equal(t, want.Statement, got.Statement, "%s", body)
}

// decodeSameDeferred decodes body into got and want (the reference):
// the same error, the same deferred value fault and where it was. It
// reports whether both decoded.
func decodeSameDeferred(t *testing.T, body string, got, want any) bool {
	t.Helper()
	gotDef, gotErr := DecodeRequestDeferred([]byte(body), got)
	wantDef, wantErr := DecodeRequestDeferred([]byte(body), want)
	requireSameDecode(t, body, gotDef, wantDef, gotErr, wantErr)
	return wantErr == nil
}

// requireSameDecode: two decodings of body ended with the same error
// and the same deferred value fault, where it was.
func requireSameDecode(t *testing.T, body string, gotDef, wantDef *Deferred, gotErr, wantErr error) {
	t.Helper()
	require.Equal(t, errText(wantErr), errText(gotErr), "%.300s", body)
	require.Equal(t, wantDef == nil, gotDef == nil, "%.300s", body)
	if wantDef != nil {
		require.Equal(t, errText(wantDef.Err), errText(gotDef.Err), "%.300s", body)
		require.Equal(t, wantDef.Index, gotDef.Index, "%.300s", body)
		require.Equal(t, wantDef.OlderForm, gotDef.OlderForm, "%.300s", body)
	}
}

// mangledList joins parts as a JSON list; one time in eight it is null
// instead, one in eight other (a value of another type), one in eight
// cut short.
func mangledList(rng *rand.Rand, parts []string, other string) string {
	list := "[" + strings.Join(parts, ",") + "]"
	switch rng.IntN(8) {
	case 0:
		list = "null"
	case 1:
		list = other
	case 2:
		list = list[:rng.IntN(len(list)+1)]
	}
	return list
}

// paramElems are list elements: values, faults of values (deferred),
// values of the wrong JSON type, nulls, bad syntax.
var paramElems = []string{`{"S":"a"}`, `{"N":"1"}`, `{"N":"01.50"}`, `{"B":"AA=="}`, `{"BOOL":true}`, `{"NULL":true}`,
	`{"L":[{"S":"x"},{"N":"2"}]}`, `{"M":{"k":{"S":"v"}}}`, `{"SS":["a","b"]}`, `{"NS":["1","2"]}`,
	`{"N":"x"}`, `{"SS":["a","a"]}`, `{"SS":[]}`, `{"S":"a","N":"1"}`, `{}`, `{"Q":"a"}`, `{"NULL":false}`,
	`null`, `1`, `"s"`, `[]`, `true`, `{"S":1}`, `{"S":"a"`, `{"M":{"":{"S":"v"}}}`, ` {"S" : "sp"} `}

// TestParamsSameAnswer: Params' codec, which keeps only the first
// KeptParams values, decodes random lists (faults of values, values of
// the wrong type, nulls, bad syntax, the member twice, lists longer than
// KeptParams) as []AttributeValue's does.
func TestParamsSameAnswer(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 4))
	for round := range 3000 {
		n := rng.IntN(12)
		if round%500 == 0 {
			n = KeptParams - 2 + rng.IntN(300)
		}
		parts := make([]string, n)
		for i := range parts {
			parts[i] = paramElems[0]
			if n < 100 || rng.IntN(1000) == 0 {
				parts[i] = paramElems[rng.IntN(len(paramElems))]
			}
		}
		list := mangledList(rng, parts, `{"S":"a"}`)
		body := fmt.Sprintf(`{"Statement":"SELECT * FROM t","Parameters":%s}`, list)
		if rng.IntN(4) == 0 {
			body = `{"Parameters":[{"S":"z"},{"N":"9"},{"N":"bad"}],` + body[1:]
		}
		checkParamsSameAnswer(t, body)
	}
}

// FuzzParams: Params' codec decodes any Parameters member as
// []AttributeValue's does.
func FuzzParams(f *testing.F) {
	for _, s := range []string{`[{"S":"a"},{"N":"1"}]`, `null`, `[]`, `[{"N":"x"},1]`, `{"S":"a"}`, `[{"SS":["a","a"]}`, `[null,{}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, member string) {
		checkParamsSameAnswer(t, `{"Statement":"SELECT * FROM t","Parameters":`+member+`}`)
	})
}
