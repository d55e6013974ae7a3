package storage

import (
	"errors"
	"fmt"
	"github.com/dynamoemu/dynamoemu/internal/number"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// dumpDBLocked renders every table of db as dumpSnapshot renders a
// snapshot, keyed by table ID, plus the DB's metadata under "": for a
// DB.Snapshot callback, which runs with every lock held.
func dumpDBLocked(db *DB) map[string]string {
	out := map[string]string{}
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(db.meta)) {
		fmt.Fprintf(&b, "db meta %q=%q\n", k, db.meta[k])
	}
	out[""] = b.String()
	for _, t := range db.tables {
		id := t.uid
		var b strings.Builder
		t.metaMu.Lock()
		meta := maps.Clone(t.meta)
		t.metaMu.Unlock()
		dumpState(&b, t.name, t.uid, t.ks, t.count, t.size, meta, &t.parts, t.indexes)
		dumpVectors(&b, t.vectorDefsLocked())
		out[id] = b.String()
	}
	return out
}

// dumpSnap renders a DB snapshot as dumpDBLocked renders the DB.
func dumpSnap(s *Snapshot) map[string]string {
	out := map[string]string{}
	var b strings.Builder
	for _, k := range s.MetaKeys() {
		fmt.Fprintf(&b, "db meta %q=%q\n", k, s.Meta(k))
	}
	out[""] = b.String()
	for _, ts := range s.Tables() {
		var b strings.Builder
		dumpSnapshot(&b, ts)
		out[ts.ID()] = b.String()
	}
	return out
}

// taken is a snapshot and the DB as it was when it was taken.
type taken struct {
	s    *Snapshot
	want map[string]string
}

func (tk taken) check(t testing.TB) {
	t.Helper()
	got := dumpSnap(tk.s)
	for id, w := range tk.want {
		if got[id] != w {
			t.Errorf("snapshot of table %q differs from the table at that instant:\n%s\nwant\n%s", id, got[id], w)
			return
		}
	}
	if len(got) != len(tk.want) {
		t.Errorf("snapshot has %d tables, the DB had %d", len(got)-1, len(tk.want)-1)
	}
}

// TestSnapshotRandom: writers run the replay workload (tables created and
// dropped, indexes, metadata, writes, deletes, transactions) on a DB and
// take snapshots as they go, each with a rendering of the DB made at the
// same instant (under the snapshot's locks); a reader checks earlier
// snapshots against their renderings while the writes go on, tables are
// restored from snapshots and written, and at the end every snapshot must
// still render as the DB did when it was taken, byte for byte.
func TestSnapshotRandom(t *testing.T) {
	seed := replaySeed(t)
	w := &replayWorld{db: newDB(t, nil), observed: map[string][]string{}}
	var mu sync.Mutex // guards snaps
	var snaps []taken
	snapshot := func() {
		var tk taken
		tk.s = w.db.Snapshot(func() { tk.want = dumpDBLocked(w.db) })
		mu.Lock()
		snaps = append(snaps, tk)
		mu.Unlock()
	}
	pick := func(r *rand.Rand) (taken, bool) {
		mu.Lock()
		defer mu.Unlock()
		if len(snaps) == 0 {
			return taken{}, false
		}
		return snaps[r.IntN(len(snaps))], true
	}

	var writers, reader sync.WaitGroup
	done := make(chan struct{})
	reader.Go(func() { // reads snapshots, and restores and writes tables of them, while the writers write
		r := rand.New(rand.NewPCG(seed, 99))
		rdb := newDB(t, nil)
		for n := 0; ; n++ {
			select {
			case <-done:
				return
			default:
			}
			tk, ok := pick(r)
			if !ok {
				continue
			}
			tk.check(t)
			ts := tk.s.Tables()
			if len(ts) == 0 {
				continue
			}
			src := ts[r.IntN(len(ts))]
			rt, err := rdb.RestoreTable(fmt.Sprint("r", n), fmt.Sprint("r", n), src)
			if err != nil {
				t.Errorf("RestoreTable: %v", err)
				return
			}
			g := gen{r: r, ks: rt.KeySchema()}
			for range 20 {
				k := g.key()
				if r.IntN(3) == 0 {
					_, err = rt.Put(k, nil)
				} else {
					_, err = rt.Put(k, g.indexItem(k))
				}
				if err != nil {
					t.Errorf("write to a restored table: %v", err)
				}
			}
			if err := rt.Check(); err != nil { // here: a dropped table is not checked at the end
				t.Errorf("restored table: %v", err)
			}
			if err := rdb.DropTable(rt.Name()); err != nil {
				t.Error(err)
			}
		}
	})
	for wk := range 3 {
		writers.Go(func() {
			r := rand.New(rand.NewPCG(seed, uint64(wk)))
			for range 1500 {
				w.step(t, r)
				if r.IntN(40) == 0 {
					snapshot()
				}
			}
		})
	}
	writers.Wait()
	close(done)
	reader.Wait()
	if len(snaps) < 20 {
		t.Fatalf("only %d snapshots", len(snaps))
	}
	for _, tk := range snaps {
		tk.check(t)
	}
	t.Logf("%d snapshots", len(snaps))
}

