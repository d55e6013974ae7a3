package lease

import (
	"sync"
	"testing"
)

type benchThing struct {
	Owned
	a int
}

// BenchmarkGetPut: a Get and a Put of a lease.Pool against sync.Pool's
// with the same zeroing, what every pooled request pays twice or so.
func BenchmarkGetPut(b *testing.B) {
	b.Run("lease", func(b *testing.B) {
		p := NewPool(Config[*benchThing]{
			New:   func() *benchThing { return new(benchThing) },
			Reset: func(t *benchThing) bool { *t = benchThing{}; return true },
		})
		b.ReportAllocs()
		for b.Loop() {
			t := p.Get()
			t.a = 1
			p.Put(t)
		}
	})
	b.Run("sync.Pool", func(b *testing.B) {
		p := sync.Pool{New: func() any { return new(benchThing) }}
		b.ReportAllocs()
		for b.Loop() {
			t := p.Get().(*benchThing)
			t.a = 1
			*t = benchThing{}
			p.Put(t)
		}
	})
}
