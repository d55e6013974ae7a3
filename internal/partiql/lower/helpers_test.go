package lower

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/avtest"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// decodeAV turns DynamoDB JSON ({"N":"1"}, {"L":[...]}) into a Value.
func decodeAV(t testing.TB, raw json.RawMessage) storage.Value {
	t.Helper()
	return avtest.Value(t, raw)
}

func decodeItem(t testing.TB, raw json.RawMessage) storage.Item {
	t.Helper()
	return avtest.Item(t, raw)
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
