package storage

import (
	"encoding/binary"
	"math/rand/v2"
	"strconv"
	"testing"
)

// BenchmarkItreeSet: inserting into an index's tree of 1M entries, by
// keys that start with a hash as index keys do (index_entry.go), so in
// no order: one new entry an op, each of its own index key (random), or
// the next of an index partition of 10 written in its order (grouped,
// as the memory benchmark's GSI by email). cpu-ns/op is the process's
// CPU time an insert: on a shared machine steadier than the time.
func BenchmarkItreeSet(b *testing.B) {
	const size = 1_000_000
	for _, c := range []struct {
		name string
		per  int
	}{{"random", 1}, {"grouped", 10}} {
		b.Run(c.name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(3, uint64(c.per)))
			var hash [4]byte
			next, key := 0, ""
			entry := func() ientry {
				if next%c.per == 0 {
					binary.BigEndian.PutUint32(hash[:], r.Uint32())
					key = string(hash[:]) + "someone." + strconv.Itoa(next) + "@example.com"
				}
				e := newIentry(key, keyPivot("user#"+strconv.Itoa(next/c.per), strconv.Itoa(next%c.per)))
				next++
				return e
			}
			tr := newItree()
			for range size {
				tr.Set(entry())
			}
			cpu := cpuTime()
			for b.Loop() {
				tr.Set(entry())
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
