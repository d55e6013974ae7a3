package service

import (
	"bytes"
	"fmt"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/emulator/internal/oversize"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// limits is the one table of the request members a client may send far
// over AWS's limits, and of what the request decoder keeps of each as it
// reads the body (wire.Limits): an element past what its row keeps is
// decoded into one scratch value, shown to the row's Past and dropped,
// its bytes too, so that a request of 15 MB holds what its answer needs,
// not its elements. The answer is the whole body's (the same-answer
// tests in oversize_test.go and beside it).
//
//	member                                        kept                  of the others, for the answer
//	TransactWriteItems, TransactGetItems:
//	  TransactItems                               100                   their count, their violations
//	BatchWriteItem: a table's list                25                    its count, its echo (oversize.Echoes)
//	BatchGetItem: a table's Keys                  101, or past 101      their echo; parked past 101 in all
//	                                              in all its first one  (oversize.Tables)
//	  and its AttributesToGet                     64 KB of echo         parked until the body ends
//	ExecuteTransaction: TransactStatements        101 (partiqlops)      nothing: the count is the answer
//	BatchExecuteStatement: Statements             26 (partiqlops)       their violations and kinds
//	ExecuteStatement: Parameters                  8,192 (wire.Params)   their count
//	an attribute's own list, anywhere             400 KB (ItemBytes)    its deepest element
//	AttributesToGet of GetItem, Query and Scan    all, as offsets of the body (expr.NameList)
//	KeyConditions, QueryFilter, ScanFilter,       all, as lists, not maps (wire_conditions.go,
//	Expected                                      wire_filters.go)
//	ExpressionAttributeValues                     16K, then offsets (wire_compact.go); over 2 MB none
var limits = wire.Limits{ItemBytes: maxItemBytes}

// Limit adds a feature's row to the table (limits): how the decoder
// reads its operation's list member of in (a pointer to its input
// struct). Call it from the feature's registration.
func Limit(_ Registrar, in any, member string, p wire.List) { limits.Add(in, member, p) }

func init() {
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
			wr := e.(*WriteRequest)
			at.Owner.(*BatchWriteItemInput).past.Add(at.Key, func(b *bytes.Buffer) { writeRequestEchoAt(b, at.I, *wr) })
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
