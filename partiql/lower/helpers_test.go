package lower

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/storage"
)

// decodeAV turns DynamoDB JSON ({"N":"1"}, {"L":[...]}) into a Value.
func decodeAV(t testing.TB, raw json.RawMessage) storage.Value {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || len(m) != 1 {
		t.Fatalf("bad attribute value %s: %v", raw, err)
	}
	for k, v := range m {
		switch k {
		case "S":
			var s string
			json.Unmarshal(v, &s)
			return storage.S(s)
		case "N":
			var s string
			json.Unmarshal(v, &s)
			return storage.N(storage.MustNumber(s))
		case "B":
			var s string
			json.Unmarshal(v, &s)
			b, _ := base64.StdEncoding.DecodeString(s)
			return storage.B(b)
		case "BOOL":
			var b bool
			json.Unmarshal(v, &b)
			return storage.Bool(b)
		case "NULL":
			return storage.Null()
		case "L":
			var l []json.RawMessage
			json.Unmarshal(v, &l)
			out := make([]storage.Value, len(l))
			for i, e := range l {
				out[i] = decodeAV(t, e)
			}
			return storage.L(out)
		case "M":
			var mm map[string]json.RawMessage
			json.Unmarshal(v, &mm)
			out := map[string]storage.Value{}
			for k, e := range mm {
				out[k] = decodeAV(t, e)
			}
			return storage.M(out)
		case "SS", "NS", "BS":
			var l []string
			json.Unmarshal(v, &l)
			switch k {
			case "SS":
				return storage.SS(l)
			case "NS":
				ns := make([]storage.Number, len(l))
				for i, s := range l {
					ns[i] = storage.MustNumber(s)
				}
				return storage.NS(ns)
			}
			bs := make([][]byte, len(l))
			for i, s := range l {
				bs[i], _ = base64.StdEncoding.DecodeString(s)
			}
			return storage.BS(bs)
		}
	}
	t.Fatalf("bad attribute value %s", raw)
	return storage.Value{}
}

func decodeItem(t testing.TB, raw json.RawMessage) storage.Item {
	t.Helper()
	if len(raw) == 0 {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("bad item %s: %v", raw, err)
	}
	out := storage.Item{}
	for k, v := range m {
		out[k] = decodeAV(t, v)
	}
	return out
}

// render prints a value canonically (maps by sorted key, sets sorted).
func render(v storage.Value) string {
	switch v.Kind() {
	case storage.KindS, storage.KindN, storage.KindB:
		return v.Kind().String() + ":" + fmt.Sprintf("%q", v.Str())
	case storage.KindBOOL:
		return fmt.Sprint(v.Bool())
	case storage.KindNULL:
		return "NULL"
	case storage.KindL:
		parts := make([]string, 0, v.Len())
		for _, e := range v.List() {
			parts = append(parts, render(e))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case storage.KindM:
		return renderItem(v.Map())
	case storage.KindSS, storage.KindNS, storage.KindBS:
		m := append([]string(nil), v.Members()...)
		sort.Strings(m)
		return v.Kind().String() + fmt.Sprintf("%q", m)
	}
	return "?"
}

func renderItem(it map[string]storage.Value) string {
	if it == nil {
		return "nil"
	}
	keys := make([]string, 0, len(it))
	for k := range it {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + render(it[k])
	}
	return "{" + strings.Join(parts, ",") + "}"
}
