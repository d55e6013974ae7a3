package vector

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Vector index benchmarks: the search (TopK 10, exact) over 10k and 100k
// vectors of 128 and 768 dimensions for each distance function, and over
// 1M when VECTOR_BENCH_LARGE=1 (1M x 768 holds 3 GB of float32 and about
// 6 GB of stored items: too much for a default run); Table.Put with one
// vector index and without; the memory an indexed vector costs.

// benchVectorItem returns an item with key pk and a dims-dimensional
// vector of random values in (-1, 1) written with float32's shortest
// decimal form, as an embedding serialised by an SDK looks.
func benchVectorItem(r *rand.Rand, pk string, dims int) storage.Item {
	elems := make([]storage.Value, dims)
	for i := range elems {
		f := float32(r.Float64()*2 - 1)
		text := strconv.FormatFloat(float64(f), 'f', -1, 32) // canonical but for "-0"
		if f == 0 {
			text = "0"
		}
		elems[i] = storage.N(storage.Number(text))
	}
	return storage.Item{"pk": storage.S(pk), "v": storage.L(elems), "title": storage.S("a title of some length"), "tenant": storage.S(fmt.Sprint("t", r.IntN(10)))}
}

// benchClusters returns k centres in dims dimensions, uniform in (-1, 1).
func benchClusters(r *rand.Rand, k, dims int) [][]float32 {
	cs := make([][]float32, k)
	for i := range cs {
		cs[i] = benchVectorQuery(r, dims)
	}
	return cs
}

// benchNear returns a point near a random one of the centres.
func benchNear(r *rand.Rand, centres [][]float32) []float32 {
	c := centres[r.IntN(len(centres))]
	v := make([]float32, len(c))
	for i := range v {
		v[i] = c[i] + float32(0.5*r.NormFloat64())
	}
	return v
}

func benchVectorValue(v []float32) storage.Value {
	elems := make([]storage.Value, len(v))
	for i, f := range v {
		text := strconv.FormatFloat(float64(f), 'f', -1, 32)
		if f == 0 {
			text = "0"
		}
		elems[i] = storage.N(storage.Number(text))
	}
	return storage.L(elems)
}

func benchVectorQuery(r *rand.Rand, dims int) []float32 {
	q := make([]float32, dims)
	for i := range q {
		q[i] = float32(r.Float64()*2 - 1)
	}
	return q
}

// benchVectorTable stores n items of dims dimensions and adds one vector
// index per distance function (named after it).
func benchVectorTable(b *testing.B, n, dims int, dists []storage.DistanceFunction) *storage.Table {
	r := rand.New(rand.NewPCG(uint64(n), uint64(dims)))
	tbl := newTable(b, schemaS, Options{})
	for i := range n {
		it := benchVectorItem(r, fmt.Sprintf("item#%08d", i), dims)
		if _, err := tbl.Put(storage.Key{Partition: it["pk"]}, it); err != nil {
			b.Fatal(err)
		}
	}
	for _, d := range dists {
		def := storage.VectorIndexDef{Name: d.String(), Attribute: "v", Dimensions: dims, Distance: d, Projection: storage.Projection{All: true}}
		if err := tbl.AddVectorIndex(def); err != nil {
			b.Fatal(err)
		}
	}
	return tbl
}

func BenchmarkVectorSearch(b *testing.B) {
	sizes := []int{10_000, 100_000}
	if os.Getenv("VECTOR_BENCH_LARGE") == "1" {
		sizes = append(sizes, 1_000_000)
	}
	for _, n := range sizes {
		for _, dims := range []int{128, 768} {
			dists := []storage.DistanceFunction{storage.Cosine, storage.Euclidean, storage.DotProduct}
			if n >= 1_000_000 {
				dists = dists[:1]
			}
			var tbl *storage.Table
			procsList := []int{1}
			if p := runtime.GOMAXPROCS(0); p > 1 {
				procsList = append(procsList, p) // the search splits a large partition among them
			}
			for _, d := range dists {
				for _, procs := range procsList {
					b.Run(fmt.Sprintf("n=%d/dims=%d/%s/procs=%d", n, dims, d, procs), func(b *testing.B) {
						if tbl == nil {
							tbl = benchVectorTable(b, n, dims, dists)
						}
						defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
						r := rand.New(rand.NewPCG(1, 2))
						q := Query{Vector: benchVectorQuery(r, dims), TopK: 10}
						var times []time.Duration
						for b.Loop() {
							start := time.Now()
							res, err := Search(tbl, d.String(), q)
							times = append(times, time.Since(start))
							if err != nil || len(res) != 10 {
								b.Fatalf("%d results, %v", len(res), err)
							}
						}
						reportTimes(b, times)
					})
				}
			}
			tbl = nil
			runtime.GC()
		}
	}
}

