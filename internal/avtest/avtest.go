// Package avtest decodes DynamoDB JSON ({"N":"1"}, {"L":[...]}, items) into
// storage values for tests of the packages that may not import the
// emulator's wire codec (expr, partiql/lower). It is for tests only: input
// it cannot read fails the test.
package avtest

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Value decodes one attribute value.
func Value(t testing.TB, raw []byte) storage.Value {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || len(m) != 1 {
		t.Fatalf("avtest: bad attribute value %s: %v", raw, err)
	}
	for k, v := range m {
		switch k {
		case "S":
			return storage.S(str(t, v))
		case "N":
			return storage.N(storage.MustNumber(str(t, v)))
		case "B":
			return storage.B(bytes(t, str(t, v)))
		case "BOOL":
			var b bool
			must(t, json.Unmarshal(v, &b), v)
			return storage.Bool(b)
		case "NULL":
			return storage.Null()
		case "L":
			var l []json.RawMessage
			must(t, json.Unmarshal(v, &l), v)
			out := make([]storage.Value, len(l))
			for i, e := range l {
				out[i] = Value(t, e)
			}
			return storage.L(out)
		case "M":
			return storage.M(Item(t, v))
		case "SS", "NS", "BS":
			var l []string
			must(t, json.Unmarshal(v, &l), v)
			kind := storage.KindFromString(k)
			for i := range l {
				switch kind {
				case storage.KindNS:
					l[i] = string(storage.MustNumber(l[i]))
				case storage.KindBS:
					l[i] = string(bytes(t, l[i]))
				}
			}
			return storage.SetOf(kind, l)
		}
	}
	t.Fatalf("avtest: bad attribute value %s", raw)
	return storage.Value{}
}

// Item decodes a map of attribute values (an item, or expression attribute
// values); empty input is a nil item.
func Item(t testing.TB, raw []byte) storage.Item {
	t.Helper()
	if len(raw) == 0 {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("avtest: bad item %s: %v", raw, err)
	}
	out := storage.Item{}
	for k, v := range m {
		out[k] = Value(t, v)
	}
	return out
}

func str(t testing.TB, raw json.RawMessage) string {
	t.Helper()
	var s string
	must(t, json.Unmarshal(raw, &s), raw)
	return s
}

func bytes(t testing.TB, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	must(t, err, []byte(s))
	return b
}

func must(t testing.TB, err error, raw []byte) {
	t.Helper()
	if err != nil {
		t.Fatalf("avtest: bad attribute value %s: %v", raw, err)
	}
}
