package service

import (
	"bytes"
	"fmt"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/oversize"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// Limit adds a feature's row to its service's table of limits (the
// core's are coreLimits'): how the request decoder reads its operation's
// list member of the input struct O, whose elements are E. Call it from
// the feature's Register; a row naming a member O lacks, or one whose
// elements are not E, panics there (wire.Add).
func Limit[O, E any](r Registrar, member string, row wire.Row[O, E]) {
	wire.Add(r.sm.limits, member, row)
}

// coreLimits is the core's table of the request members a client may send
// far over AWS's limits, and of what the request decoder keeps of each as
// it reads the body (wire.Limits): an element past what its row keeps is
// decoded into one scratch value, shown to the row's Past and dropped, its
// bytes too, so that a request of 15 MB holds what its answer needs, not
// its elements (docs/server.md has the table of every row). The
// answer is the whole body's (the same-answer tests in oversize_test.go
// and beside it).
func coreLimits() *wire.Limits {
	// The items a write puts: read for their size (and, in a batch over
	// its count limit, the first names of each: itemEcho) before anything
	// else reads them.
	limits := (&wire.Limits{ItemBytes: maxItemBytes}).CutItem(&PutItemInput{}, "Item").
		CutItem(&PutRequest{}, "Item").CutItem(&TransactPut{}, "Item")
	wire.Add(limits, "TransactItems", wire.Row[TransactWriteItemsInput, TransactWriteItem]{Max: maxTransactItems,
		Start: func(in *TransactWriteItemsInput, _ wire.At) { in.past = oversize.Past{} },
		Past: func(in *TransactWriteItemsInput, at wire.At, item *TransactWriteItem) {
			in.past.Add(func(cs *apierr.Constraints) { txWriteViolations(cs, at.I, item) })
			if p, err := item.params(); err == nil {
				wire.RecycleItem(p.key) // the next element reuses the map
			}
		}})
	wire.Add(limits, "TransactItems", wire.Row[TransactGetItemsInput, TransactGetItem]{Max: maxTransactItems,
		Start: func(in *TransactGetItemsInput, _ wire.At) { in.past = oversize.Past{} },
		Past: func(in *TransactGetItemsInput, at wire.At, item *TransactGetItem) {
			in.past.Add(func(cs *apierr.Constraints) { txGetViolations(cs, at.I, item) })
			if g := item.Get; g != nil {
				wire.RecycleItem(g.Key)
			}
		}})
	wire.Add(limits, "RequestItems", wire.Row[BatchWriteItemInput, WriteRequest]{Max: maxBatchWrites,
		Start: func(in *BatchWriteItemInput, at wire.At) {
			switch {
			case at.I >= 0:
				in.past.Start(at.Key)
			case in.RequestItems == nil: // a map again after a null: its names are gone
				in.past = oversize.Echoes{Keep: echoKeep, Sep: len("=[], ")}
			}
		},
		Past: func(in *BatchWriteItemInput, at wire.At, wr *WriteRequest) {
			oversize.Add(&in.past, in.RequestItems, at.Key, func(b *bytes.Buffer) { writeRequestEchoAt(b, at.I, *wr) })
			if wr.PutRequest != nil {
				wire.RecycleItem(wr.PutRequest.Item) // echoed: the next element reuses the map
			}
			if wr.DeleteRequest != nil {
				wire.RecycleItem(wr.DeleteRequest.Key)
			}
		}})
	wire.Add(limits, "Keys", wire.Row[KeysAndAttributes, wire.WireItem]{
		Keep:  func(r *KeysAndAttributes, at wire.At) bool { return tables(at).KeepKey(&r.rest, at.I) },
		Start: func(r *KeysAndAttributes, at wire.At) { tables(at).StartKeys(&r.rest) },
		Past: func(r *KeysAndAttributes, at wire.At, key *wire.WireItem) {
			tables(at).PastKey(&r.rest, at.I, *key)
			wire.RecycleItem(*key)
		}})
	wire.Add(limits, "AttributesToGet", wire.Row[KeysAndAttributes, string]{
		Keep: func(r *KeysAndAttributes, at wire.At) bool {
			return tables(at).KeepName(&r.rest, r.AttributesToGet, at.I)
		},
		Start: func(r *KeysAndAttributes, at wire.At) { tables(at).StartNames(&r.rest, &r.AttributesToGet) },
		Past:  func(r *KeysAndAttributes, at wire.At, name *string) { tables(at).PastName(&r.rest, *name) }})
	return limits
}

// tables is what the decoder did not keep of a BatchGetItem's tables'
// lists (at.In's).
func tables(at wire.At) *oversize.Tables {
	in := at.In.(*BatchGetItemInput)
	in.rest.Keep, in.rest.EchoKeep = maxBatchGetKeys+1, echoKeep
	return &in.rest
}

// finisher is an input whose reading ends with a step of its own,
// whether it decoded (ok) or not.
type finisher interface{ finish(ok bool) error }

// finish ends a BatchGetItem's reading (oversize.Tables.Finish): what the
// decoder parked goes back to a table the answer may read.
func (in *BatchGetItemInput) finish(ok bool) error {
	in.rest.Keep, in.rest.EchoKeep = maxBatchGetKeys+1, echoKeep
	err := in.rest.Finish(ok, badRequestItemsName(in.RequestItems), func(each func(*oversize.Table, *[]wire.WireItem, *[]string)) {
		for _, r := range in.RequestItems {
			if r != nil {
				each(&r.rest, &r.Keys, &r.AttributesToGet)
			}
		}
	})
	if err != nil {
		return fmt.Errorf("%w (%w)", apierr.Internal(), err)
	}
	return nil
}