// emailIndex is an index of the bench items: every item is in it.
var emailIndex = IndexDef{Name: "byEmail", Schema: IndexSchema{Partition: []KeyAttr{{"email", KindS}}, Sort: []KeyAttr{{"count", KindN}}}}

// restoreFixture is a table of 300 items over 30 partitions, with an index
// and metadata, in a DB.
func restoreFixture(t *testing.T, db *DB) *Table {
	t.Helper()
	tb, err := db.CreateTable(TableDef{Name: "src", ID: "src", Schema: schemaSN, Indexes: []IndexDef{emailIndex}, Meta: map[string][]byte{"m": []byte("v")}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		put(t, tb, benchItem(t, schemaSN, i/10, i%10))
	}
	return tb
}

func TestRestoreTable(t *testing.T) {
	h := &recHook{}
	db := newDB(t, h)
	src := restoreFixture(t, db)
	snap := src.Snapshot()
	var before strings.Builder
	dumpSnapshot(&before, snap)

	r1, err := db.RestoreTable("r1", "r1", snap)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.RestoreTable("r1", "other", snap); !errors.Is(err, ErrTableExists) {
		t.Errorf("restore under a name in use: got %v, want ErrTableExists", err)
	}
	if _, err := db.RestoreTable("", "x", snap); !errors.Is(err, ErrInvalidSchema) {
		t.Errorf("restore without a name: got %v, want ErrInvalidSchema", err)
	}
	r2, err := db.RestoreTable("r2", "r2", snap)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := h.kinds()[len(h.kinds())-2:], []string{"restore-table", "restore-table"}; !slices.Equal(got, want) {
		t.Errorf("records: got %v, want %v", got, want)
	}
	for _, tb := range []*Table{r1, r2} {
		if got, want := string(tb.Meta("m")), "v"; got != want {
			t.Errorf("%s: meta m = %q, want %q", tb.Name(), got, want)
		}
	}
	// The source and two restored tables write to the same partitions
	// at once; none sees another's writes and the snapshot sees none.
	var wg sync.WaitGroup
	for i, tb := range []*Table{src, r1, r2} {
		wg.Go(func() {
			for j := range 300 {
				it := benchItem(t, schemaSN, j/10, j%10)
				it["status"] = S(fmt.Sprint("writer", i))
				if j%7 == 0 {
					if _, err := tb.Put(schemaSN.KeyOf(it), nil); err != nil {
						t.Error(err)
					}
					continue
				}
				put(t, tb, it)
			}
		})
	}
	wg.Wait()
	for i, tb := range []*Table{src, r1, r2} {
		want := fmt.Sprint("writer", i)
		n := 0
		tb.Scan(ScanRange{}, func(k Key, it Item) bool {
			if got := it["status"].Str(); got != want {
				t.Errorf("%s: item %v has status %q, want %q", tb.Name(), k, got, want)
				return false
			}
			n++
			return true
		})
		if n != 300-43 {
			t.Errorf("%s: %d items, want %d", tb.Name(), n, 300-43)
		}
	}
	var after strings.Builder
	dumpSnapshot(&after, snap)
	if before.String() != after.String() {
		t.Errorf("the snapshot changed:\n%s\nwant\n%s", after.String(), before.String())
	}
}

func TestSnapshotReads(t *testing.T) {
	db := newDB(t, nil)
	src := restoreFixture(t, db)
	snap := src.Snapshot()
	put(t, src, benchItem(t, schemaSN, 1000, 0)) // after the snapshot
	k := schemaSN.KeyOf(benchItem(t, schemaSN, 3, 4))
	if _, err := src.Put(k, nil); err != nil {
		t.Fatal(err)
	}
	if e, ok := snap.GetEncoded(k); !ok || e.Item()["sk"].Str() != "4" {
		t.Errorf("GetEncoded of an item deleted since: %v, %v", e, ok)
	}
	if _, ok := snap.GetEncoded(schemaSN.KeyOf(benchItem(t, schemaSN, 1000, 0))); ok {
		t.Error("GetEncoded found an item written after the snapshot")
	}
	var got []string
	snap.QueryEncoded(QueryRange{Partition: S("user#0000003"), Sort: SortCondition{Op: SortGE, Values: [2]Value{N("7")}}},
		func(e EncodedItem) bool { got = append(got, e.Key().Sort.Str()); return true })
	if want := []string{"9", "8", "7"}; !slices.Equal(got, want) {
		t.Errorf("QueryEncoded: got %v, want %v", got, want)
	}
	var all []Key
	snap.ScanEncoded(ScanRange{}, func(e EncodedItem) bool { all = append(all, e.Key()); return true })
	if len(all) != 300 || snap.ItemCount() != 300 || snap.SizeBytes() != 300*benchItemSize {
		t.Errorf("ScanEncoded: %d items; ItemCount %d, SizeBytes %d", len(all), snap.ItemCount(), snap.SizeBytes())
	}
	if n, _, err := snap.IndexStats(emailIndex.Name); err != nil || n != 300 {
		t.Errorf("IndexStats: %d, %v", n, err)
	}
	if got := snap.Indexes(); len(got) != 1 || got[0].Name != emailIndex.Name {
		t.Errorf("Indexes: %+v", got)
	}
	if got := snap.MetaKeys(); !slices.Equal(got, []string{"m"}) {
		t.Errorf("MetaKeys: %v", got)
	}
	dbs := db.Snapshot(nil)
	if dbs.Table("src") == nil || dbs.Table("nope") != nil || len(dbs.Tables()) != 1 {
		t.Errorf("DB snapshot tables: %v", dbs.Tables())
	}
}

// TestTableBuilder: a table rebuilt from another's items in scan order is
// the same, byte for byte, indexes included; out-of-order items, wrong
// sizes, bad images and keys are refused.
func TestTableBuilder(t *testing.T) {
	db := newDB(t, nil)
	src := restoreFixture(t, db)
	snap := src.Snapshot()
	def := TableDef{Name: "src", ID: "src", Schema: schemaSN, Indexes: snap.Indexes(), Meta: map[string][]byte{"m": []byte("v")}}
	b, err := NewTableBuilder(def)
	if err != nil {
		t.Fatal(err)
	}
	var items []EncodedItem
	snap.ScanEncoded(ScanRange{}, func(e EncodedItem) bool { items = append(items, e); return true })
	for _, e := range items {
		if err := b.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	built, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	var got, want strings.Builder
	dumpSnapshot(&got, built)
	dumpSnapshot(&want, snap)
	if got.String() != want.String() {
		t.Errorf("built table:\n%s\nwant\n%s", got.String(), want.String())
	}
	if err := b.Add(items[0]); err == nil {
		t.Error("Add after Finish succeeded")
	}

	bad := func(name string, mutate func([]EncodedItem) []EncodedItem, wantErr error) {
		t.Run(name, func(t *testing.T) {
			b, err := NewTableBuilder(def)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range mutate(slices.Clone(items)) {
				if err = b.Add(e); err != nil {
					break
				}
			}
			if !errors.Is(err, wantErr) {
				t.Errorf("got %v, want %v", err, wantErr)
			}
		})
	}
	bad("partitions out of order", func(es []EncodedItem) []EncodedItem { es[0], es[len(es)-1] = es[len(es)-1], es[0]; return es }, ErrCorrupt)
	bad("sort keys out of order", func(es []EncodedItem) []EncodedItem { es[0], es[1] = es[1], es[0]; return es }, ErrCorrupt)
	bad("an item twice", func(es []EncodedItem) []EncodedItem { return append(es[:2], es[1:]...) }, ErrCorrupt)
	bad("wrong size", func(es []EncodedItem) []EncodedItem { es[5].size++; return es }, ErrCorrupt)
	bad("bad image", func(es []EncodedItem) []EncodedItem { es[5].body = es[5].body[:len(es[5].body)-1]; return es }, ErrCorrupt)
	bad("key attribute in the image", func(es []EncodedItem) []EncodedItem {
		it := es[5].Item()
		body, _ := appendItem(nil, it, "", "")
		es[5].body = string(body)
		return es
	}, ErrCorrupt)
	bad("key of another kind", func(es []EncodedItem) []EncodedItem { es[5].key.Sort, es[5].nsk = S("x"), ""; return es }, ErrKeyKind)
	bad("key number not canonical", func(es []EncodedItem) []EncodedItem {
		es[5].key.Sort, es[5].nsk = Value{kind: KindN, str: "05"}, ""
		return es
	}, ErrCorrupt)
}

// TestCheckImage: checkImage accepts what the encoder writes and gives
// ItemSize of it.
func TestCheckImage(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, ks := range replaySchemas {
		g := gen{r: r, ks: ks}
		for range 500 {
			k := g.key()
			it := g.item(k)
			body, err := appendItem(nil, it, ks.Partition.Name, ks.Sort.Name)
			if err != nil {
				t.Fatal(err)
			}
			size, err := checkImage(string(body), ks.Partition.Name, ks.Sort.Name)
			if err != nil {
				t.Fatalf("checkImage of %v: %v", it, err)
			}
			want := ItemSize(it) - len(ks.Partition.Name) - ValueSize(k.Partition)
			if ks.HasSort() {
				want -= len(ks.Sort.Name) + ValueSize(k.Sort)
			}
			if size != want {
				t.Fatalf("checkImage of %v: size %d, want %d", it, size, want)
			}
		}
	}
}

// FuzzCheckImage: checkImage accepts exactly what decodeItem decodes with
// canonical numbers, and sizes it as ItemSize does.
func FuzzCheckImage(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	g := gen{r: r, ks: schemaS}
	for range 50 {
		body, _ := appendItem(nil, g.item(g.key()), "", "")
		f.Add(body)
	}
	f.Add([]byte{1, 1, 1, 'a', tagN, 2, '0', '1'})
	f.Fuzz(func(t *testing.T, b []byte) {
		size, err := checkImage(string(b), "", "")
		it, derr := decodeItem(string(b), 0)
		ok := derr == nil
		for _, v := range it {
			ok = ok && canonicalValue(v)
		}
		if (err == nil) != ok {
			t.Fatalf("checkImage: %v; decodeItem: %v, canonical %v", err, derr, ok)
		}
		if err == nil && size != ItemSize(it) {
			t.Fatalf("checkImage size %d, ItemSize %d", size, ItemSize(it))
		}
		if err != nil && !errors.Is(err, ErrCorrupt) {
			t.Fatalf("error %v does not wrap ErrCorrupt", err)
		}
	})
}

// canonicalValue reports whether every number in v is canonical, the slow
// way (ParseNumber).
func canonicalValue(v Value) bool {
	canon := func(s string) bool { n, err := ParseNumber(s); return err == nil && string(n) == s }
	switch v.kind {
	case KindN:
		return canon(v.str)
	case KindNS:
		return !slices.ContainsFunc(v.Members(), func(m string) bool { return !canon(m) })
	case KindL:
		return !slices.ContainsFunc(v.List(), func(e Value) bool { return !canonicalValue(e) })
	case KindM:
		for _, e := range v.Map() {
			if !canonicalValue(e) {
				return false
			}
		}
	}
	return true
}

// FuzzIsCanonicalNumber: isCanonicalNumber(s) is ParseNumber(s) == s,
// and checkNumber(s) says so too, with the number's number.Size.
func FuzzIsCanonicalNumber(f *testing.F) {
	for _, s := range append(genNumbers, "", "-", "-0", "0.0", "00", "01", "1.", ".5", "1.50", "1e5", "+1", "0.10",
		"12345678901234567890123456789012345678", "123456789012345678901234567890123456789", "1"+strings.Repeat("0", 125), "1"+strings.Repeat("0", 126),
		"0."+strings.Repeat("0", 129)+"1", "0."+strings.Repeat("0", 130)+"1") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseNumber(s)
		want := err == nil && string(n) == s
		require.Equal(t, want, isCanonicalNumber(s), "isCanonicalNumber(%q)", s)
		size, ok := checkNumber(s)
		require.Equal(t, want, ok, "checkNumber(%q)", s)
		if ok {
			require.Equal(t, number.Size(Number(s)), size, "checkNumber(%q)'s size", s)
		}
	})
}

