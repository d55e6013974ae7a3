package storage

import (
	"errors"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestVectorIndexDefValidate(t *testing.T) {
	ok := VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: 3, Distance: Cosine,
		Hash: KeyAttr{"h", KindS}, Filters: []KeyAttr{{"f", KindN}}}
	filters := make([]KeyAttr, MaxVectorInlineFilters+1)
	for i := range filters {
		filters[i] = KeyAttr{"f" + strconv.Itoa(i), KindS}
	}
	for _, tc := range []struct {
		name string
		edit func(*VectorIndexDef)
		ok   bool
	}{
		{"valid", func(*VectorIndexDef) {}, true},
		{"no name", func(d *VectorIndexDef) { d.Name = "" }, false},
		{"no attribute", func(d *VectorIndexDef) { d.Attribute = "" }, false},
		{"zero dimensions", func(d *VectorIndexDef) { d.Dimensions = 0 }, false},
		{"max dimensions", func(d *VectorIndexDef) { d.Dimensions = MaxVectorDimensions }, true},
		{"too many dimensions", func(d *VectorIndexDef) { d.Dimensions = MaxVectorDimensions + 1 }, false},
		{"no distance", func(d *VectorIndexDef) { d.Distance = 0 }, false},
		{"unknown distance", func(d *VectorIndexDef) { d.Distance = DotProduct + 1 }, false},
		{"no schema", func(d *VectorIndexDef) { d.Hash, d.Filters = KeyAttr{}, nil }, true},
		{"filters only", func(d *VectorIndexDef) { d.Hash = KeyAttr{} }, true},
		{"hash of kind BOOL", func(d *VectorIndexDef) { d.Hash.Kind = KindBOOL }, false},
		{"filter without a name", func(d *VectorIndexDef) { d.Filters = []KeyAttr{{"", KindS}} }, false},
		{"filter is the hash", func(d *VectorIndexDef) { d.Filters = []KeyAttr{{"h", KindS}} }, false},
		{"filter is the vector", func(d *VectorIndexDef) { d.Filters = []KeyAttr{{"v", KindN}} }, false},
		{"hash is the vector", func(d *VectorIndexDef) { d.Hash.Name = "v" }, false},
		{"max filters", func(d *VectorIndexDef) { d.Filters = filters[:MaxVectorInlineFilters] }, true},
		{"too many filters", func(d *VectorIndexDef) { d.Filters = filters }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := ok.clone()
			tc.edit(&d)
			err := d.Validate()
			if got := err == nil; got != tc.ok {
				t.Fatalf("Validate() = %v, want ok %v", err, tc.ok)
			}
			if err != nil && !errors.Is(err, ErrInvalidVectorIndex) {
				t.Fatalf("got %v, want ErrInvalidVectorIndex", err)
			}
		})
	}
}

func TestDistanceFunctionNames(t *testing.T) {
	for _, d := range []DistanceFunction{Cosine, Euclidean, DotProduct} {
		got, ok := ParseDistanceFunction(d.String())
		if !ok || got != d {
			t.Errorf("ParseDistanceFunction(%q) = %v, %v", d.String(), got, ok)
		}
	}
	if _, ok := ParseDistanceFunction("cosine"); ok {
		t.Error("distance names are case-sensitive")
	}
}

// TestVectorIndexer: a table without a VectorIndexer keeps its vector
// indexes' definitions and no entries; given one, it builds them from the
// items, and a DB's reaches the tables it restores. The entries are
// testIndexer's, checked against the items when the test ends.
func TestVectorIndexer(t *testing.T) {
	vec := func(fs ...string) Value {
		out := make([]Value, len(fs))
		for i, f := range fs {
			out[i] = N(MustNumber(f))
		}
		return L(out)
	}
	def := VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: 2, Distance: Euclidean}
	tbl := newTable(t, schemaS)
	tbl.SetVectorIndexer(nil)
	require.NoError(t, tbl.AddVectorIndex(def))
	put(t, tbl, Item{"pk": S("a"), "v": vec("1", "2")})
	put(t, tbl, Item{"pk": S("b"), "v": vec("1")}) // not a vector of the index
	put(t, tbl, Item{"pk": S("c"), "v": vec("3", "4")})
	count, size, err := tbl.VectorIndexStats("vx")
	require.NoError(t, err)
	require.Equal(t, 0, count)
	require.Zero(t, size)
	require.Equal(t, tbl.SizeBytes(), tbl.BilledSizeBytes())
	require.ErrorIs(t, tbl.ReadVectorIndex("vx", func(VectorIndex) {}), ErrNoVectorIndexer)
	require.ErrorIs(t, tbl.ReadVectorIndex("nope", func(VectorIndex) {}), ErrNoVectorIndex)

	tbl.SetVectorIndexer(testIndexer{})
	count, _, err = tbl.VectorIndexStats("vx")
	require.NoError(t, err)
	require.Equal(t, 2, count)
	var got []string
	require.NoError(t, tbl.ReadVectorIndex("vx", func(x VectorIndex) {
		for _, row := range x.(*testVectors).rows {
			got = append(got, tbl.ItemAt(row.at).Key().Partition.Str())
		}
	}))
	require.ElementsMatch(t, []string{"a", "c"}, got)

	// A snapshot keeps the definitions: a DB without an indexer restores
	// them alone, one with an indexer builds the entries.
	snap := tbl.Snapshot()
	bare := newDB(t, nil)
	bare.SetVectorIndexer(nil)
	r, err := bare.RestoreTable("r", "id-r", snap)
	require.NoError(t, err)
	require.Equal(t, []VectorIndexDef{def}, r.VectorIndexes())
	count, _, err = r.VectorIndexStats("vx")
	require.NoError(t, err)
	require.Equal(t, 0, count)
	built, err := newDB(t, nil).RestoreTable("r", "id-r", snap)
	require.NoError(t, err)
	count, _, err = built.VectorIndexStats("vx")
	require.NoError(t, err)
	require.Equal(t, 2, count)
	bare.SetVectorIndexer(testIndexer{})
	count, _, err = r.VectorIndexStats("vx")
	require.NoError(t, err)
	require.Equal(t, 2, count, "DB.SetVectorIndexer builds the entries of the tables it has")
}

// TestItemRefScanOrder: ItemRef.ScanBefore is Scan's order, which a
// vector search breaks ties by.
func TestItemRefScanOrder(t *testing.T) {
	tbl := newTable(t, schemaSN)
	for p := range 20 {
		for s := range 3 {
			put(t, tbl, Item{"pk": S(strconv.Itoa(p)), "sk": N(MustNumber(strconv.Itoa(s - 1)))})
		}
	}
	var refs []ItemRef
	tbl.mu.RLock()
	tbl.parts.ascend(0, "", func(p *partition) bool {
		p.walk(bound{}, bound{}, true, func(e entry) bool {
			refs = append(refs, ItemRef{pk: e.pk(), e: e})
			return true
		})
		return true
	})
	tbl.mu.RUnlock()
	var scanned []Key
	tbl.Scan(ScanRange{}, func(k Key, _ Item) bool { scanned = append(scanned, k); return true })
	require.Len(t, refs, len(scanned))
	for i, r := range refs {
		require.True(t, Equal(tbl.ItemAt(r).Key().Partition, scanned[i].Partition) && Equal(tbl.ItemAt(r).Key().Sort, scanned[i].Sort))
		for j, o := range refs {
			require.Equal(t, i < j, r.ScanBefore(o), "refs %d and %d", i, j)
		}
	}
}
