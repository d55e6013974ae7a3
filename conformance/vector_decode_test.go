package conformance

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

// SearchVectors reads its body with a strict deserializer before any
// member is validated: an explicit null is a SerializationException
// naming the line and column, a missing TableName a ValidationException
// naming the field, ahead of a too-short IndexName. AWS's answers as
// recorded by paritysuite/dynamodb-conformance
// (tests/tier3/error-messages/searchVectors.test.ts, eu-west-2 and
// us-east-1, 2026-10-09); the table is never looked up.
func TestVectorSearchStrictDecoder(t *testing.T) {
	vectorDiffers(t, docSearchVectors+" (strict request reading: paritysuite/dynamodb-conformance searchVectors.test.ts)")
	absent := uniqueName(t)
	valid := `"IndexName":"vix","SearchVector":[{"N":"1"}],"TopK":1`
	tests := []struct {
		name, body, typ string
		msg             *regexp.Regexp
	}{
		{"null IndexName", `{"TableName":"` + absent + `","IndexName":null,"SearchVector":[{"N":"1"}],"TopK":1}`, "SerializationException",
			regexp.MustCompile(`^invalid type: null, expected a string at line 1 column \d+$`)},
		{"null TableName", `{"TableName":null,` + valid + `}`, "SerializationException",
			regexp.MustCompile("^invalid type: null, expected a string at line 1 column 17$")},
		{"null SearchVector", `{"TableName":"` + absent + `","IndexName":"vix","SearchVector":null,"TopK":1}`, "SerializationException",
			regexp.MustCompile(`^invalid type: null, expected a sequence at line 1 column \d+$`)},
		{"null TopK", `{"TableName":"` + absent + `","IndexName":"vix","SearchVector":[{"N":"1"}],"TopK":null}`, "SerializationException",
			regexp.MustCompile(`^invalid type: null, expected i32 at line 1 column \d+$`)},
		{"missing TableName", `{` + valid + `}`, "ValidationException",
			regexp.MustCompile("^missing field `TableName` at line 1 column 55$")},
		{"missing TableName before a short IndexName", `{"IndexName":"ab","SearchVector":[{"N":"1"}],"TopK":1}`, "ValidationException",
			regexp.MustCompile("^missing field `TableName` at line 1 column \\d+$")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := rawCall(t, "SearchVectors", tc.body)
			require.Equal(t, 400, r.Status)
			require.Equal(t, tc.typ, r.Type)
			require.Regexp(t, tc.msg, r.Message)
		})
	}
}
