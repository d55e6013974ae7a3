package testkit

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// ErrorType is the error type of an error answer (after '#' in __type;
// "" if none).
func ErrorType(body string) string {
	typ, _ := ErrorOf(body)
	return typ
}

// ErrorOf returns the error type (after '#') and the message ("message"
// or "Message") of an error answer.
func ErrorOf(body string) (typ, msg string) {
	var m map[string]any
	if json.Unmarshal([]byte(body), &m) != nil {
		return "", ""
	}
	typ, _ = m["__type"].(string)
	if i := strings.LastIndexByte(typ, '#'); i >= 0 {
		typ = typ[i+1:]
	}
	if s, ok := m["message"].(string); ok {
		msg = s
	} else {
		msg, _ = m["Message"].(string)
	}
	return typ, msg
}

// JSONEqual reports whether a and b are the same JSON value (member order
// aside).
func JSONEqual(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// MustUnmarshal decodes body into v or fails t.
func MustUnmarshal(t testing.TB, body string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
}
