package wire

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/stretchr/testify/require"
)

type namesRequest struct {
	TableName       string
	AttributesToGet expr.NameList
	Key             WireItem
}

type refNamesRequest struct {
	TableName       string
	AttributesToGet []string
	Key             WireItem
}

// checkNamesSameAnswer decodes body with AttributesToGet as
// expr.NameList and as []string: the same error, the same names.
func checkNamesSameAnswer(t *testing.T, body string) {
	t.Helper()
	var got namesRequest
	var want refNamesRequest
	gotErr := DecodeRequest([]byte(body), &got)
	wantErr := DecodeRequest([]byte(body), &want)
	require.Equal(t, errText(wantErr), errText(gotErr), "%s", body)
	if wantErr != nil {
		return
	}
	require.Equal(t, want.AttributesToGet != nil, got.AttributesToGet.Given(), "%s", body)
	require.Equal(t, want.AttributesToGet, got.AttributesToGet.Names(), "%s", body)
	if want.AttributesToGet == nil {
		return
	}
	// Compiled, the offsets the decoder kept give the projection of the
	// names.
	wantProj, wantErr := expr.AttributesToGet(want.AttributesToGet)
	gotProj, gotErr := expr.AttributesToGetList(&got.AttributesToGet)
	require.Equal(t, errText(wantErr), errText(gotErr), "%s", body)
	if wantErr == nil {
		require.Equal(t, wantProj.String(), gotProj.String(), "%s", body)
		require.Equal(t, want.AttributesToGet, gotProj.LegacyNames(), "%s", body)
	}
	require.Equal(t, want.TableName, got.TableName, "%s", body)
}

// TestAttributeNamesSameAnswer: NameList's codec, which keeps offsets
// into the body, decodes random lists (escapes, non-ASCII, nulls, values
// that are not strings, bad syntax, the member twice) as []string's does.
func TestAttributeNamesSameAnswer(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	elems := []string{`"a"`, `"b"`, `"pk"`, `""`, `"\u00e9"`, `"é"`, `"a\"b"`, `"a\\b"`, `null`, `1`, `true`,
		`{}`, `[]`, `"\n"`, "\"\x01\"", `"\ud800"`, `"x`, `"long name with spaces"`, ` "sp" `, "\"a\"\t", `"a\u0022"`, `"\u0041"`, `"abc"`}
	for range 3000 {
		parts := make([]string, rng.IntN(12))
		for i := range parts {
			parts[i] = elems[rng.IntN(len(elems))]
		}
		list := mangledList(rng, parts, `"a"`)
		body := fmt.Sprintf(`{"TableName":"t","AttributesToGet":%s,"Key":{"pk":{"S":"k"}}}`, list)
		if rng.IntN(4) == 0 {
			body = `{"AttributesToGet":["z","y","x"],` + body[1:]
		}
		checkNamesSameAnswer(t, body)
	}
}

// FuzzAttributeNames: NameList's codec decodes any AttributesToGet member
// as []string does.
func FuzzAttributeNames(f *testing.F) {
	for _, s := range []string{`["a","b"]`, `null`, `[]`, `["\u00e9",null,1]`, `["a\"b"]`, `"x"`, `[{}]`, `["a"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, member string) {
		checkNamesSameAnswer(t, `{"TableName":"t","AttributesToGet":`+member+`,"Key":{"pk":{"S":"k"}}}`)
	})
}
