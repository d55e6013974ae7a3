package expr

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
			kind := storage.KindFromString(k)
			for i := range l {
				switch kind {
				case storage.KindNS:
					l[i] = string(storage.MustNumber(l[i]))
				case storage.KindBS:
					b, _ := base64.StdEncoding.DecodeString(l[i])
					l[i] = string(b)
				}
			}
			return storage.SetOf(kind, l)
		}
	}
	return storage.Value{}
}

func decodeValues(t testing.TB, js string) map[string]storage.Value {
	t.Helper()
	if js == "" {
		return nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(js), &raw); err != nil {
		t.Fatalf("bad values %s: %v", js, err)
	}
	out := map[string]storage.Value{}
	for k, v := range raw {
		out[k] = decodeAV(t, v)
	}
	return out
}

func decodeItem(t testing.TB, js string) storage.Item {
	return decodeValues(t, js)
}

// encodeAV renders a Value as DynamoDB JSON with sorted keys and set
// members, for comparisons in tests.
func encodeAV(v storage.Value) string {
	switch v.Kind() {
	case storage.KindS, storage.KindN:
		b, _ := json.Marshal(v.Str())
		return fmt.Sprintf(`{"%s":%s}`, v.Kind(), b)
	case storage.KindB:
		return `{"B":"` + base64.StdEncoding.EncodeToString([]byte(v.Str())) + `"}`
	case storage.KindBOOL:
		return fmt.Sprintf(`{"BOOL":%v}`, v.Bool())
	case storage.KindNULL:
		return `{"NULL":true}`
	case storage.KindL:
		parts := make([]string, v.Len())
		for i, e := range v.List() {
			parts[i] = encodeAV(e)
		}
		return `{"L":[` + strings.Join(parts, ",") + `]}`
	case storage.KindM:
		return `{"M":` + encodeItem(v.Map()) + `}`
	case storage.KindSS, storage.KindNS, storage.KindBS:
		ms := append([]string(nil), v.Members()...)
		if v.Kind() == storage.KindBS {
			for i := range ms {
				ms[i] = base64.StdEncoding.EncodeToString([]byte(ms[i]))
			}
		}
		sort.Strings(ms)
		b, _ := json.Marshal(ms)
		return fmt.Sprintf(`{"%s":%s}`, v.Kind(), b)
	}
	return "INVALID"
}

func encodeItem(item storage.Item) string {
	if item == nil {
		return "null"
	}
	keys := make([]string, 0, len(item))
	for k := range item {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		kb, _ := json.Marshal(k)
		parts[i] = string(kb) + ":" + encodeAV(item[k])
	}
	return "{" + strings.Join(parts, ",") + "}"
}
