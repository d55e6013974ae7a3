package persist

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// The workload of the crash and corruption tests: a deterministic
// sequence of operations (op i is drawn from the seed and i alone) that
// runs against a real DB and against a model of it, with the same
// outcome: every operation's effect depends on the state only through
// checks both make alike (does the table exist, does the item). Writes,
// deletes, read-modify-writes, transactions over several tables, table
// create, drop and restore, index add and drop, table and DB metadata.

// wlTables are the table names and the key schema each has when created.
var wlTables = []struct {
	name string
	ks   storage.KeySchema
}{
	{"t0", storage.KeySchema{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS}}},
	{"t1", storage.KeySchema{Partition: storage.KeyAttr{Name: "pk", Kind: storage.KindS}, Sort: storage.KeyAttr{Name: "sk", Kind: storage.KindN}}},
	{"t2", storage.KeySchema{Partition: storage.KeyAttr{Name: "id", Kind: storage.KindN}}},
	{"t3", storage.KeySchema{Partition: storage.KeyAttr{Name: "b", Kind: storage.KindB}, Sort: storage.KeyAttr{Name: "s", Kind: storage.KindS}}},
}

// wlRestored are the names tables are restored under.
var wlRestored = []string{"r0", "r1"}

// wlIndexes are the indexes ops add and drop.
var wlIndexes = []storage.IndexDef{
	{Name: "byG", Schema: storage.IndexSchema{Partition: []storage.KeyAttr{{Name: "g", Kind: storage.KindS}}, Sort: []storage.KeyAttr{{Name: "v", Kind: storage.KindN}}}, Projection: storage.Projection{All: true}},
	{Name: "byH", Schema: storage.IndexSchema{Partition: []storage.KeyAttr{{Name: "h", Kind: storage.KindN}}}},
}

// wlOp is one operation: its kind and the random numbers it uses.
type wlOp struct {
	kind int
	n    [12]int
}

// Op kinds.
const (
	opPut = iota
	opDelete
	opIncrement
	opTx
	opCreate
	opDrop
	opIndex
	opTableMeta
	opDBMeta
	opRestore
)

// genOp returns op i of the workload of seed.
func genOp(seed uint64, i int) wlOp {
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	var op wlOp
	switch x := r.IntN(100); {
	case x < 30:
		op.kind = opPut
	case x < 40:
		op.kind = opDelete
	case x < 50:
		op.kind = opIncrement
	case x < 70:
		op.kind = opTx
	case x < 77:
		op.kind = opCreate
	case x < 80:
		op.kind = opDrop
	case x < 88:
		op.kind = opIndex
	case x < 93:
		op.kind = opTableMeta
	case x < 96:
		op.kind = opDBMeta
	default:
		op.kind = opRestore
	}
	for j := range op.n {
		op.n[j] = r.IntN(1 << 20)
	}
	return op
}

// tableName picks a table name, restored names included.
func tableName(n int) string {
	if n%6 >= len(wlTables) {
		return wlRestored[n%6-len(wlTables)]
	}
	return wlTables[n%6].name
}

// keyOf returns key (a, b) of key schema ks: 6 partitions of 4 items.
func keyOf(ks storage.KeySchema, a, b int) storage.Key {
	val := func(k storage.Kind, n int) storage.Value {
		switch k {
		case storage.KindN:
			return storage.N(storage.MustNumber(fmt.Sprint(n - 2)))
		case storage.KindB:
			return storage.BString(string([]byte{byte(n), 0xff}))
		}
		return storage.S(fmt.Sprintf("p%d", n))
	}
	k := storage.Key{Partition: val(ks.Partition.Kind, a%6)}
	if ks.HasSort() {
		k.Sort = val(ks.Sort.Kind, b%4)
	}
	return k
}

// itemOf returns the item op i writes under key k of key schema ks.
func itemOf(ks storage.KeySchema, k storage.Key, i, n int) storage.Item {
	it := ks.KeyItem(k)
	it["v"] = storage.N(storage.MustNumber(fmt.Sprint(i)))
	if n%3 != 0 {
		it["g"] = storage.S(fmt.Sprintf("g%d", n%3))
	}
	if n%4 == 0 {
		it["h"] = storage.N(storage.MustNumber(fmt.Sprint(n % 5)))
	}
	if n%5 == 0 {
		it["set"] = storage.SS([]string{"x", fmt.Sprint(i)})
	}
	return it
}

