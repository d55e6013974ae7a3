package expr

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/avtest"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

func decodeValues(t testing.TB, js string) map[string]storage.Value {
	t.Helper()
	return avtest.Item(t, []byte(js))
}

func decodeItem(t testing.TB, js string) storage.Item {
	t.Helper()
	return avtest.Item(t, []byte(js))
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
