package conventions

import (
	"maps"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

func TestLatestRule(t *testing.T) {
	// The seed's table: partition key documentVersion, no sort key.
	p := Policy{Latest: "latest"}
	names := Key{PK: "documentVersion"}
	doc := func(key, content string) Write {
		return Write{Table: "docs", Policy: p, Names: names, Key: Key{PK: key},
			New: storage.Item{"documentVersion": s(key), "content": s(content)}}
	}
	latest := func(ptr, content string) Write {
		w := doc("latest", content)
		w.New["actualVersion"] = s(ptr)
		return w
	}
	overwrite := func(w Write) Write { w.Old = storage.Item{}; return w }
	update := func(w Write) Write { w.Op = OpUpdate; w.Old = storage.Item{}; return w }
	other := func(w Write) Write { w.Table = "other"; return w }

	// The mbc shape: pk and sk, the latest item at sk "latest" of the same
	// partition.
	pq := Policy{Roles: RoleKeys, Latest: "latest"}
	row := func(sk, content string) Write {
		return Write{Table: "orders", Policy: pq, Key: Key{PK: "ORDER#t1", SK: sk},
			New: storage.Item{"pk": s("ORDER#t1"), "sk": s(sk), "content": s(content)}}
	}
	latestRow := func(pk, ptr, content string) Write {
		w := row("latest", content)
		w.Key.PK = pk
		w.New["actualVersion"] = s(ptr)
		return w
	}

	// A stored document: latest points at v2, which holds "b".
	stored := map[string]storage.Item{
		"v1":     {"documentVersion": s("v1"), "content": s("a")},
		"v2":     {"documentVersion": s("v2"), "content": s("b")},
		"latest": {"documentVersion": s("latest"), "content": s("b"), "actualVersion": s("v2")},
	}
	withStore := func(w Write) Write {
		w.Get = func(pk, sk string) storage.Item { return stored[pk] }
		return w
	}
	cond := func(w Write, expr string, names map[string]string) Write {
		w.Condition, w.ConditionNames = expr, names
		return w
	}
	way := func(w Write, lw LatestWay) Write { w.Policy.LatestWrite = lw; return w }
	unchanged := func(w Write) Write { w.Old = maps.Clone(w.New); return w }

	tests := []struct {
		name string
		ws   []Write
		want int
	}{
		// The transaction way.
		{"pass", []Write{doc("v2", "b"), latest("v2", "b")}, 0},
		{"pass latest first", []Write{latest("v2", "b"), doc("v2", "b")}, 0},
		{"pass transaction only", []Write{way(doc("v3", "c"), LatestTransaction), way(latest("v3", "c"), LatestTransaction)}, 0},
		{"latest content differs", []Write{doc("v2", "b"), latest("v2", "a")}, 1},
		{"latest has an extra attribute", []Write{doc("v2", "b"), func() Write {
			w := latest("v2", "b")
			w.New["extra"] = s("x")
			return w
		}()}, 1},
		{"latest without pointer", []Write{doc("v2", "b"), doc("latest", "b")}, 1},
		{"sort key pass", []Write{row("01HX", "b"), latestRow("ORDER#t1", "01HX", "b")}, 0},
		{"transaction only: new version alone", []Write{way(doc("v2", "b"), LatestTransaction)}, 1},
		{"transaction only: latest alone", []Write{way(cond(latest("v2", "b"), "actualVersion = :seen", nil), LatestTransaction)}, 1},
		{"transaction only: latest points elsewhere", []Write{way(doc("v2", "b"), LatestTransaction), way(latest("v3", "b"), LatestTransaction)}, 2},
		{"transaction only: latest in another table", []Write{way(doc("v2", "b"), LatestTransaction), other(way(latest("v2", "b"), LatestTransaction))}, 2},
		{"transaction only: sort key other partition", []Write{way(row("01HX", "b"), LatestTransaction), way(latestRow("ORDER#t2", "01HX", "b"), LatestTransaction)}, 2},
		{"conditional only: a transaction without the condition", []Write{way(doc("v3", "c"), LatestConditional), way(latest("v3", "c"), LatestConditional)}, 1},
		{"conditional only: a transaction with it", []Write{way(doc("v3", "c"), LatestConditional), way(cond(latest("v3", "c"), "actualVersion = :seen", nil), LatestConditional)}, 0},

		// The conditional way: the version first, alone; then the latest
		// item, conditioned on where it pointed.
		{"conditional: new version alone", []Write{doc("v3", "c")}, 0},
		{"conditional: latest pinned by its pointer", []Write{withStore(cond(update(latest("v2", "b")), "actualVersion = :seen", nil))}, 0},
		{"conditional: pinned through a name placeholder", []Write{withStore(cond(update(latest("v2", "b")), "#p = :seen AND attribute_exists(content)", map[string]string{"#p": "actualVersion"}))}, 0},
		{"conditional: pinned, value first, in parentheses", []Write{withStore(cond(update(latest("v2", "b")), "(:seen = actualVersion)", nil))}, 0},
		{"conditional: the first latest item", []Write{withStore(cond(latest("v2", "b"), "attribute_not_exists(documentVersion)", nil))}, 0},
		{"conditional: no condition", []Write{withStore(update(latest("v2", "b")))}, 1},
		{"conditional: a condition that does not pin it", []Write{withStore(cond(update(latest("v2", "b")), "attribute_exists(content)", nil))}, 1},
		{"conditional: an OR pins nothing", []Write{withStore(cond(update(latest("v2", "b")), "actualVersion = :seen OR attribute_exists(content)", nil))}, 1},
		{"conditional: another attribute compared", []Write{withStore(cond(update(latest("v2", "b")), "content = :seen", nil))}, 1},
		{"conditional: points at a version the table lacks", []Write{withStore(cond(update(latest("v9", "b")), "actualVersion = :seen", nil))}, 1},
		{"conditional: does not copy its version", []Write{withStore(cond(update(latest("v1", "b")), "actualVersion = :seen", nil))}, 1},
		{"conditional: latest in another table", []Write{other(latest("v2", "b"))}, 1},
		{"conditional: sort key other partition", []Write{row("01HX", "b"), latestRow("ORDER#t2", "01HX", "b")}, 1},

		// Versions the latest item points at are not rewritten.
		{"pass overwrite of an old version alone", []Write{withStore(overwrite(doc("v1", "a2")))}, 0},
		{"pass update of a version alone, no store", []Write{update(doc("v1", "a"))}, 0},
		{"pass retried write of the pointed version", []Write{withStore(unchanged(doc("v2", "b")))}, 0},
		{"rewrite of the version latest points at", []Write{withStore(overwrite(doc("v2", "b2")))}, 1},
		{"update of the version latest points at", []Write{withStore(update(doc("v2", "b2")))}, 1},
		{"rewrite of an existing version with latest", []Write{withStore(overwrite(doc("v1", "a2"))), withStore(latest("v1", "a2"))}, 1},
		{"rewrite of the pointed version with latest", []Write{withStore(overwrite(doc("v2", "b2"))), withStore(latest("v2", "b2"))}, 1},
		{"rewrite of it while latest moves on", []Write{withStore(overwrite(doc("v2", "b2"))), doc("v3", "c"), latest("v3", "c")}, 0},

		// Deletes.
		{"pass delete", []Write{{Table: "docs", Policy: p, Op: OpDelete, Key: Key{PK: "v1"}}}, 0},
		{"pass delete of an old version", []Write{del(p, "v1", "v2")}, 0},
		{"delete of the version latest points at", []Write{del(p, "v2", "v2")}, 1},
		{"delete of it while latest moves back", []Write{del(p, "v2", "v2"), latest("v1", "a"), unchanged(doc("v1", "a"))}, 0},
		{"delete of it with latest", []Write{del(p, "v2", "v2"), {Table: "docs", Policy: p, Op: OpDelete, Key: Key{PK: "latest"}, Old: storage.Item{}}}, 0},
		{"delete of latest itself, pointing nowhere", []Write{del(p, "latest", "v2")}, 0},
		{"delete of latest itself while its version stays", []Write{latestGone(p, "v2")}, 1},
		{"delete of latest with the version it points at", []Write{latestGone(p, "v2"), del(p, "v2", "v2")}, 0},
		{"delete of the latest row (sort key) while its version stays", []Write{func() Write {
			w := delRow(pq, "ORDER#t1", "latest", "")
			w.Old = storage.Item{"actualVersion": s("01HX")}
			return w
		}()}, 1},
		{"delete of nothing", []Write{func() Write { w := del(p, "v2", "v2"); w.Old = nil; return w }()}, 0},
		{"delete without Get", []Write{func() Write { w := del(p, "v2", "v2"); w.Get = nil; return w }()}, 0},
		{"sort key delete pointed at", []Write{delRow(pq, "ORDER#t1", "01HX", "01HX")}, 1},
		{"sort key delete other partition's pointer", []Write{delRow(pq, "ORDER#t2", "01HX", "")}, 0},
		{"off mode", []Write{func() Write { w := way(doc("v2", "b"), LatestTransaction); w.Policy.Mode = ModeOff; return w }()}, 0},
	}
	r, _ := New(Config{})
	for _, tt := range tests {
		vs := r.CheckTransaction(tt.ws)
		var l1 []Violation
		for _, v := range vs {
			if v.Rule == "L1" {
				l1 = append(l1, v)
			}
		}
		require.Len(t, l1, tt.want, "%s: %v", tt.name, l1)
	}
	// The other rules still run per write.
	vs := r.CheckTransaction([]Write{row("a@b", "x"), latestRow("ORDER#t1", "a@b", "x")})
	var rules []string
	for _, v := range vs {
		rules = append(rules, v.Rule)
	}
	require.Equal(t, []string{"B1"}, rules, "rules with the latest pattern")
}

// del is a delete of the item with partition key key from the seed's
// table, whose stored latest item points at ptr.
func del(p Policy, key, ptr string) Write {
	return Write{Table: "docs", Policy: p, Op: OpDelete, Key: Key{PK: key}, Old: storage.Item{},
		Get: func(pk, sk string) storage.Item {
			if pk == "latest" && sk == "" {
				return storage.Item{"documentVersion": s("latest"), "actualVersion": s(ptr)}
			}
			return nil
		}}
}

// latestGone is a delete of the seed table's latest item, which points
// at ptr.
func latestGone(p Policy, ptr string) Write {
	return Write{Table: "docs", Policy: p, Op: OpDelete, Key: Key{PK: "latest"},
		Old: storage.Item{"documentVersion": s("latest"), "actualVersion": s(ptr)}}
}

// delRow is a delete of pk/sk from a table keyed pk and sk whose latest
// item of ORDER#t1 points at ptr.
func delRow(p Policy, pk, sk, ptr string) Write {
	return Write{Table: "orders", Policy: p, Op: OpDelete, Key: Key{PK: pk, SK: sk}, Old: storage.Item{},
		Get: func(gpk, gsk string) storage.Item {
			if gpk == "ORDER#t1" && gsk == "latest" && ptr != "" {
				return storage.Item{"actualVersion": s(ptr)}
			}
			return nil
		}}
}

func TestLatestDeleteMessage(t *testing.T) {
	vs := New0(t).CheckWrite(del(Policy{Latest: "latest"}, "v2", "v2"))
	if len(vs) != 1 {
		t.Fatalf("got %v, want one violation", vs)
	}
	want := `[conventions L1] DeleteItem deletes partition key "v2", which the latest item (partition key "latest") points at`
	if got := vs[0].Error(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestVersionOrder(t *testing.T) {
	cases := []struct {
		a, b       string
		order      int
		comparable bool
	}{
		{"v1", "v2", -1, true},
		{"v10", "v2", 1, true},
		{"v02", "v2", 0, true},
		{"2026-11-01", "2026-12-01", -1, true},
		{"2026-11-01T10:00:00Z", "2026-11-01T09:59:59Z", 1, true},
		{"v1", "w1", 0, false},
		{"v1", "v1.1", 0, false},
		{"01HX7MBJK3V9WQBZ7XNDK5ZT2M", "01HX7MBJK3V9WQBZ7XNDK5ZT3N", 0, false},
		{"draft", "final", 0, false},
		{"", "", 0, true},
	}
	for _, tc := range cases {
		order, comparable := versionOrder(tc.a, tc.b)
		if order != tc.order || comparable != tc.comparable {
			t.Errorf("versionOrder(%q, %q) = %d, %v; want %d, %v", tc.a, tc.b, order, comparable, tc.order, tc.comparable)
		}
	}
}