// mTable is a table of the model.
type mTable struct {
	id      string
	ks      storage.KeySchema
	indexes []storage.IndexDef
	meta    map[string]string
	items   map[string]storage.Item // by renderKey
}

// model is the workload's model of the DB.
type model struct {
	tables map[string]*mTable
	meta   map[string]string
}

func newModel() *model { return &model{tables: map[string]*mTable{}, meta: map[string]string{}} }

func (m *model) clone() *model {
	c := newModel()
	maps.Copy(c.meta, m.meta)
	for n, t := range m.tables {
		ct := *t
		ct.indexes = slices.Clone(t.indexes)
		ct.meta = maps.Clone(t.meta)
		ct.items = maps.Clone(t.items)
		c.tables[n] = &ct
	}
	return c
}

// apply applies op i to the model.
func (m *model) apply(op wlOp, i int) {
	n := op.n
	t := m.tables[tableName(n[0])]
	switch op.kind {
	case opPut, opDelete, opIncrement:
		if t == nil {
			return
		}
		k := keyOf(t.ks, n[1], n[2])
		rk := renderKey(k)
		switch op.kind {
		case opPut:
			t.items[rk] = itemOf(t.ks, k, i, n[3])
		case opDelete:
			delete(t.items, rk)
		default:
			t.items[rk] = incremented(t.ks, k, t.items[rk])
		}
	case opTx:
		tables := txTables(n)
		for _, name := range tables {
			if m.tables[name] == nil {
				return
			}
		}
		for j := 0; j < 1+n[4]%4; j++ {
			t := m.tables[tables[n[5+j]%len(tables)]]
			k := keyOf(t.ks, n[5+j]>>3, n[5+j]>>6)
			if n[5+j]%3 == 0 {
				delete(t.items, renderKey(k))
			} else {
				t.items[renderKey(k)] = itemOf(t.ks, k, i, n[5+j]>>9)
			}
		}
	case opCreate:
		name := wlTables[n[0]%len(wlTables)].name
		if m.tables[name] != nil {
			return
		}
		m.tables[name] = &mTable{id: fmt.Sprintf("%s-%d", name, i), ks: wlTables[n[0]%len(wlTables)].ks,
			indexes: createIndexes(n), meta: map[string]string{"created": fmt.Sprint(i)}, items: map[string]storage.Item{}}
	case opDrop:
		delete(m.tables, tableName(n[0]))
	case opIndex:
		if t == nil {
			return
		}
		x := wlIndexes[n[1]%len(wlIndexes)]
		if j := slices.IndexFunc(t.indexes, func(d storage.IndexDef) bool { return d.Name == x.Name }); j >= 0 {
			t.indexes = slices.Delete(t.indexes, j, j+1)
		} else {
			t.indexes = append(t.indexes, x)
		}
	case opTableMeta:
		if t == nil {
			return
		}
		if key := fmt.Sprint("k", n[1]%3); n[2]%4 == 0 {
			delete(t.meta, key)
		} else {
			t.meta[key] = fmt.Sprint(i)
		}
	case opDBMeta:
		m.meta[fmt.Sprint("d", n[1]%2)] = fmt.Sprint(i)
	case opRestore:
		dst := wlRestored[n[1]%len(wlRestored)]
		if t == nil || m.tables[dst] != nil {
			return
		}
		c := m.clone().tables[tableName(n[0])]
		c.id = fmt.Sprintf("%s-%d", dst, i)
		m.tables[dst] = c
	}
}

