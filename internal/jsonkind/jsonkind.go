package jsonkind

import "bytes"

// Of names the JSON type of a raw value as an error says it: "an
// object", "an array", "a string", "a boolean", "null", "a number", and
// "nothing" for no value. It looks at the first byte after white space
// only; the value is not checked.
func Of(v []byte) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
