package expr

import (
	"sync"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Pooled key conditions. A KeyCondition is bound afresh for every Query
// (its values are the request's); a caller that knows when the query is
// done may give it back with Release for the next one. One not given back
// is left to the collector.

var keyConditionPool = sync.Pool{New: func() any { return new(KeyCondition) }}

// newKeyCondition returns a KeyCondition of partition value v and no sort
// condition, from the pool when one is there.
func newKeyCondition(v storage.Value) *KeyCondition {
	kc := keyConditionPool.Get().(*KeyCondition)
	*kc = KeyCondition{Partition: v}
	return kc
}

// Release gives kc back to the pool. Nothing may use kc afterwards; the
// values copied out of it stay valid.
func (kc *KeyCondition) Release() {
	*kc = KeyCondition{}
	keyConditionPool.Put(kc)
}
