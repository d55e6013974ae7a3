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
// list member of in (a pointer to its input struct). Call it from the
// feature's Register.
func Limit(r Registrar, in any, member string, p wire.List) { r.sm.limits.Add(in, member, p) }

// coreLimits is the core's table of the request members a client may send
// far over AWS's limits, and of what the request decoder keeps of each as
// it reads the body (wire.Limits): an element past what its row keeps is
// decoded into one scratch value, shown to the row's Past and dropped, its
// bytes too, so that a request of 15 MB holds what its answer needs, not
// its elements (docs/server.md has the table of every row). The
// answer is the whole body's (the same-answer tests in oversize_test.go
// and beside it).
func coreLimits() *wire.Limits {
	limits := (&wire.Limits{ItemBytes: maxItemBytes}).CutItem(&PutItemInput{}, "Item") // PutItem reads only its size first
	limits.Add(&TransactWriteItemsInput{}, "TransactItems", wire.List{Max: maxTransactItems,
		Start: func(at wire.At) { at.Owner.(*TransactWriteItemsInput).past = oversize.Past{} },
		Past: func(at wire.At, e any) {
			item := e.(*TransactWriteItem)
			at.Owner.(*TransactWriteItemsInput).past.Add(func(cs *apierr.Constraints) { txWriteViolations(cs, at.I, item) })
			if p, err := item.params(); err == nil {
				wire.RecycleItem(p.key) // the next element reuses the map
			}
		}})
	limits.Add(&TransactGetItemsInput{}, "TransactItems", wire.List{Max: maxTransactItems,
		Start: func(at wire.At) { at.Owner.(*TransactGetItemsInput).past = oversize.Past{} },
		Past: func(at wire.At, e any) {
			item := e.(*TransactGetItem)
			at.Owner.(*TransactGetItemsInput).past.Add(func(cs *apierr.Constraints) { txGetViolations(cs, at.I, item) })
			if g := item.Get; g != nil {
				wire.RecycleItem(g.Key)
			}
		}})
	limits.Add(&BatchWriteItemInput{}, "RequestItems", wire.List{Max: maxBatchWrites,
		Start: func(at wire.At) {
			switch in := at.Owner.(*BatchWriteItemInput); {
			case at.I >= 0:
				in.past.Start(at.Key)
			case in.RequestItems == nil: // a map again after a null: its names are gone
				in.past = oversize.Echoes{Keep: echoKeep, Sep: len("=[], ")}
			}
		},
		Past: func(at wire.At, e any) {
			wr, in := e.(*WriteRequest), at.Owner.(*BatchWriteItemInput)
			oversize.Add(&in.past, in.RequestItems, at.Key, func(b *bytes.Buffer) { writeRequestEchoAt(b, at.I, *wr) })
			if wr.PutRequest != nil {
				wire.RecycleItem(wr.PutRequest.Item) // echoed: the next element reuses the map
			}
			if wr.DeleteRequest != nil {
				wire.RecycleItem(wr.DeleteRequest.Key)
			}
		}})
	limits.Add(&KeysAndAttributes{}, "Keys", wire.List{
		Keep:  func(at wire.At) bool { return tables(at).KeepKey(&at.Owner.(*KeysAndAttributes).rest, at.I) },
		Start: func(at wire.At) { tables(at).StartKeys(&at.Owner.(*KeysAndAttributes).rest) },
		Past: func(at wire.At, e any) {
			tables(at).PastKey(&at.Owner.(*KeysAndAttributes).rest, at.I, *e.(*wire.WireItem))
			wire.RecycleItem(*e.(*wire.WireItem))
		}})
	limits.Add(&KeysAndAttributes{}, "AttributesToGet", wire.List{
		Keep: func(at wire.At) bool {
			r := at.Owner.(*KeysAndAttributes)
			return tables(at).KeepName(&r.rest, r.AttributesToGet, at.I)
		},
		Start: func(at wire.At) {
			r := at.Owner.(*KeysAndAttributes)
			tables(at).StartNames(&r.rest, &r.AttributesToGet)
		},
		Past: func(at wire.At, e any) { tables(at).PastName(&at.Owner.(*KeysAndAttributes).rest, *e.(*string)) }})
	return limits
}

// echoKeep is how much of an echo is kept: the answer shows apierr.MaxEcho
// bytes of it, and whether the byte after them starts a rune.
const echoKeep = apierr.MaxEcho + 8

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
