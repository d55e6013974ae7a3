package service

import (
	"sync"

	"github.com/dynamoemu/dynamoemu/storage"
)

// Scratch maps of UpdateItem's patch path (update_patch.go). The path
// decodes the few attributes an update and its condition read into one
// map and applies the update into another; both die with the request
// (what outlives it, the UPDATED_* projections and the written record,
// is copied out of them). Two maps of a few entries cost about 900 bytes
// per request, a quarter of what the request allocates, so they are
// pooled: cleared, a small map keeps its memory for the next request.

// patchScratch is one request's pair of maps.
type patchScratch struct {
	old, next storage.Item
}

// patchScratchMax is the most entries a map may hold and still go back
// to the pool: a rare update of many attributes does not keep its large
// maps in it.
const patchScratchMax = 16

var patchScratchPool = sync.Pool{New: func() any {
	return &patchScratch{old: make(storage.Item), next: make(storage.Item)}
}}

// getPatchScratch returns an empty pair of maps.
func getPatchScratch() *patchScratch { return patchScratchPool.Get().(*patchScratch) }

// put empties s and returns it to the pool. Nothing may use its maps
// afterwards.
func (s *patchScratch) put() {
	if len(s.old) > patchScratchMax || len(s.next) > patchScratchMax {
		return
	}
	clear(s.old)
	clear(s.next)
	patchScratchPool.Put(s)
}
