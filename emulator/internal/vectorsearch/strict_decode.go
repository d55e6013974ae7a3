package vectorsearch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// SearchVectors' request is read by a strict deserializer before any
// member is validated, unlike the other operations' (AWS's answers as
// recorded by paritysuite/dynamodb-conformance,
// tests/tier3/error-messages/searchVectors.test.ts, eu-west-2 and
// us-east-1, 2026-10-09):
//
//   - an explicit JSON null for a member is a SerializationException
//     "invalid type: null, expected <what> at line L column C", where
//     <what> is "a string", "a sequence" (SearchVector) or "i32" (TopK),
//     and C is the column of the null's last character;
//   - a missing TableName is a ValidationException "missing field
//     `TableName` at line L column C", C the column of the body's closing
//     brace, ahead of every constraint (a too-short IndexName).
//
// The maps' "a map" is the same deserializer's word for a map (not in the
// record); ReturnConsumedCapacity is taken for a string. Line and column
// count from the start of the JSON object (leading blanks of the body
// are not counted). Members the operation does not have are skipped, null
// or not; the rest of the reading is the common decoder's.

// strictExpected is what the deserializer expects of member name, or
// false for a member the operation does not have.
func strictExpected(name string) (string, bool) {
	switch name {
	case "TableName", "IndexName", "SearchConditionExpression", "ProjectionExpression", "ReturnConsumedCapacity":
		return "a string", true
	case "SearchVector":
		return "a sequence", true
	case "TopK":
		return "i32", true
	case "ExpressionAttributeNames", "ExpressionAttributeValues":
		return "a map", true
	}
	return "", false
}

// UnmarshalJSON reads a SearchVectors request: the strict checks, then
// the common decoder.
func (in *SearchVectorsInput) UnmarshalJSON(b []byte) error {
	if err := strictCheck(b); err != nil {
		return err
	}
	type plain SearchVectorsInput // without this method
	return wire.DecodeRequest(b, (*plain)(in))
}

// strictCheck returns the strict deserializer's error for body, or nil.
// A body that is not a JSON object, or not valid JSON, is left to the
// common decoder, whose answer for it wins.
func strictCheck(body []byte) error {
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
		what, known := strictExpected(name)
		if !known {
			continue
		}
		if string(raw) == "null" {
			line, col := place(body, int(dec.InputOffset()))
			return apierr.Serialization(fmt.Sprintf("invalid type: null, expected %s at line %d column %d", what, line, col))
		}
		if name == "TableName" {
			hasTable = true
		}
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil
	}
	end := int(dec.InputOffset())
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil // more after the object: the common decoder's syntax error
	}
	if !hasTable {
		line, col := place(body, end)
		return apierr.Validation(fmt.Sprintf("missing field `TableName` at line %d column %d", line, col))
	}
	return nil
}

// place returns the 1-based line of the byte before offset end and its
// column, counted in bytes from the start of its line (the column of the
// last character read).
func place(body []byte, end int) (line, col int) {
	end = min(end, len(body))
	line = 1 + bytes.Count(body[:end], []byte{'\n'})
	return line, end - (bytes.LastIndexByte(body[:end], '\n') + 1)
}