// TestTableBuilderIndexRuns: a table of more items than one run of a
// fill's entries (indexFillRun) is built with its index whole, as the
// table it was read from holds it. Without heavyTestsEnv the run is
// lowered to 1,000 entries (as TestChunksRoundTrip lowers it): 65,636
// puts took 66-183 s under -race on a busy 2-core machine, and 1,100
// items still fill more than one run.
func TestTableBuilderIndexRuns(t *testing.T) {
	if !heavyTests() {
		defer func(n int) { indexFillRun = n }(indexFillRun)
		indexFillRun = 1000
	}
	db := newDB(t, nil)
	src, err := db.CreateTable(TableDef{Name: "src", ID: "src", Schema: schemaSN, Indexes: []IndexDef{emailIndex}})
	require.NoError(t, err)
	n := indexFillRun + 100
	for i := range n {
		put(t, src, benchItem(t, schemaSN, i/10, i%10))
	}
	snap := src.Snapshot()
	b, err := NewTableBuilder(TableDef{Name: "src", ID: "src", Schema: schemaSN, Indexes: snap.Indexes()})
	require.NoError(t, err)
	snap.ScanEncoded(ScanRange{}, func(e EncodedItem) bool { require.NoError(t, b.Add(e)); return true })
	built, err := b.Finish()
	require.NoError(t, err)
	var got, want strings.Builder
	dumpSnapshot(&got, built)
	dumpSnapshot(&want, snap)
	require.Equal(t, want.String(), got.String())
}
