package expr

import (
	"github.com/dynamoemu/dynamoemu/internal/lease"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Pooled key conditions. A KeyCondition is bound afresh for every Query
// (its values are the request's); a caller that knows when the query is
// done may give it back with Release for the next one. One not given back
// is left to the collector.
//
// The pool pays on Query. BenchmarkOps/QueryPartition10/handler, 2000x
// -count 5, medians, pool on -> off: 295 -> 403 B/op (+37%), 7 -> 8
// allocs/op (+14%).
var keyConditions = lease.NewPool(lease.Config[*KeyCondition]{
	New:   func() *KeyCondition { return new(KeyCondition) },
	Reset: func(kc *KeyCondition) bool { *kc = KeyCondition{}; return true },
})

// newKeyCondition returns a KeyCondition of partition value v and no sort
// condition, from the pool when one is there.
func newKeyCondition(v storage.Value) *KeyCondition {
	kc := keyConditions.Get()
	*kc = KeyCondition{Partition: v}
	return kc
}

// Release gives kc back to the pool. Nothing may use kc afterwards (under
// the race detector Match panics); the values copied out of it stay
// valid.
func (kc *KeyCondition) Release() { keyConditions.Put(kc) }
