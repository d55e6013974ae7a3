package storage

import (
	"maps"
	"strings"
	"testing"
)

// TestIndexLeavesOutUnindexable: items whose index key values could not be
// written (empty strings, strings or binaries over the key limits, the
// wrong kind) are left out of an index, by a backfill and by a write alike.
func TestIndexLeavesOutUnindexable(t *testing.T) {
	t.Parallel()
	tbl := newTable(t, schemaS)
	items := map[string]Item{
		"ok":       {"x": S("x"), "y": S("y")},
		"empty":    {"x": S(""), "y": S("y")},
		"x2048":    {"x": S(strings.Repeat("x", 2048)), "y": S("y")},
		"x2049":    {"x": S(strings.Repeat("x", 2049)), "y": S("y")},
		"sort1024": {"x": S("x"), "y": B(make([]byte, 1024))},
		"sort1025": {"x": S("x"), "y": B(make([]byte, 1025))},
		"number":   {"x": N("1"), "y": S("y")},
	}
	put := func(name string, it Item) {
		it = maps.Clone(it)
		it["pk"] = S(name)
		if _, err := tbl.Put(Key{Partition: S(name)}, it); err != nil {
			t.Fatal(err)
		}
	}
	put("ok", items["ok"])
	put("empty", items["empty"])
	put("x2048", items["x2048"])
	put("x2049", items["x2049"])
	def := IndexDef{Name: "byX", Schema: IndexSchema{Partition: []KeyAttr{{"x", KindS}}}}
	if err := tbl.AddIndex(def); err != nil {
		t.Fatal(err)
	}
	byXY := IndexDef{Name: "byXY", Schema: IndexSchema{Partition: []KeyAttr{{"x", KindS}}, Sort: []KeyAttr{{"y", KindB}}}}
	if err := tbl.AddIndex(byXY); err != nil {
		t.Fatal(err)
	}
	put("sort1024", items["sort1024"])
	put("sort1025", items["sort1025"])
	put("number", items["number"])
	for _, tc := range []struct {
		index string
		want  int
	}{
		{"byX", 4},  // ok, x2048, sort1024, sort1025
		{"byXY", 1}, // sort1024
	} {
		if got, _, err := tbl.IndexStats(tc.index); err != nil || got != tc.want {
			t.Errorf("%s: %d entries (%v), want %d", tc.index, got, err, tc.want)
		}
	}
}