// txTables returns the distinct tables of a transaction op.
func txTables(n [12]int) []string {
	var out []string
	for j := 0; j < 1+n[1]%3; j++ {
		if name := tableName(n[2+j]); !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

func createIndexes(n [12]int) []storage.IndexDef {
	if n[1]%2 == 0 {
		return []storage.IndexDef{wlIndexes[0]}
	}
	return nil
}

// incremented is the item a read-modify-write leaves: c one more.
func incremented(ks storage.KeySchema, k storage.Key, old storage.Item) storage.Item {
	c := 0
	if old != nil {
		fmt.Sscan(old["c"].Str(), &c)
	}
	it := ks.KeyItem(k)
	for name, v := range old {
		it[name] = v
	}
	it["c"] = storage.N(storage.MustNumber(fmt.Sprint(c + 1)))
	return it
}

// runOp applies op i to db as the model does; an error is a failure of
// the test (or of the store).
func runOp(db *storage.DB, op wlOp, i int) error {
	n := op.n
	t := db.Table(tableName(n[0]))
	switch op.kind {
	case opPut, opDelete, opIncrement:
		if t == nil {
			return nil
		}
		ks := t.KeySchema()
		k := keyOf(ks, n[1], n[2])
		var err error
		switch op.kind {
		case opPut:
			_, err = t.Put(k, itemOf(ks, k, i, n[3]))
		case opDelete:
			_, err = t.Put(k, nil)
		default:
			_, err = t.Write(k, func(old storage.Item) (storage.Item, error) { return incremented(ks, k, old), nil })
		}
		return err
	case opTx:
		var tables []*storage.Table
		for _, name := range txTables(n) {
			x := db.Table(name)
			if x == nil {
				return nil
			}
			tables = append(tables, x)
		}
		tx := storage.Begin(tables...)
		defer tx.Abort()
		for j := 0; j < 1+n[4]%4; j++ {
			t := tables[n[5+j]%len(tables)]
			k := keyOf(t.KeySchema(), n[5+j]>>3, n[5+j]>>6)
			var it storage.Item
			if n[5+j]%3 != 0 {
				it = itemOf(t.KeySchema(), k, i, n[5+j]>>9)
			}
			if _, err := tx.Put(t, k, it); err != nil {
				return err
			}
		}
		_, err := tx.Commit()
		return err
	case opCreate:
		tt := wlTables[n[0]%len(wlTables)]
		_, err := db.CreateTable(storage.TableDef{Name: tt.name, ID: fmt.Sprintf("%s-%d", tt.name, i), Schema: tt.ks,
			Indexes: createIndexes(n), Meta: map[string][]byte{"created": []byte(fmt.Sprint(i))}})
		if errors.Is(err, storage.ErrTableExists) {
			return nil
		}
		return err
	case opDrop:
		if err := db.DropTable(tableName(n[0])); err != nil && !errors.Is(err, storage.ErrNoTable) {
			return err
		}
		return nil
	case opIndex:
		if t == nil {
			return nil
		}
		x := wlIndexes[n[1]%len(wlIndexes)]
		if err := t.AddIndex(x); errors.Is(err, storage.ErrIndexExists) {
			return t.DropIndex(x.Name)
		} else {
			return err
		}
	case opTableMeta:
		if t == nil {
			return nil
		}
		var v []byte
		if n[2]%4 != 0 {
			v = []byte(fmt.Sprint(i))
		}
		return t.SetMeta(fmt.Sprint("k", n[1]%3), v)
	case opDBMeta:
		return db.SetMeta(fmt.Sprint("d", n[1]%2), []byte(fmt.Sprint(i)))
	case opRestore:
		dst := wlRestored[n[1]%len(wlRestored)]
		if t == nil || db.Table(dst) != nil {
			return nil
		}
		_, err := db.RestoreTable(dst, fmt.Sprintf("%s-%d", dst, i), t.Snapshot())
		return err
	}
	return fmt.Errorf("op kind %d", op.kind)
}

// renderValue renders a value canonically.
func renderValue(v storage.Value) string {
	switch v.Kind() {
	case storage.KindSS, storage.KindNS, storage.KindBS:
		m := slices.Sorted(slices.Values(v.Members()))
		return fmt.Sprintf("%s%q", v.Kind(), m)
	case storage.KindL:
		var parts []string
		for _, e := range v.List() {
			parts = append(parts, renderValue(e))
		}
		return "L[" + strings.Join(parts, ",") + "]"
	case storage.KindM:
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(v.Map())) {
			parts = append(parts, fmt.Sprintf("%q:%s", k, renderValue(v.Map()[k])))
		}
		return "M{" + strings.Join(parts, ",") + "}"
	case storage.KindBOOL:
		return fmt.Sprint("BOOL:", v.Bool())
	}
	return fmt.Sprintf("%s:%q", v.Kind(), v.Str())
}

func renderKey(k storage.Key) string {
	s := renderValue(k.Partition)
	if k.Sort.IsValid() {
		s += "/" + renderValue(k.Sort)
	}
	return s
}

func renderItem(it storage.Item) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(it)) {
		parts = append(parts, fmt.Sprintf("%q=%s", k, renderValue(it[k])))
	}
	return strings.Join(parts, " ")
}

