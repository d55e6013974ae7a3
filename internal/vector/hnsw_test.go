package vector

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// recallAt returns the share of the exact answer's items that the
// approximate answer holds, over queries.
func recallAt(t testing.TB, tbl *storage.Table, name string, queries []Query) float64 {
	t.Helper()
	found, total := 0, 0
	for _, q := range queries {
		q.Exact = true
		exact, err := Search(tbl, name, q)
		if err != nil {
			t.Fatal(err)
		}
		q.Exact = false
		approx, err := Search(tbl, name, q)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{}
		for _, r := range exact {
			want[r.Item.Key().Partition.Str()] = true
		}
		for i, r := range approx {
			if want[r.Item.Key().Partition.Str()] {
				found++
			}
			if i > 0 && approx[i-1].Score != r.Score && (approx[i-1].Score < r.Score) != (tblDistance(tbl, name) != storage.DotProduct) {
				t.Fatalf("approximate answer out of order: %v then %v", approx[i-1].Score, r.Score)
			}
		}
		total += len(exact)
	}
	return float64(found) / float64(total)
}

func tblDistance(tbl *storage.Table, name string) storage.DistanceFunction {
	for _, d := range tbl.VectorIndexes() {
		if d.Name == name {
			return d.Distance
		}
	}
	return 0
}

// TestVectorApproximateRecall builds an approximate index over random
// vectors, measures its recall@10 against the exact answer, then updates
// and deletes a third of the items and measures again.
func TestVectorApproximateRecall(t *testing.T) {
	// 3,000 vectors with heavyTestsEnv, 1,500 without: both above
	// approxMinRows (1,000) before and after the deletes below (a sixth).
	const dims = 24
	n := 1500
	if heavyTests() {
		n = 3000
	}
	for _, dist := range []storage.DistanceFunction{storage.Cosine, storage.Euclidean, storage.DotProduct} {
		t.Run(dist.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(11, uint64(dist)))
			tbl := newTable(t, schemaS, Options{Approximate: true})
			def := storage.VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: dims, Distance: dist, Projection: storage.Projection{All: true}}
			if err := tbl.AddVectorIndex(def); err != nil {
				t.Fatal(err)
			}
			for i := range n {
				it := benchVectorItem(r, fmt.Sprint("k", i), dims)
				put(t, tbl, it)
			}
			queries := make([]Query, 50)
			for i := range queries {
				queries[i] = Query{Vector: benchVectorQuery(r, dims), TopK: 10}
			}
			if got := recallAt(t, tbl, "vx", queries); got < 0.9 {
				t.Errorf("recall@10 %.3f, want at least 0.9", got)
			}
			for i := range n {
				switch r.IntN(6) {
				case 0:
					put(t, tbl, benchVectorItem(r, fmt.Sprint("k", i), dims))
				case 1:
					if _, err := tbl.Put(storage.Key{Partition: storage.S(fmt.Sprint("k", i))}, nil); err != nil {
						t.Fatal(err)
					}
				}
			}
			check(t, tbl)
			if got := recallAt(t, tbl, "vx", queries); got < 0.9 {
				t.Errorf("after updates and deletes: recall@10 %.3f, want at least 0.9", got)
			}
		})
	}
}

// TestVectorApproximateSmallPartitions checks that an approximate index
// answers exactly below approxMinRows and with filters that leave too few.
func TestVectorApproximateSmallPartitions(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 13))
	tbl := newTable(t, schemaS, Options{Approximate: true, EfSearch: 10})
	def := storage.VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: 8, Distance: storage.Euclidean,
		Filters: []storage.KeyAttr{{Name: "tenant", Kind: storage.KindS}}, Projection: storage.Projection{All: true}}
	if err := tbl.AddVectorIndex(def); err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		put(t, tbl, benchVectorItem(r, fmt.Sprint("k", i), 8))
	}
	queries := []Query{{Vector: benchVectorQuery(r, 8), TopK: 10}}
	if got := recallAt(t, tbl, "vx", queries); got != 1 {
		t.Errorf("below approxMinRows: recall %.3f, want 1", got)
	}
	defer func(m int) { approxMinRows = m }(approxMinRows)
	approxMinRows = 1
	// One tenant in ten: the graph's ten candidates hold about one of them,
	// so the search falls back to exact.
	queries[0].Filters = []Filter{{"tenant", storage.S("t3")}}
	if got := recallAt(t, tbl, "vx", queries); got != 1 {
		t.Errorf("filtered: recall %.3f, want 1", got)
	}
}
