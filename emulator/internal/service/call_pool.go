package service

import "sync"

// Pooled calls. Serve takes each request's call from calls and gives it
// back, zeroed, once the operation has returned: nothing keeps a *call
// past its request. The operations use it while they run; the only
// goroutines the service starts (the idempotency janitor, PITR's disk
// sync) do not see it; a fault use (fxUse.c) is ended, and given back to
// its own pool, before the answer, and one of a failed request is never
// used again; bulk writes and imports run on a copy (bulk_ops.go,
// imports.go); the replicator makes its own calls (replicaCall); errors
// and outputs hold no call. An operation that panics does not give its
// call back.
var calls = sync.Pool{New: func() any { return new(call) }}

// putCall zeroes c, so the pool holds no request's context, buffers or
// namespace, and gives it back.
func putCall(c *call) {
	*c = call{}
	calls.Put(c)
}
