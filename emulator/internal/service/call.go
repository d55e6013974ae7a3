package service

import (
	"context"
	"github.com/dynamoemu/dynamoemu/emulator/internal/boundary"
	"time"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/lease"
)

// call is what one request hands to an operation: the database it acts on and
// the request's context, clock and logger.
type call struct {
	ctx       context.Context
	ns        *Namespace    // the database selected by access key + region (or shared)
	region    string        // region from the request's credential scope
	account   string        // account id for ARNs (DynamoDB Local's "000000000000")
	accessKey string        // access key id from the request's credential
	keyID     string        // Request.KeyID
	tenantHdr string        // the x-tenant-code header, for the stages' key guards (Call.Tenant)
	op        string        // operation name, e.g. "PutItem"
	decl      boundary.Decl // what the operation declared it touches (Call.Declared)
	requestID string        // x-amzn-RequestId of this request
	host      string        // the request's Host (host[:port]), for DescribeEndpoints
	now       time.Time     // the clock read once when the request arrived
	clock     func() time.Time
	svc       *Service
	out       []byte         // spare buffer for the response body (may be nil)
	tableName *string        // where the request's TableName goes, for the request log; nil: nowhere
	values    *wire.Deferred // a value's error not yet reported (value_order.go)
	inLen     int            // bytes of the JSON body register's adapter decoded the input from; 0: none (item_size_bound.go)
	scope     scope          // a data-plane request's scope: its use of a table (pipeline_item.go)
	in        any            // a data-plane request's decoded input, for the stages (Call.Input)

	lease.Owned // lent by calls for one request (below)
}

// Pooled calls. Serve takes each request's call from calls and gives it
// back, zeroed, once the operation has returned: nothing keeps a *call
// past its request. The operations use it while they run; the only
// goroutines the service starts (the idempotency janitor, PITR's disk
// sync) do not see it; a stage use (TableUse.c) is ended, and given back to
// its own pool, before the answer, and one of a failed request is never
// used again; bulk writes and imports run on a copy (Call.Detached:
// emulator/internal/transfers), and so does a feature's work in another
// region's namespace during the request (Call.InRegion, CopyTable);
// errors and outputs hold no call. An operation that panics does not give its
// call back. Under the race detector (lease's checked mode) a use of a
// call given back panics in newUse.
//
// The pool pays on every operation. BenchmarkOps handler, 2000x -count
// 5, medians, pool on -> off: PutItem 816 -> 1040 B/op (+27%), 10 -> 11
// allocs; GetItem 233 -> 457 B/op (+96%); UpdateItemCondition 1308 ->
// 1533 B/op (+17%); QueryPartition10 295 -> 521 B/op (+77%);
// ScanFiltered 714 -> 893 B/op (+25%); TransactGet2 1914 -> 2138 B/op
// (+12%); TransactWrite2 9490 -> 9719 B/op (+2%), 80 -> 82 allocs.
var calls = lease.NewPool(lease.Config[*call]{
	New: func() *call { return new(call) },
	// Zeroed, so the pool holds no request's context, buffers or
	// namespace.
	Reset: func(c *call) bool { *c = call{}; return true },
})

// putCall gives c back: the caller takes its leave of c.
func putCall(c *call) { calls.Put(c) }
