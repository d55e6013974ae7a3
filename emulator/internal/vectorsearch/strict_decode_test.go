package vectorsearch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service"
	"github.com/dynamoemu/dynamoemu/emulator/internal/service/servicetest"
	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
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
		// A list over 400 KB, of which the decoder keeps only the elements
		// that prove it over: its lines are counted all the same.
		{"after a list over 400 KB", `{"SearchVector":[{"L":[` + strings.Repeat(`{"S":"xxxxxxxxxx"},`+"\n", 59_999) +
			`{"S":"xxxxxxxxxx"}]}],"IndexName":null}`, ser, "invalid type: null, expected a string at line 60000 column 38"},
		{"a value that ends the reading", `{"SearchVector":[{"B":"!"}],` + "\n" + `"IndexName":"vix","TopK":null}`, ser,
			"invalid type: null, expected i32 at line 2 column 29"},
	} {
		status, out := e.Send("SearchVectors", tc.body)
		require.Equal(t, 400, status, "%s: %s", tc.name, out)
		typ, msg := testkit.ErrorOf(out)
		require.Equal(t, tc.typ, typ, tc.name)
		require.Equal(t, tc.msg, msg, tc.name)
	}
}

// FuzzSearchVectorsDecoder: any body decodes or is refused with an API
// error, never a panic, and gets the answer of the simple version
// (strictReference: the strict checks on the whole body, then the common
// decoder), the request it decodes included.
func FuzzSearchVectorsDecoder(f *testing.F) {
	for _, s := range []string{
		`{"TableName":"t","IndexName":"vix","SearchVector":[{"N":"1"}],"TopK":1}`,
		`{"TableName":null}`,
		`{"IndexName":"vix"}`,
		"{\n\"TopK\":null}",
		" \n {\"IndexName\":\"vix\",\n\"TopK\":null}",
		`{"TableName":"t","ExpressionAttributeValues":{":v":{"S":"x"}},"Other":null}`,
		`{"TableName":"t"} {}`, `{"TableName":null} x`, `{"TopK":null,`,
		`[]`, `null`, `{`, `{"TableName":"t","TableName":null}`, `{"Table\u004eame":null}`,
		`{"SearchVector":[{"B":"!"}],"TopK":null}`, `{"SearchVector":[{"B":"!"}],"TableName":"t"}`,
		`{"SearchVector":[{"N":"x"}],"TopK":"1"}`, `{"TopK":"1","IndexName":5}`, `{"TableName":5}`,
		`{"TableName":"t","ExpressionAttributeNames":{"#a":null},"ProjectionExpression":null}`,
		`{"TableName":"t","SearchVector":[{"L":[{"N":"1"},{"S":"\ud800"}]}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var in SearchVectorsInput
		err := wire.DecodeRequest(body, &in)
		if err != nil {
			_, ok := apierr.Classify(err)
			require.True(t, ok, "not an API error: %v", err)
		}
		want, wantErr := strictReference(body)
		if wantErr != nil || err != nil {
			require.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(err), "%q", body)
			wantClass, _ := apierr.Classify(wantErr)
			class, _ := apierr.Classify(err)
			require.Equal(t, wantClass, class, "%q", body)
			return
		}
		require.Equal(t, want, in, "%q", body)
	})
}

// plainInput is SearchVectorsInput without its strict tags: what the
// common decoder reads.
type plainInput struct {
	TableName                 *string               `json:"TableName"`
	IndexName                 *string               `json:"IndexName"`
	SearchVector              []wire.AttributeValue `json:"SearchVector"`
	TopK                      *int64                `json:"TopK"`
	SearchConditionExpression *string               `json:"SearchConditionExpression"`
	ExpressionAttributeNames  wire.ExpressionNames  `json:"ExpressionAttributeNames"`
	ExpressionAttributeValues wire.ExpressionValues `json:"ExpressionAttributeValues"`
	ProjectionExpression      *string               `json:"ProjectionExpression"`
	ReturnConsumedCapacity    string                `json:"ReturnConsumedCapacity"`
}

// strictReference is the simple version of SearchVectors' reading: a
// body that is not JSON gets the common decoder's answer; else the
// strict checks run on the whole of it (encoding/json's reading, the
// answer if they fail), then the common decoder reads it.
func strictReference(body []byte) (SearchVectorsInput, error) {
	var in plainInput
	if json.Valid(body) && wire.ValidJSONText(body) {
		if err := strictCheck(bytes.TrimLeft(body, " \t\r\n")); err != nil {
			return SearchVectorsInput{}, err
		}
	}
	err := wire.DecodeRequest(body, &in)
	return SearchVectorsInput(in), err
}

// strictCheck returns the strict deserializer's error for the JSON text
// body, opening at its first byte, or nil: a body that is not one JSON
// object is left to the common decoder.
func strictCheck(body []byte) error {
	expected := map[string]string{
		"TableName": "a string", "IndexName": "a string", "SearchConditionExpression": "a string",
		"ProjectionExpression": "a string", "ReturnConsumedCapacity": "a string",
		"SearchVector": "a sequence", "TopK": "i32",
		"ExpressionAttributeNames": "a map", "ExpressionAttributeValues": "a map",
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	hasTable := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		name, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil
		}
		what, known := expected[name]
		if !known {
			continue
		}
		if string(raw) == "null" {
			line, col := place(body, int(dec.InputOffset()))
			return apierr.Serialization(fmt.Sprintf("invalid type: null, expected %s at line %d column %d", what, line, col))
		}
		hasTable = hasTable || name == "TableName"
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil
	}
	if !hasTable {
		line, col := place(body, int(dec.InputOffset()))
		return apierr.Validation(fmt.Sprintf("missing field `TableName` at line %d column %d", line, col))
	}
	return nil
}

// place returns the 1-based line of the byte before offset end and its
// column, counted in bytes from the start of its line.
func place(body []byte, end int) (line, col int) {
	end = min(end, len(body))
	line = 1 + bytes.Count(body[:end], []byte{'\n'})
	return line, end - (bytes.LastIndexByte(body[:end], '\n') + 1)
}
