package mcp

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// DynamoDB JSON attribute values decoded into storage's values, for what
// the server works out itself rather than asks the engine: the key
// values a design matches, an item's size for a write's capacity. The
// engine's own decoder (emulator/internal/wire) is the emulator's; this
// one only has to read what a valid request holds, and says what is
// wrong with what it cannot read.

// maxValueDepth bounds the nesting of lists and maps, as DynamoDB's 32.
const maxValueDepth = 32

// valueOf decodes one attribute value ({"S": "x"}, {"N": "1.5"}, ...).
func valueOf(raw json.RawMessage) (storage.Value, error) {
	return valueAt(raw, 0)
}

// valueAt decodes an attribute value nested depth lists and maps deep.
func valueAt(raw json.RawMessage, depth int) (storage.Value, error) {
	if depth > maxValueDepth {
		return storage.Value{}, fmt.Errorf("an attribute value nested more than %d deep", maxValueDepth)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || len(m) != 1 {
		return storage.Value{}, fmt.Errorf("an attribute value is an object of one type, such as {\"S\": \"x\"}, not %s", clip(raw))
	}
	for typ, v := range m {
		return typedValue(typ, v, depth)
	}
	panic("unreachable")
}

// typedValue decodes v, the value of an attribute value of type typ.
func typedValue(typ string, v json.RawMessage, depth int) (storage.Value, error) {
	switch typ {
	case "S":
		return stringValue(v)
	case "N":
		return numberValue(v)
	case "B":
		b, err := bytesOf(v)
		return storage.B(b), err
	case "BOOL":
		return boolValue(v)
	case "NULL":
		return storage.Null(), nil
	case "L":
		return listValue(v, depth)
	case "M":
		it, err := itemAt(v, depth+1)
		return storage.M(it), err
	case "SS":
		return stringSetValue(v)
	case "NS":
		return numberSetValue(v)
	case "BS":
		return binarySetValue(v)
	}
	return storage.Value{}, fmt.Errorf("unknown attribute value type %q (S, N, B, BOOL, NULL, L, M, SS, NS, BS)", typ)
}

// stringValue decodes an S value.
func stringValue(v json.RawMessage) (storage.Value, error) {
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return storage.Value{}, fmt.Errorf("an S value takes a string, not %s", clip(v))
	}
	return storage.S(s), nil
}

// numberValue decodes an N value.
func numberValue(v json.RawMessage) (storage.Value, error) {
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return storage.Value{}, fmt.Errorf("an N value takes a number as a string, not %s", clip(v))
	}
	n, err := storage.ParseNumber(s)
	if err != nil {
		return storage.Value{}, err
	}
	return storage.N(n), nil
}

// boolValue decodes a BOOL value.
func boolValue(v json.RawMessage) (storage.Value, error) {
	var b bool
	if err := json.Unmarshal(v, &b); err != nil {
		return storage.Value{}, fmt.Errorf("a BOOL value takes true or false, not %s", clip(v))
	}
	return storage.Bool(b), nil
}

// listValue decodes an L value whose list is depth deep: its elements
// are one deeper.
func listValue(v json.RawMessage, depth int) (storage.Value, error) {
	var elems []json.RawMessage
	if err := json.Unmarshal(v, &elems); err != nil {
		return storage.Value{}, fmt.Errorf("an L value takes an array, not %s", clip(v))
	}
	vals := make([]storage.Value, 0, len(elems))
	for _, e := range elems {
		ev, err := valueAt(e, depth+1)
		if err != nil {
			return storage.Value{}, err
		}
		vals = append(vals, ev)
	}
	return storage.L(vals), nil
}

// stringSetValue decodes an SS value.
func stringSetValue(v json.RawMessage) (storage.Value, error) {
	var ss []string
	if err := json.Unmarshal(v, &ss); err != nil || len(ss) == 0 {
		return storage.Value{}, fmt.Errorf("an SS value takes a non-empty array of strings, not %s", clip(v))
	}
	return storage.SS(ss), nil
}

// numberSetValue decodes an NS value.
func numberSetValue(v json.RawMessage) (storage.Value, error) {
	var ss []string
	if err := json.Unmarshal(v, &ss); err != nil || len(ss) == 0 {
		return storage.Value{}, fmt.Errorf("an NS value takes a non-empty array of numbers as strings, not %s", clip(v))
	}
	ns := make([]storage.Number, 0, len(ss))
	for _, s := range ss {
		n, err := storage.ParseNumber(s)
		if err != nil {
			return storage.Value{}, err
		}
		ns = append(ns, n)
	}
	return storage.NS(ns), nil
}

// binarySetValue decodes a BS value.
func binarySetValue(v json.RawMessage) (storage.Value, error) {
	var bs []json.RawMessage
	if err := json.Unmarshal(v, &bs); err != nil || len(bs) == 0 {
		return storage.Value{}, fmt.Errorf("a BS value takes a non-empty array of base64 strings, not %s", clip(v))
	}
	out := make([][]byte, 0, len(bs))
	for _, e := range bs {
		b, err := bytesOf(e)
		if err != nil {
			return storage.Value{}, err
		}
		out = append(out, b)
	}
	return storage.BS(out), nil
}

// itemOf decodes an item or key: attribute name to value.
func itemOf(raw json.RawMessage) (storage.Item, error) { return itemAt(raw, 0) }

func itemAt(raw json.RawMessage, depth int) (storage.Item, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("an item is an object of attribute names to values, not %s", clip(raw))
	}
	it := make(storage.Item, len(m))
	for name, v := range m {
		val, err := valueAt(v, depth)
		if err != nil {
			return nil, fmt.Errorf("attribute %q: %w", name, err)
		}
		it[name] = val
	}
	return it, nil
}

// bytesOf decodes a base64 string.
func bytesOf(raw json.RawMessage) ([]byte, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("a B value takes a base64 string, not %s", clip(raw))
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("a B value takes a base64 string: %v", err)
	}
	return b, nil
}

// clip shortens raw JSON for a message.
func clip(raw json.RawMessage) string {
	r := []rune(string(bytes.TrimSpace(raw)))
	if len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return string(r)
}
