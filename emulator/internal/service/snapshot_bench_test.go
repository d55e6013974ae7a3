package service

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"testing"

	"github.com/dynamoemu/dynamoemu/emulator/internal/catalog"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Benchmarks of snapshots: a snapshot and a rewind of a whole namespace
// (CreateBackup's is emulator/internal/backups'), over tables of 10k and (with DYNAMOEMU_BENCH_1M=1) 1M
// items of about 200 bytes, ten items per partition, with a GSI. Each
// costs O(1) per table and index (the rewind also one map entry per
// partition: storage.DB.RestoreTable), so ns/op and B/op should not
// grow with the table, but for the rewind's map.
//
//	go test ./emulator/internal/service -run '^$' -bench 'NamespaceSnapshot|NamespaceRewind' -benchmem
//	DYNAMOEMU_BENCH_1M=1 go test ./emulator/internal/service -run '^$' -bench 'NamespaceSnapshot|NamespaceRewind' -benchmem

// benchBackupSizes are the table sizes the benchmarks sweep.
func benchBackupSizes() []int {
	if os.Getenv("DYNAMOEMU_BENCH_1M") != "" {
		return []int{10_000, 1_000_000}
	}
	return []int{10_000}
}

// benchBackupService returns a service whose namespace AKIDBENCH holds
// table "bench" of n items, loaded straight into storage.
func benchBackupService(b *testing.B, n int) (*Service, *Namespace) {
	b.Helper()
	s := newTestService(b, Config{})
	benchServe(b, s, "CreateTable", `{"TableName":"bench","BillingMode":"PAY_PER_REQUEST",`+
		`"AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},{"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"status","AttributeType":"S"}],`+
		`"KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],`+
		`"GlobalSecondaryIndexes":[{"IndexName":"byStatus","KeySchema":[{"AttributeName":"status","KeyType":"HASH"}],"Projection":{"ProjectionType":"KEYS_ONLY"}}]}`)
	ns := s.Namespace("AKIDBENCH/us-east-1")
	t := ns.getTable("bench")
	for i := range n {
		pk := storage.S(fmt.Sprintf("TENANT#acme#ORDER#%08d", i/10))
		sk := mustNumber(b, strconv.Itoa(i%10))
		it := storage.Item{
			"pk": pk, "sk": sk,
			"status": storage.S([]string{"NEW", "SHIPPED", "PAID"}[i%3]),
			"amount": mustNumber(b, "1234.50"),
			"note":   storage.S("a note of some length to make the item about two hundred bytes long, as items are"),
			"active": storage.Bool(true),
		}
		if _, err := t.data.Put(storage.Key{Partition: pk, Sort: sk}, it); err != nil {
			b.Fatal(err)
		}
	}
	return s, ns
}

func mustNumber(b *testing.B, s string) storage.Value {
	v, err := storage.ParseNumber(s)
	if err != nil {
		b.Fatal(err)
	}
	return storage.N(v)
}

// benchServe runs one operation on s for namespace AKIDBENCH, failing b
// on an error.
func benchServe(b *testing.B, s *Service, op, body string) []byte {
	o, err := s.Lookup(TargetPrefix + op)
	if err != nil {
		b.Fatal(err)
	}
	out, err := s.Serve(o, &Request{Ctx: context.Background(), AccessKey: "AKIDBENCH", Region: "us-east-1", Body: []byte(body)})
	if err != nil {
		b.Fatalf("%s: %v", op, err)
	}
	return out
}

func BenchmarkNamespaceSnapshot(b *testing.B) {
	for _, n := range benchBackupSizes() {
		b.Run(fmt.Sprintf("items=%d", n), func(b *testing.B) {
			s, _ := benchBackupService(b, n)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				_ = s.SnapshotAll()
			}
		})
	}
}

