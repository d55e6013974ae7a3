package service

import (
	"bytes"

	"github.com/dynamoemu/dynamoemu/emulator/internal/oversize"
	"github.com/dynamoemu/dynamoemu/emulator/internal/tablespec"
	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
	"github.com/dynamoemu/dynamoemu/internal/expr"
)

// Requests whose list members are far over AWS's limits (more than 100
// keys a table in a BatchGetItem, 25 writes a table in a BatchWriteItem,
// 100 actions in a transaction) are read in their raw body before they
// are decoded, and a reduced body that gets the same answer is decoded
// instead: package oversize does the reading; here is how an element is
// decoded, checked and echoed, with the service's input types. The
// PartiQL feature registers its own for BatchExecuteStatement and
// ExecuteTransaction (Prescan).

// prescan reads a request's raw body before it is decoded, and what the
// edge cut of it as it arrived (nothing: cut.Elems 0). It returns the
// body to decode instead (nil: the body as it is) and what to set in the
// decoded input (nil: nothing).
type prescan func(body []byte, cut Cut) (reduced []byte, fill func(in any))

// Prescan registers how a feature's operation name reads its raw body before it is
// decoded: cut, how the edge reads it as it arrives (nil: whole; Operation.ListCut), and
// reduce, the body to decode instead of the one held (nil: as it is), one that gets the
// same answer, for a list far over its limit (package oversize has the readers). Call it
// before the operation is registered.
func Prescan(r Registrar, name string, cut *oversize.ListCut, reduce func(body []byte) []byte) {
	if _, ok := r.sm.ops[name]; ok {
		panic("emulator: prescan of " + name + " after its operation")
	}
	r.sm.prescans[name] = func(body []byte, _ Cut) ([]byte, func(any)) { return reduce(body), nil }
	r.sm.cuts[name] = cut
}

// prescanOf returns the prescan of operation name (nil: its body is
// decoded as it is).
func (sm *seams) prescanOf(name string) prescan {
	if p, ok := sm.prescans[name]; ok {
		return p
	}
	switch name {
	case "BatchGetItem":
		return prescanBatchGet
	case "TransactWriteItems", "TransactGetItems", "BatchWriteItem": // as their cuts, in the body held whole
		return coreCut(name).Again
	case "GetItem", "Query", "Scan": // AttributesToGet cut after its first repeated name
		return func(b []byte, _ Cut) ([]byte, func(any)) {
			return oversize.RepeatedNames(b, "AttributesToGet", expr.MaxAttributeNameBytes), nil
		}
	}
	return nil
}

// prescanBatchGet cuts each AttributesToGet after its first repeat (not
// beside a bad table name), then Keys far over 100 as its cut does.
func prescanBatchGet(body []byte, _ Cut) ([]byte, func(any)) {
	cut := oversize.BatchGetRepeatedNames(body, expr.MaxAttributeNameBytes, tablespec.BatchTableName)
	if cut != nil {
		body = cut
	}
	if keys, fill := batchGetCut.Reduce(body); keys != nil {
		return keys, fill
	}
	return cut, nil
}

// Cut is what an Operation's ListCut cut from a body as it arrived.
type Cut = oversize.Cut

// ListCut is how the edge reads the body as it arrives (nil: whole).
func (o Operation) ListCut() *oversize.ListCut {
	if o.h == nil {
		return nil
	}
	return o.h.cut
}

// coreCut is how the edge reads a core operation's body (nil: whole): a transaction
// keeps 100 actions, the rest checked, counted; a BatchWriteItem 25 writes a table, each
// echoed and checked (oversize.MapCut); a BatchGetItem 101 keys a table and its echo's.
func coreCut(name string) *oversize.ListCut {
	switch name {
	case "BatchGetItem":
		return &batchGetCut
	case "TransactWriteItems":
		return &transactWriteCut
	case "TransactGetItems":
		return &transactGetCut
	case "BatchWriteItem":
		return &batchWriteCut
	}
	return nil
}

var (
	transactWriteCut = oversize.ListCut{Member: "TransactItems", Keep: maxTransactItems, Size: maxTransactItems,
		Checker: oversize.Checked(`{"TransactItems":[`, `]}`, func(in *TransactWriteItemsInput) bool {
			ok := transactWriteConstraints(in) == nil
			for i := range in.TransactItems { // checked: the next run reuses the maps
				if p, err := in.TransactItems[i].params(); err == nil {
					wire.RecycleItem(p.key)
				}
			}
			return ok
		}),
		Fill: func(in any, n int) { in.(*TransactWriteItemsInput).past = n - maxTransactItems }}
	transactGetCut = oversize.ListCut{Member: "TransactItems", Keep: maxTransactItems, Size: maxTransactItems,
		Checker: oversize.Checked(`{"TransactItems":[`, `]}`, func(in *TransactGetItemsInput) bool {
			defer in.recycle() // checked: the next run reuses the maps
			return transactGetConstraints(in) == nil
		}),
		Fill: func(in any, n int) { in.(*TransactGetItemsInput).past = n - maxTransactItems }}
	batchWriteCut = oversize.ListCut{Member: "RequestItems", Keep: maxBatchWrites, Size: 1024,
		Echoer: func() func(*bytes.Buffer, []byte, wire.Span, int) (int, bool, bool) {
			var part BatchWriteItemInput
			return func(b *bytes.Buffer, body []byte, run wire.Span, at int) (int, bool, bool) {
				clear(part.RequestItems)
				ok, clean := oversize.DecodeRun(body, run, `{"RequestItems":{"t":[`, `]}}`, &part)
				if !ok {
					return 0, false, false
				}
				wrs := part.RequestItems["t"]
				for j, wr := range wrs {
					writeRequestEchoAt(b, at+j, wr)
					if wr.PutRequest != nil {
						wire.RecycleItem(wr.PutRequest.Item) // echoed: the next run reuses the map
					}
					if wr.DeleteRequest != nil {
						wire.RecycleItem(wr.DeleteRequest.Key)
					}
				}
				return len(wrs), true, clean
			}
		},
		Echoed: func(in any, echo []string) { in.(*BatchWriteItemInput).echo = echo }}
	batchGetCut = oversize.ListCut{Member: "RequestItems", List: "Keys", Keep: maxBatchGetKeys + 1, Size: 1024, Measurer: oversize.MeasureKeys, Names: "AttributesToGet", Table: tablespec.BatchTableName}
)
