package service

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/expr"
)

// The request decoder as it was, on encoding/json: the reference the fuzz
// targets hold DecodeRequest to.

// decodeRequestStd decodes a request body into in. Syntax errors and JSON values
// of the wrong type become SerializationException with AWS's wording; errors
// from the wire types (ValidationException, ...) pass through unchanged.
func decodeRequestStd(body []byte, in any) error {
	if len(body) == 0 {
		// The SDKs always send at least {}; AWS treats an empty body as {}.
		return nil
	}
	if !wire.ValidJSONText(body) {
		// encoding/json replaces such text with U+FFFD; AWS refuses it
		// (wire_text.go).
		return apierr.Serialization("")
	}
	err := unmarshalStd(body, in)
	if err == nil {
		return nil
	}
	if _, ok := apierr.Classify(err); ok {
		return err
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return apierr.Serialization(typeErrorMessage(te, body))
	}
	return apierr.Serialization("")
}

// queryInputStd is QueryInput with KeyConditions the map it was before it
// was kept as a list (wire.KeyConditions).
type queryInputStd struct {
	QueryInput
	KeyConditions   map[string]Condition `json:"KeyConditions"`
	AttributesToGet []string             `json:"AttributesToGet"`
}

// The reads with AttributesToGet the []string it was before it was kept
// as offsets into the body (expr.NameList).
type (
	getItemInputStd struct {
		GetItemInput
		AttributesToGet []string `json:"AttributesToGet"`
	}
	scanInputStd struct {
		ScanInput
		AttributesToGet []string `json:"AttributesToGet"`
	}
)

// sameNameLists makes the AttributesToGet of a read (in), which may be
// offsets into a body, the same list of names as strings, so that
// reflect.DeepEqual compares the names.
func sameNameLists(in any) {
	switch q := in.(type) {
	case *GetItemInput:
		q.AttributesToGet = expr.NameListOf(q.AttributesToGet.Names())
	case *QueryInput:
		q.AttributesToGet = expr.NameListOf(q.AttributesToGet.Names())
	case *ScanInput:
		q.AttributesToGet = expr.NameListOf(q.AttributesToGet.Names())
	}
}

// The write inputs with Expected the map it was before it was kept as a
// list (expr.LegacyExpected).
type (
	putItemInputStd struct {
		PutItemInput
		Expected map[string]ExpectedAttributeValue `json:"Expected"`
	}
	updateItemInputStd struct {
		UpdateItemInput
		Expected map[string]ExpectedAttributeValue `json:"Expected"`
	}
	deleteItemInputStd struct {
		DeleteItemInput
		Expected map[string]ExpectedAttributeValue `json:"Expected"`
	}
)

// unmarshalStd is json.Unmarshal, with a Query's KeyConditions decoded as
// a map and made the list its decoder makes: by name, an absent operator
// "", a write's Expected decoded as a map and made its list, and a
// read's AttributesToGet decoded as a []string and made a NameList.
func unmarshalStd(body []byte, in any) error {
	switch q := in.(type) {
	case *PutItemInput:
		std := putItemInputStd{PutItemInput: *q}
		err := json.Unmarshal(body, &std)
		*q = std.PutItemInput
		q.Expected = expectedOfMap(std.Expected)
		return err
	case *UpdateItemInput:
		std := updateItemInputStd{UpdateItemInput: *q}
		err := json.Unmarshal(body, &std)
		*q = std.UpdateItemInput
		q.Expected = expectedOfMap(std.Expected)
		return err
	case *DeleteItemInput:
		std := deleteItemInputStd{DeleteItemInput: *q}
		err := json.Unmarshal(body, &std)
		*q = std.DeleteItemInput
		q.Expected = expectedOfMap(std.Expected)
		return err
	case *GetItemInput:
		std := getItemInputStd{GetItemInput: *q}
		err := json.Unmarshal(body, &std)
		*q = std.GetItemInput
		q.AttributesToGet = expr.NameListOf(std.AttributesToGet)
		return err
	case *ScanInput:
		std := scanInputStd{ScanInput: *q}
		err := json.Unmarshal(body, &std)
		*q = std.ScanInput
		q.AttributesToGet = expr.NameListOf(std.AttributesToGet)
		return err
	}
	q, ok := in.(*QueryInput)
	if !ok {
		return json.Unmarshal(body, in)
	}
	std := queryInputStd{QueryInput: *q}
	err := json.Unmarshal(body, &std)
	*q = std.QueryInput
	q.AttributesToGet = expr.NameListOf(std.AttributesToGet)
	if std.KeyConditions != nil {
		q.KeyConditions = wire.KeyConditions(legacyConditions(std.KeyConditions))
		slices.SortFunc(q.KeyConditions, func(a, b expr.NamedCondition) int { return strings.Compare(a.Name, b.Name) })
	}
	return err
}

// typeErrorMessage words a JSON type mismatch as AWS's request layer does
// ("NUMBER_VALUE cannot be converted to String"). body is the request body,
// to tell true from false.
func typeErrorMessage(te *json.UnmarshalTypeError, body []byte) string {
	t := te.Type
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var token string
	switch te.Value {
	case "array":
		return apierr.MsgSerListStart
	case "object":
		return apierr.MsgSerMapStart
	case "string":
		token = "STRING_VALUE"
	case "bool":
		token = "FALSE_VALUE"
		if te.Offset >= 4 && te.Offset <= int64(len(body)) && string(body[te.Offset-4:te.Offset]) == "true" {
			token = "TRUE_VALUE"
		}
	default:
		token = "NUMBER_VALUE"
	}
	switch t.Kind() {
	case reflect.String:
		return token + " cannot be converted to String"
	case reflect.Bool:
		return token + " cannot be converted to Boolean"
	case reflect.Int, reflect.Int32, reflect.Int16, reflect.Int8, reflect.Uint, reflect.Uint32, reflect.Uint16, reflect.Uint8:
		return token + " cannot be converted to Integer"
	case reflect.Int64, reflect.Uint64:
		return token + " cannot be converted to Long"
	case reflect.Float32, reflect.Float64:
		return token + " cannot be converted to Double"
	case reflect.Slice, reflect.Array:
		return apierr.MsgSerExpectedList
	case reflect.Map:
		return apierr.MsgSerExpectedMap
	}
	return apierr.MsgSerExpectedNull
}
