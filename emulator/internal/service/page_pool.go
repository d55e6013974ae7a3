package service

import (
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/lease"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Pooled page slices. A Query or Scan page of whole items collects them
// in a []storage.EncodedItem (about 120 bytes an entry: a page of ten
// items made room for 16, 1.9 KB, more than half of what a Query
// allocated). The slice dies with the answer: register's adapter encodes
// the page and then calls its recycle, which clears the entries (they
// point into the table's records) and gives the slice back for the next
// page. A page handed to anything else (PartiQL's SELECT wraps it in its
// own output) is never given back and is left to the collector.

// storedPoolMax is the most entries a slice may have room for to be kept:
// a pool of pages of a thousand items would hold their memory for small
// pages.
const storedPoolMax = 256

// storedPool are the page slices, given back empty (cleared: the entries
// point into the table's records).
//
// The pool pays on Query and Scan. BenchmarkOps handler, 2000x -count 5,
// medians, pool on -> off: QueryPartition10 295 -> 2365 B/op (+702%),
// 7 -> 9 allocs; ScanFiltered 714 -> 8895 B/op (+1146%), 15 -> 17.
var storedPool = lease.NewPool(lease.Config[*[]storage.EncodedItem]{
	Reset: func(b *[]storage.EncodedItem) bool {
		s := *b
		clear(s)
		*b = s[:0]
		return cap(s) <= storedPoolMax
	},
})

// getStored returns an empty slice, with room for about hint items when
// it is a new one, in a box that putStored takes back.
func getStored(hint int) *[]storage.EncodedItem {
	if b, ok := storedPool.TryGet(); ok {
		return b
	}
	s := make([]storage.EncodedItem, 0, hint)
	return &s
}

// putStored gives back the slice in b. Nothing may use the slice
// afterwards.
func putStored(b *[]storage.EncodedItem) { storedPool.Put(b) }

// readRequests are Query's and Scan's requests, each with room for its
// page's answer (readRequest.out): one allocation for both, given back
// with the page once it is encoded, zeroed (so is the page, req.out). A
// request whose page is never encoded by the adapter (an error,
// PartiQL's SELECT) is left to the collector.
//
// The pool pays on Query and Scan. BenchmarkOps handler, 2000x -count 5,
// medians, pool on -> off: QueryPartition10 295 -> 706 B/op (+139%),
// 7 -> 8 allocs; ScanFiltered 714 -> 1124 B/op (+57%), 15 -> 16.
var readRequests = lease.NewPool(lease.Config[*readRequest]{
	New:   func() *readRequest { return new(readRequest) },
	Reset: func(req *readRequest) bool { *req = readRequest{}; return true },
})

// recycle gives back the page's slice of whole items, its table's
// LastEvaluatedKey map and its request (which holds the page itself) once
// the page is encoded (register's adapter). Nothing may use the page
// afterwards.
func (o *pageOutput) recycle() {
	if o.lekPooled {
		wire.RecycleItem(o.LastEvaluatedKey)
		o.LastEvaluatedKey, o.lekPooled = nil, false
	}
	if o.storedBox != nil {
		*o.storedBox = o.stored
		putStored(o.storedBox)
		o.stored, o.storedBox = nil, nil
	}
	if req := o.req; req != nil {
		readRequests.Put(req) // o is req.out: given back with it
	}
}

// pooledKeyItem is ks.KeyItem(k) in a map of the decoder's pool
// (wire.ItemMap): a page's LastEvaluatedKey, given back with the page.
func pooledKeyItem(ks storage.KeySchema, k storage.Key) storage.Item {
	it := wire.ItemMap(2)
	ks.SetKey(it, k)
	return it
}
