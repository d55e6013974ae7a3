package conventions

import (
	"slices"
	"testing"

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

	tests := []struct {
		name string
		ws   []Write
		want int
	}{
		{"pass", []Write{doc("v2", "b"), latest("v2", "b")}, 0},
		{"pass latest first", []Write{latest("v2", "b"), doc("v2", "b")}, 0},
		{"pass overwrite of an old version alone", []Write{overwrite(doc("v1", "a"))}, 0},
		{"pass update of a version alone", []Write{update(doc("v1", "a"))}, 0},
		{"pass delete", []Write{{Table: "docs", Policy: p, Op: OpDelete, Key: Key{PK: "v1"}}}, 0},
		{"pass delete of an old version", []Write{del(p, "v1", "v2")}, 0},
		{"delete of the version latest points at", []Write{del(p, "v2", "v2")}, 1},
		{"delete of it while latest moves back", []Write{del(p, "v2", "v2"), latest("v1", "a"), overwrite(doc("v1", "a"))}, 0},
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
		{"new version alone", []Write{doc("v2", "b")}, 1},
		{"latest alone", []Write{latest("v2", "b")}, 1},
		{"latest points elsewhere", []Write{doc("v2", "b"), latest("v3", "b")}, 2},
		{"latest content differs", []Write{doc("v2", "b"), latest("v2", "a")}, 1},
		{"latest has an extra attribute", []Write{doc("v2", "b"), func() Write {
			w := latest("v2", "b")
			w.New["extra"] = s("x")
			return w
		}()}, 1},
		{"latest without pointer", []Write{doc("v2", "b"), doc("latest", "b")}, 2},
		{"latest in another table", []Write{doc("v2", "b"), other(latest("v2", "b"))}, 2},
		{"off mode", []Write{func() Write { w := doc("v2", "b"); w.Policy.Mode = ModeOff; return w }()}, 0},
		{"sort key pass", []Write{row("01HX", "b"), latestRow("ORDER#t1", "01HX", "b")}, 0},
		{"sort key other partition", []Write{row("01HX", "b"), latestRow("ORDER#t2", "01HX", "b")}, 2},
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
		if len(l1) != tt.want {
			t.Errorf("%s: got %v, want %d L1 violations", tt.name, l1, tt.want)
		}
	}
	// The other rules still run per write.
	vs := r.CheckTransaction([]Write{row("a@b", "x"), latestRow("ORDER#t1", "a@b", "x")})
	var rules []string
	for _, v := range vs {
		rules = append(rules, v.Rule)
	}
	if !slices.Equal(rules, []string{"B1"}) {
		t.Errorf("rules with the latest pattern: got %v, want [B1]", rules)
	}
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
