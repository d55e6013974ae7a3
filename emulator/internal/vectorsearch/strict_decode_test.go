package vectorsearch

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
)

// TestSearchVectorsStrictDecoder: explicit nulls and a missing TableName
// in the strict deserializer's words, ahead of every other check.
func TestSearchVectorsStrictDecoder(t *testing.T) {
	e := servicetest.New(t, service.Config{Features: testFeatures})
	const ser, val = "SerializationException", "ValidationException"
	for _, tc := range []struct {
		name, body, typ, msg string
	}{
		{"null TableName", `{"TableName":null,"IndexName":"vix","SearchVector":[{"N":"1"}],"TopK":1}`, ser,
			"invalid type: null, expected a string at line 1 column 17"},
		{"null IndexName", `{"TableName":"nosuch","IndexName":null,"SearchVector":[{"N":"1"}],"TopK":1}`, ser,
			"invalid type: null, expected a string at line 1 column 38"},
		{"null SearchVector", `{"TableName":"nosuch","IndexName":"vix","SearchVector":null,"TopK":1}`, ser,
			"invalid type: null, expected a sequence at line 1 column 59"},
		{"null TopK", `{"TableName":"nosuch","IndexName":"vix","SearchVector":[{"N":"1"}],"TopK":null}`, ser,
			"invalid type: null, expected i32 at line 1 column 78"},
		{"null map", `{"TableName":"nosuch","IndexName":"vix","ExpressionAttributeValues":null,"SearchVector":[{"N":"1"}],"TopK":1}`, ser,
			"invalid type: null, expected a map at line 1 column 72"},
		{"on another line", "{\"TableName\":\"nosuch\",\n  \"TopK\": null}", ser,
			"invalid type: null, expected i32 at line 2 column 14"},
		{"an unknown member may be null", `{"TableName":"nosuch","IndexName":"vix","SearchVector":[{"N":"1"}],"TopK":1,"Other":null}`,
			"ResourceNotFoundException", "Requested resource not found"},
		{"missing TableName", `{"IndexName":"vix","SearchVector":[{"N":"1"}],"TopK":1}`, val,
			"missing field `TableName` at line 1 column 55"},
		{"missing TableName before a short IndexName", `{"IndexName":"ab","SearchVector":[{"N":"1"}],"TopK":1}`, val,
			"missing field `TableName` at line 1 column 54"},
		{"a null before the missing TableName", `{"IndexName":"vix","TopK":null}`, ser,
			"invalid type: null, expected i32 at line 1 column 30"},
		{"a syntax error wins", `{"IndexName":null,`, ser, ""},
	} {
		status, out := e.Send("SearchVectors", tc.body)
		require.Equal(t, 400, status, "%s: %s", tc.name, out)
		typ, msg := testkit.ErrorOf(out)
		require.Equal(t, tc.typ, typ, tc.name)
		require.Equal(t, tc.msg, msg, tc.name)
	}
}

// FuzzSearchVectorsDecoder: any body decodes or is refused with an API
// error, never a panic; a body the strict checks pass and JSON accepts as
// an object decodes as the common decoder decodes it.
func FuzzSearchVectorsDecoder(f *testing.F) {
	for _, s := range []string{
		`{"TableName":"t","IndexName":"vix","SearchVector":[{"N":"1"}],"TopK":1}`,
		`{"TableName":null}`,
		`{"IndexName":"vix"}`,
		"{\n\"TopK\":null}",
		`{"TableName":"t","ExpressionAttributeValues":{":v":{"S":"x"}},"Other":null}`,
		`{"TableName":"t"} {}`,
		`[]`, `null`, `{`, `{"TableName":"t","TableName":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var in SearchVectorsInput
		err := in.UnmarshalJSON(body)
		if err != nil {
			_, ok := apierr.Classify(err)
			require.True(t, ok, "not an API error: %v", err)
			return
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(body, &m) == nil && m != nil {
			_, has := m["TableName"]
			require.True(t, has, "accepted without a TableName: %q", body)
		}
	})
}