// BenchmarkVectorPut overwrites items of 128 and 768 dimensions among
// 10k keys, with no vector index and with one.
func BenchmarkVectorPut(b *testing.B) {
	const keys = 10_000
	for _, dims := range []int{128, 768} {
		r := rand.New(rand.NewPCG(5, uint64(dims)))
		items := make([]storage.Item, keys)
		for i := range items {
			items[i] = benchVectorItem(r, fmt.Sprintf("item#%08d", i), dims)
		}
		for _, indexes := range []int{0, 1} {
			b.Run(fmt.Sprintf("dims=%d/vector-indexes=%d", dims, indexes), func(b *testing.B) {
				tbl := newTable(b, schemaS, Options{})
				if indexes == 1 {
					def := storage.VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: dims, Distance: storage.Cosine,
						Filters: []storage.KeyAttr{{Name: "tenant", Kind: storage.KindS}}, Projection: storage.Projection{All: true}}
					if err := tbl.AddVectorIndex(def); err != nil {
						b.Fatal(err)
					}
				}
				for _, it := range items {
					if _, err := tbl.Put(storage.Key{Partition: it["pk"]}, it); err != nil {
						b.Fatal(err)
					}
				}
				i := 0
				for b.Loop() {
					it := items[i%keys]
					i++
					if _, err := tbl.Put(storage.Key{Partition: it["pk"]}, it); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkVectorMemory reports the live heap an indexed vector costs
// (the index alone: the table's items are stored before it is added),
// against the 4 bytes a dimension of its float32s.
func BenchmarkVectorMemory(b *testing.B) {
	const n = 100_000
	for _, dims := range []int{128, 768} {
		b.Run(fmt.Sprintf("dims=%d", dims), func(b *testing.B) {
			for b.Loop() {
				tbl := benchVectorTable(b, n, dims, nil)
				before := liveHeap()
				def := storage.VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: dims, Distance: storage.Cosine, Projection: storage.Projection{All: true}}
				if err := tbl.AddVectorIndex(def); err != nil {
					b.Fatal(err)
				}
				after := liveHeap()
				runtime.KeepAlive(tbl)
				b.ReportMetric(float64(after-before)/n, "B/vector")
				b.ReportMetric(float64(after-before)/n-float64(4*dims), "B-overhead/vector")
			}
		})
	}
}

// reportTimes reports the mean, the median and the fastest of the
// searches timed, in milliseconds: on a shared machine the fastest is the
// figure least disturbed by others.
func reportTimes(b *testing.B, times []time.Duration) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/op")
	slices.Sort(times)
	if len(times) > 0 {
		b.ReportMetric(float64(times[len(times)/2].Nanoseconds())/1e6, "p50-ms")
		b.ReportMetric(float64(times[0].Nanoseconds())/1e6, "min-ms")
	}
}

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkVectorSearchApprox searches an approximate index (HNSW,
// default options, COSINE) over 10k and 100k vectors of 128 dimensions
// and 10k of 768, reporting recall@10 against the exact answer and the
// graph's build time (build-s), on clustered data (vectors near one of n/100
// centres: the structure embeddings have) and on uniform random vectors (the worst
// case: every point nearly as far as any other). 100k x 768 and 1M on
// VECTOR_BENCH_LARGE=1 (the graph takes minutes to build).
func BenchmarkVectorSearchApprox(b *testing.B) {
	large := os.Getenv("VECTOR_BENCH_LARGE") == "1"
	for _, n := range []int{10_000, 100_000, 1_000_000} {
		for _, dims := range []int{128, 768} {
			if !large && (n > 100_000 || n*dims > 100_000*128) {
				continue
			}
			for _, data := range []string{"clustered", "uniform"} {
				b.Run(fmt.Sprintf("n=%d/dims=%d/data=%s", n, dims, data), func(b *testing.B) {
					r := rand.New(rand.NewPCG(uint64(n), uint64(dims)))
					centres := benchClusters(r, n/100, dims)
					near := func() []float32 { return benchNear(r, centres) }
					if data == "uniform" {
						near = func() []float32 { return benchVectorQuery(r, dims) }
					}
					tbl := newTable(b, schemaS, Options{Approximate: true})
					for i := range n {
						it := benchVectorItem(r, fmt.Sprintf("item#%08d", i), 0)
						it["v"] = benchVectorValue(near())
						if _, err := tbl.Put(storage.Key{Partition: it["pk"]}, it); err != nil {
							b.Fatal(err)
						}
					}
					def := storage.VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: dims, Distance: storage.Cosine, Projection: storage.Projection{All: true}}
					start := time.Now()
					if err := tbl.AddVectorIndex(def); err != nil {
						b.Fatal(err)
					}
					build := time.Since(start)
					queries := make([]Query, 50)
					for i := range queries {
						queries[i] = Query{Vector: near(), TopK: 10}
					}
					recall := recallAt(b, tbl, "vx", queries)
					i := 0
					for b.Loop() {
						if _, err := Search(tbl, "vx", queries[i%len(queries)]); err != nil {
							b.Fatal(err)
						}
						i++
					}
					b.ReportMetric(recall, "recall@10")
					b.ReportMetric(build.Seconds(), "build-s")
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/op")
				})
			}
		}
	}
}

// BenchmarkFloat32OfNumber rounds 1024 numbers as an SDK writes float32
// embeddings ("-0.80463094"), by the fast path and by strconv.
func BenchmarkFloat32OfNumber(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	texts := make([]string, 1024)
	for i := range texts {
		texts[i] = strconv.FormatFloat(float64(float32(r.Float64()*2-1)), 'f', -1, 32)
	}
	var sink float32
	b.Run("Float32OfNumber", func(b *testing.B) {
		for b.Loop() {
			for _, s := range texts {
				f, _ := Float32OfNumber(storage.Number(s))
				sink += f
			}
		}
	})
	b.Run("strconv", func(b *testing.B) {
		for b.Loop() {
			for _, s := range texts {
				f, _ := strconv.ParseFloat(s, 32)
				sink += float32(f)
			}
		}
	})
	_ = sink
}

// BenchmarkVectorPutRatio times Puts into a table without a vector index
// and one with, in alternating rounds of 1000, and reports the fastest
// round of each (µs per Put) and their ratio: on a shared machine, load
// then falls on both alike.
func BenchmarkVectorPutRatio(b *testing.B) {
	const keys, round = 10_000, 1000
	for _, dims := range []int{128, 768} {
		b.Run(fmt.Sprintf("dims=%d", dims), func(b *testing.B) {
			r := rand.New(rand.NewPCG(5, uint64(dims)))
			items := make([]storage.Item, keys)
			for i := range items {
				items[i] = benchVectorItem(r, fmt.Sprintf("item#%08d", i), dims)
			}
			plain, indexed := newTable(b, schemaS, Options{}), newTable(b, schemaS, Options{})
			def := storage.VectorIndexDef{Name: "vx", Attribute: "v", Dimensions: dims, Distance: storage.Cosine,
				Filters: []storage.KeyAttr{{Name: "tenant", Kind: storage.KindS}}, Projection: storage.Projection{All: true}}
			if err := indexed.AddVectorIndex(def); err != nil {
				b.Fatal(err)
			}
			next := 0
			puts := func(tbl *storage.Table) time.Duration {
				start := time.Now()
				for range round {
					it := items[next%keys]
					next++
					if _, err := tbl.Put(storage.Key{Partition: it["pk"]}, it); err != nil {
						b.Fatal(err)
					}
				}
				return time.Since(start)
			}
			for range keys / round { // fill both
				puts(plain)
				puts(indexed)
			}
			best := [2]time.Duration{math.MaxInt64, math.MaxInt64}
			for b.Loop() {
				for j, tbl := range []*storage.Table{plain, indexed} {
					best[j] = min(best[j], puts(tbl))
				}
			}
			b.ReportMetric(float64(best[0].Microseconds())/round, "µs/put-plain")
			b.ReportMetric(float64(best[1].Microseconds())/round, "µs/put-indexed")
			b.ReportMetric(float64(best[1])/float64(best[0]), "ratio")
		})
	}
}

// BenchmarkRestoreApproximate restores a table of 5,000 vectors into a
// DB whose vector indexes are approximate, as a RestoreTableFromBackup
// with -approximateVectors does, then sets the same options on the table
// (what the emulator did when it published a table): each index is built
// once.
func BenchmarkRestoreApproximate(b *testing.B) {
	const n, dims = 5000, 32
	r := rand.New(rand.NewPCG(1, 2))
	approx := Options{Approximate: true}
	src := newDB(b, nil, approx)
	tbl, err := src.CreateTable(storage.TableDef{Name: "src", ID: "id-src", Schema: schemaS,
		VectorIndexes: []storage.VectorIndexDef{{Name: "vx", Attribute: "v", Dimensions: dims, Distance: storage.Euclidean, Projection: storage.Projection{All: true}}}})
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		put(b, tbl, benchVectorItem(r, fmt.Sprint("k", i), dims))
	}
	snap := tbl.Snapshot()
	b.ResetTimer()
	for i := range b.N {
		db := newDB(b, nil, approx)
		t, err := db.RestoreTable("r", fmt.Sprint("id-", i), snap)
		if err != nil {
			b.Fatal(err)
		}
		t.SetVectorIndexer(approx)
	}
}
