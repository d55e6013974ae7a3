package expr

import (
	"github.com/dynamoemu/dynamoemu/internal/lease"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Pooled Compilers. A Compiler lives for one request's compile calls and
// holds nothing its results keep (Conditions, Updates, Projections and
// key conditions copy their values and names), so a caller that knows
// when it is done may give it back for the next request.
//
// The pool pays on every operation with an expression. BenchmarkOps
// handler, 2000x -count 5, medians, pool on -> off: PutItem 816 -> 1009
// B/op (+24%), 10 -> 11 allocs; GetItem 233 -> 425 B/op (+82%);
// UpdateItemCondition 1308 -> 1502 B/op (+15%); QueryPartition10 295 ->
// 481 B/op (+63%); ScanFiltered 714 -> 863 B/op (+21%); TransactGet2
// 1914 -> 2299 B/op (+20%), 33 -> 35 allocs.
var compilers = lease.NewPool(lease.Config[*Compiler]{
	New:   func() *Compiler { return new(Compiler) },
	Reset: func(c *Compiler) bool { *c = Compiler{}; return true },
})

// NewPooledCompiler is NewCachedCompiler with a Compiler from a pool; the
// caller may give it back with Release once it is done compiling.
func NewPooledCompiler(cache *Cache, names map[string]string, values map[string]storage.Value) *Compiler {
	c := compilers.Get()
	*c = Compiler{names: names, values: values, err: checkPlaceholders(names, values), cache: cache}
	return c
}

// Release gives c back to the pool. Nothing may use c afterwards (under
// the race detector its methods panic); what it compiled stays valid.
func (c *Compiler) Release() { compilers.Put(c) }