func renderIndexes(defs []storage.IndexDef) string {
	var names []string
	for _, d := range defs {
		names = append(names, fmt.Sprintf("%s%v%v", d.Name, d.Schema, d.Projection))
	}
	slices.Sort(names)
	return strings.Join(names, ";")
}

// render renders the model.
func (m *model) render() string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m.meta)) {
		fmt.Fprintf(&b, "db meta %s=%s\n", k, m.meta[k])
	}
	for _, name := range slices.Sorted(maps.Keys(m.tables)) {
		t := m.tables[name]
		fmt.Fprintf(&b, "table %s id %s %v indexes %s\n", name, t.id, t.ks, renderIndexes(t.indexes))
		for _, k := range slices.Sorted(maps.Keys(t.meta)) {
			fmt.Fprintf(&b, "  meta %s=%s\n", k, t.meta[k])
		}
		for _, k := range slices.Sorted(maps.Keys(t.items)) {
			fmt.Fprintf(&b, "  %s\n", renderItem(t.items[k]))
		}
	}
	return b.String()
}

// renderDB renders db as the model renders itself.
func renderDB(db *storage.DB) string {
	var b strings.Builder
	for _, k := range db.MetaKeys() {
		fmt.Fprintf(&b, "db meta %s=%s\n", k, db.Meta(k))
	}
	for _, t := range db.Tables() {
		fmt.Fprintf(&b, "table %s id %s %v indexes %s\n", t.Name(), t.ID(), t.KeySchema(), renderIndexes(t.Snapshot().Indexes()))
		for _, k := range t.MetaKeys() {
			fmt.Fprintf(&b, "  meta %s=%s\n", k, t.Meta(k))
		}
		items := map[string]string{}
		t.Scan(storage.ScanRange{}, func(k storage.Key, it storage.Item) bool {
			items[renderKey(k)] = renderItem(it)
			return true
		})
		for _, k := range slices.Sorted(maps.Keys(items)) {
			fmt.Fprintf(&b, "  %s\n", items[k])
		}
	}
	return b.String()
}

// checkIndexes checks that every index of db's tables holds exactly the
// items that have its key attributes with their kinds.
func checkIndexes(t testing.TB, db *storage.DB) {
	t.Helper()
	for _, tb := range db.Tables() {
		for _, x := range tb.Snapshot().Indexes() {
			want := map[string]bool{}
			tb.Scan(storage.ScanRange{}, func(k storage.Key, it storage.Item) bool {
				for _, a := range append(slices.Clone(x.Schema.Partition), x.Schema.Sort...) {
					if v, ok := it[a.Name]; !ok || v.Kind() != a.Kind {
						return true
					}
				}
				want[renderKey(k)] = true
				return true
			})
			got := map[string]bool{}
			if err := tb.ScanIndex(x.Name, storage.IndexScanRange{}, func(e storage.EncodedItem) bool {
				got[renderKey(e.Key())] = true
				return true
			}); err != nil {
				t.Errorf("table %s index %s: %v", tb.Name(), x.Name, err)
			}
			count, _, _ := tb.IndexStats(x.Name)
			if !maps.Equal(got, want) || count != len(want) {
				t.Errorf("table %s index %s holds %d entries (%d counted), its items give %d", tb.Name(), x.Name, len(got), count, len(want))
			}
		}
	}
}

// runWorkload runs ops from..to-1 of seed on db and on m.
func runWorkload(t testing.TB, db *storage.DB, m *model, seed uint64, from, to int) {
	t.Helper()
	for i := from; i < to; i++ {
		op := genOp(seed, i)
		if err := runOp(db, op, i); err != nil {
			t.Fatalf("op %d (kind %d): %v", i, op.kind, err)
		}
		m.apply(op, i)
	}
}
