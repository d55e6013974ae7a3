package partiqlops

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/testkit"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/expr"
	"github.com/dynamoemu/dynamoemu/internal/partiql/lower"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// TestPartiQLColumnsEncoded holds projectColumns (on records) to
// lower.Select.Project (on decoded items): random items, random SELECT
// lists of nested paths, repeated names, key attributes.
func TestPartiQLColumnsEncoded(t *testing.T) {
	seed := testkit.ReplaySeed(t)
	r := rand.New(rand.NewPCG(seed, seed))
	ks := storage.KeySchema{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS}, Sort: storage.KeyAttr{Name: "sk", Kind: storage.KindN}}
	tbl := storage.NewTable(ks)
	var value func(depth int) storage.Value
	value = func(depth int) storage.Value {
		switch n := r.IntN(6); {
		case n == 0 && depth < 3:
			m := map[string]storage.Value{}
			for _, k := range []string{"a", "b", "c"} {
				if r.IntN(2) == 0 {
					m[k] = value(depth + 1)
				}
			}
			return storage.M(m)
		case n == 1 && depth < 3:
			l := make([]storage.Value, r.IntN(3))
			for i := range l {
				l[i] = value(depth + 1)
			}
			return storage.L(l)
		case n == 2:
			return storage.N(storage.MustNumber(strconv.Itoa(r.IntN(100))))
		case n == 3:
			return storage.SS([]string{"x", "y"})
		}
		return storage.S("s" + strconv.Itoa(r.IntN(10)))
	}
	var encs []storage.EncodedItem
	for i := range 50 {
		k := storage.Key{Partition: storage.S("p"), Sort: storage.N(storage.MustNumber(strconv.Itoa(i)))}
		it := ks.KeyItem(k)
		for _, n := range []string{"a", "b", "c", "d"} {
			if r.IntN(3) > 0 {
				it[n] = value(0)
			}
		}
		if _, err := tbl.Put(k, it); err != nil {
			t.Fatal(err)
		}
		e, _ := tbl.GetEncoded(k)
		encs = append(encs, e)
	}
	names := []string{"a", "b", "c", "d", "pk", "sk", "zz"}
	for range 300 {
		var cols []lower.Column
		for range 1 + r.IntN(4) {
			p := expr.Path{{Name: testkit.Pick(r, names...)}}
			for range r.IntN(3) {
				if r.IntN(2) == 0 {
					p = append(p, expr.PathStep{IsIndex: true, Index: r.IntN(3)})
				} else {
					p = append(p, expr.PathStep{Name: testkit.Pick(r, "a", "b", "c")})
				}
			}
			name := p[len(p)-1].Name
			if name == "" || r.IntN(4) == 0 {
				name = testkit.Pick(r, names...)
			}
			cols = append(cols, lower.Column{Path: p, Name: name})
		}
		sel := &lower.Select{Columns: cols}
		got := projectColumns(cols, encs)
		for i, e := range encs {
			want := wire.AppendItem(nil, sel.Project(e.Item()))
			if g := wire.AppendStoredItem(nil, got[i]); string(g) != string(want) {
				t.Fatalf("columns %v of item %s: got %s, want %s", cols, wire.AppendItem(nil, e.Item()), g, want)
			}
		}
	}
}