// BenchmarkNamespaceRewind rewinds a namespace whose table has not
// changed since the snapshot (left as it is) and one whose table took a
// write (dropped and restored: one map entry per partition, n/10 here).
func BenchmarkNamespaceRewind(b *testing.B) {
	for _, n := range benchBackupSizes() {
		for _, changed := range []bool{false, true} {
			b.Run(fmt.Sprintf("items=%d/changed=%v", n, changed), func(b *testing.B) {
				s, ns := benchBackupService(b, n)
				spaces := s.SnapshotAll()
				k := storage.Key{Partition: storage.S("TENANT#acme#ORDER#00000000"), Sort: mustNumber(b, "0")}
				it := storage.Item{"pk": k.Partition, "sk": k.Sort, "status": storage.S("CHANGED")}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if changed {
						if _, err := ns.getTable("bench").data.Put(k, it); err != nil {
							b.Fatal(err)
						}
					}
					if err := s.RewindAll(spaces); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkNamespaceFork forks a namespace (Service.Fork, as the
// emulator's branches fork: emulator/branches.go) and drops the fork
// again. With use=none the fork is never used; with use=read a lookup of
// its table reads the catalog it shares between the fork and the drop;
// with use=own the fork gets its own catalog (Service.Namespace), as its
// first write does.
// With held=yes another fork of the same snapshot holds the shared
// catalog throughout, so a fork is a new namespace holding the same
// pointer (the branches of a test suite's parallel tests); with held=no
// the fork is the only one, so each round makes the shared catalog (its
// tables restored, O(1) each) and drops it. The tables are shared either
// way, so the cost should not grow with them.
//
//	go test ./emulator/internal/service -run '^$' -bench NamespaceFork -benchmem
func BenchmarkNamespaceFork(b *testing.B) {
	for _, n := range benchBackupSizes() {
		for _, held := range []string{"yes", "no"} {
			for _, use := range []string{"none", "read", "own"} {
				b.Run(fmt.Sprintf("items=%d/held=%s/use=%s", n, held, use), func(b *testing.B) {
					s, ns := benchBackupService(b, n)
					if held == "yes" {
						if err := s.Fork("sibling/us-east-1", ns.DB().Snapshot(nil)); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportAllocs()
					b.ResetTimer()
					for b.Loop() {
						if err := s.Fork("branch/us-east-1", ns.DB().Snapshot(nil)); err != nil {
							b.Fatal(err)
						}
						switch {
						case use == "read" && s.lookup(catalog.Key{AccessKey: "branch", Region: "us-east-1"}, true).getTable("bench") == nil,
							use == "own" && s.Namespace("branch/us-east-1").getTable("bench") == nil:
							b.Fatal("the branch has no table")
						}
						if err := s.Fork("branch/us-east-1", nil); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// BenchmarkBranchWrite is a PutItem (through Serve, as a request) that
// overwrites an item of a 10k-item table, in the namespace that holds it
// and in a branch of it (Service.Fork, as emulator/branches.go forks;
// the first write makes it): the branch copies a node of the shared tree
// the first time a write touches it, then owns it. The keys cycle
// through 1,024 items spread over the partitions, so the first 1,024
// writes each land where the branch has not written yet. Compare the two
// in interleaved runs (five runs of -count 1 each) by their medians: run
// one after the other, the machine's load drifts between them.
//
//	go test ./emulator/internal/service -run '^$' -bench BranchWrite -benchmem -count 5
func BenchmarkBranchWrite(b *testing.B) {
	const n = 10_000
	for _, where := range []string{"plain", "branch"} {
		b.Run("namespace="+where, func(b *testing.B) {
			s, ns := benchBackupService(b, n)
			key := "AKIDBENCH"
			if where == "branch" {
				if err := s.Fork("branch/us-east-1", ns.DB().Snapshot(nil)); err != nil {
					b.Fatal(err)
				}
				key = "branch"
			}
			o, err := s.Lookup(TargetPrefix + "PutItem")
			if err != nil {
				b.Fatal(err)
			}
			bodies := make([][]byte, 1024)
			for i := range bodies {
				j := (i * 7919) % n
				bodies[i] = fmt.Appendf(nil, `{"TableName":"bench","Item":{"pk":{"S":"TENANT#acme#ORDER#%08d"},"sk":{"N":"%d"},"status":{"S":"PAID"},"note":{"S":"written"}}}`, j/10, j%10)
			}
			req := Request{Ctx: context.Background(), AccessKey: key, Region: "us-east-1"}
			b.ReportAllocs()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				req.Body, req.Out = bodies[i%len(bodies)], nil
				if _, err := s.Serve(o, &req); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkBranchesHeap forks a 10k-item namespace 1,000 times and
// reports the live heap the branches add, against the heap the base
// holds (branch-heap-%: the 1,000 branches' bytes as a share of the
// base's). Heap, not time: runtime.ReadMemStats after a GC. With
// use=none no branch is used (each is a map entry, and all share the
// base's snapshot); with use=read each answers one GetItem from the view
// every fork of the snapshot shares, and makes nothing; with use=write
// each takes one PutItem, which makes its namespace and tables, sharing
// the items, the indexes and the decoded definitions with the base
// (docs/backups.md, "Branches", says what each part costs).
//
//	go test ./emulator/internal/service -run '^$' -bench BranchesHeap -benchtime 1x
func BenchmarkBranchesHeap(b *testing.B) {
	const n, branches = 10_000, 1_000
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	get := []byte(`{"TableName":"bench","Key":{"pk":{"S":"TENANT#acme#ORDER#00000000"},"sk":{"N":"0"}}}`)
	put := []byte(`{"TableName":"bench","Item":{"pk":{"S":"TENANT#acme#ORDER#00000000"},"sk":{"N":"0"}}}`)
	for _, use := range []string{"none", "read", "write"} {
		b.Run("use="+use, func(b *testing.B) {
			for b.Loop() {
				before := heap()
				s, ns := benchBackupService(b, n)
				withBase := heap()
				for i := range branches {
					key := fmt.Sprintf("branch%d", i)
					if err := s.Fork(key+"/us-east-1", ns.DB().Snapshot(nil)); err != nil {
						b.Fatal(err)
					}
					if use != "none" {
						op, body := "GetItem", get
						if use == "write" {
							op, body = "PutItem", put
						}
						o, _ := s.Lookup(TargetPrefix + op)
						if _, err := s.Serve(o, &Request{Ctx: context.Background(), AccessKey: key, Region: "us-east-1", Body: body}); err != nil {
							b.Fatal(err)
						}
					}
				}
				withBranches := heap()
				base, added := float64(withBase-before), float64(withBranches-withBase)
				b.ReportMetric(base, "base-B")
				b.ReportMetric(added/branches, "B/branch")
				b.ReportMetric(100*added/base, "branch-heap-%")
				runtime.KeepAlive(s)
			}
		})
	}
}
