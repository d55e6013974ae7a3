package service

import (
	"bytes"
	"io"
	"sync/atomic"

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

// prescan reads a request's raw body before it is decoded. It returns
// the body to decode instead (nil: the body as it is) and what to set in
// the decoded input (nil: nothing).
type prescan func(body []byte) (reduced []byte, fill func(in any))

// prescanOff, set by a test, decodes every body whole (the answer
// prescans must give).
var prescanOff atomic.Bool

// featurePrescans are the prescans features registered (Prescan).
// Filled by init functions only (made by the first); read-only
// afterwards.
var featurePrescans map[string]prescan

// Prescan registers how a feature's operation name reads its raw body
// before the body is decoded: reduce returns the body to decode instead
// (nil: the body as it is), one that gets the same answer, for a list
// far over its limit (package oversize has the readers). Call it before
// the operation is registered.
func Prescan(r Registrar, name string, reduce func(body []byte) []byte) {
	if _, ok := ops[name]; ok {
		panic("emulator: prescan of " + name + " after its operation")
	}
	if featurePrescans == nil {
		featurePrescans = map[string]prescan{}
	}
	featurePrescans[name] = func(body []byte) ([]byte, func(any)) { return reduce(body), nil }
}

// prescanOf returns the prescan of operation name (nil: its body is
// decoded as it is).
func prescanOf(name string) prescan {
	if p, ok := featurePrescans[name]; ok {
		return p
	}
	switch name {
	case "BatchGetItem":
		return prescanBatchGet
	case "BatchWriteItem":
		return prescanBatchWrite
	case "TransactWriteItems":
		return prescanTransactWrite
	case "TransactGetItems":
		return prescanTransactGet
	case "GetItem", "Query", "Scan": // AttributesToGet cut after its first repeated name
		return func(b []byte) ([]byte, func(any)) {
			return oversize.RepeatedNames(b, "AttributesToGet", expr.MaxAttributeNameBytes), nil
		}
	}
	return nil
}

// prescanBatchGet keeps the first 101 keys of each table that has more
// than 100 (batchGetNamesConstraint: a table name the answer echoes the
// whole map for reduces nothing).
// Each table's AttributesToGet is cut after its first repeated name
// first (oversize.BatchGetRepeatedNames).
func prescanBatchGet(body []byte) ([]byte, func(any)) {
	cut := oversize.BatchGetRepeatedNames(body, expr.MaxAttributeNameBytes)
	if cut != nil {
		body = cut
	}
	if keys := oversize.BatchGet(body, maxBatchGetKeys, tablespec.ValidTableName); keys != nil {
		return keys, nil
	}
	return cut, nil
}

// prescanBatchWrite answers a BatchWriteItem with a table of more than
// 25 writes from its echo: rendered while the body is read, one write
// request at a time, while the body decoded holds the tables with no
// write requests.
func prescanBatchWrite(body []byte) ([]byte, func(any)) {
	reduced, echo := oversize.BatchWrite(body, maxBatchWrites, func(b *bytes.Buffer, run wire.Span, at int) (int, bool) {
		var part BatchWriteItemInput
		if !oversize.DecodeAlone(body, run, `{"RequestItems":{"t":[`, `]}}`, &part) {
			return 0, false
		}
		for j, wr := range part.RequestItems["t"] {
			writeRequestEchoAt(b, at+j, wr)
			if wr.PutRequest != nil {
				wire.RecycleItem(wr.PutRequest.Item) // echoed: the next run reuses the map
			}
			if wr.DeleteRequest != nil {
				wire.RecycleItem(wr.DeleteRequest.Key)
			}
		}
		return len(part.RequestItems["t"]), true
	})
	if reduced == nil {
		return nil, nil
	}
	return reduced, func(in any) { in.(*BatchWriteItemInput).echo = echo }
}

// prescanTransactWrite keeps a transaction's first 100 actions, once
// each later one is checked to have no fault of its own, and says how
// many it left out: the answer echoes every action by its position.
func prescanTransactWrite(body []byte) ([]byte, func(any)) {
	reduced, past := oversize.TransactItems(body, maxTransactItems, func(run wire.Span) bool { return transactWriteClean(body, run) })
	return reduced, func(in any) { in.(*TransactWriteItemsInput).past = past }
}

// transactWriteClean reports whether a run of TransactWriteItems'
// actions has no fault of its own.
func transactWriteClean(body []byte, run wire.Span) bool {
	var part TransactWriteItemsInput
	ok := oversize.DecodeAlone(body, run, `{"TransactItems":[`, `]}`, &part) && transactWriteConstraints(&part) == nil
	for _, ti := range part.TransactItems { // checked: the next run reuses the maps
		if ti.Put != nil {
			wire.RecycleItem(ti.Put.Item)
		}
		if ti.Delete != nil {
			wire.RecycleItem(ti.Delete.Key)
		}
		if ti.Update != nil {
			wire.RecycleItem(ti.Update.Key)
		}
		if ti.ConditionCheck != nil {
			wire.RecycleItem(ti.ConditionCheck.Key)
		}
	}
	return ok
}

// prescanTransactGet is prescanTransactWrite for TransactGetItems.
func prescanTransactGet(body []byte) ([]byte, func(any)) {
	reduced, past := oversize.TransactItems(body, maxTransactItems, func(run wire.Span) bool { return transactGetClean(body, run) })
	return reduced, func(in any) { in.(*TransactGetItemsInput).past = past }
}

// transactGetClean is transactWriteClean for TransactGetItems.
func transactGetClean(body []byte, run wire.Span) bool {
	var part TransactGetItemsInput
	ok := oversize.DecodeAlone(body, run, `{"TransactItems":[`, `]}`, &part) && transactGetConstraints(&part) == nil
	part.recycle() // checked: the next run reuses the maps
	return ok
}

// Lists cut while the body arrives. A request far over its limit need
// not be held whole to be read as above: for a list whose elements past
// the limit only count (each is checked for a fault of its own, and the
// answer echoes it by its position, if at all), the edge reads the body
// through Operation.ReadBody, which keeps it but those elements
// (oversize.ListCut), and hands the service the body firstOf would
// reduce it to, with the list's length (Cut). A 15 MB TransactWriteItems
// then holds its first 100 actions and a run, not 15 MB.

// Cut is what Operation.ReadBody cut from a body.
type Cut struct {
	Elems int // the length of the list cut (0: nothing was cut)
	Len   int // the bytes of the body as it was sent
}

// listCut is an operation's oversize.ListCut and what the decoded input
// is told of the elements left out.
type listCut struct {
	oversize.ListCut
	fill func(in any, elems int) // nil: nothing
}

// listCuts are the operations whose lists are cut as the body arrives,
// by name. Filled by init functions only (PrescanCut); read-only
// afterwards.
var listCuts = map[string]*listCut{
	"TransactWriteItems": {
		ListCut: oversize.ListCut{Member: "TransactItems", Keep: maxTransactItems, Size: maxTransactItems,
			Checker: func() func([]byte, wire.Span) bool { return transactWriteClean }},
		fill: func(in any, elems int) { in.(*TransactWriteItemsInput).past = elems - maxTransactItems },
	},
	"TransactGetItems": {
		ListCut: oversize.ListCut{Member: "TransactItems", Keep: maxTransactItems, Size: maxTransactItems,
			Checker: func() func([]byte, wire.Span) bool { return transactGetClean }},
		fill: func(in any, elems int) { in.(*TransactGetItemsInput).past = elems - maxTransactItems },
	},
}

// PrescanCut registers how a feature's operation name cuts its list as
// the body arrives (a ListCut whose body kept gets the same answer as
// the body sent, nothing told of the elements left out); call it with
// Prescan, before the operation is registered.
func PrescanCut(r Registrar, name string, lc oversize.ListCut) {
	if _, ok := ops[name]; ok {
		panic("emulator: prescan of " + name + " after its operation")
	}
	listCuts[name] = &listCut{ListCut: lc}
}

// cutFill is what operation name sets in its input for a list of elems
// elements cut (nil: nothing).
func cutFill(name string, elems int) func(any) {
	lc := listCuts[name]
	if lc == nil || lc.fill == nil {
		return nil
	}
	return func(in any) { lc.fill(in, elems) }
}

// MinCutBytes is the smallest body Operation.ReadBody cuts: a smaller
// one is read whole (its list, over its limit or not, is at most a few
// thousand elements, which the prescans above read).
const MinCutBytes = 256 << 10

// Cuts reports whether op's body may be read through ReadBody.
func (op Operation) Cuts() bool {
	_, ok := listCuts[op.Name]
	return ok && !prescanOff.Load()
}

// ReadBody reads op's body from r into buf as it arrives (op.Cuts),
// at most limit bytes, and returns how many it read and what it cut
// (give it to Serve as Request.Cut: Len is set from n). more says the
// rest of the body is yet to be read as any body is (nothing was cut);
// want is the body's announced size plus one (0: unknown).
func (op Operation) ReadBody(buf *bytes.Buffer, r io.Reader, limit, want int64) (n int64, cut Cut, more bool, err error) {
	lc := listCuts[op.Name]
	n, elems, more, err := lc.Read(buf, r, limit, want)
	if elems > 0 {
		cut = Cut{Elems: elems, Len: int(n)}
	}
	return n, cut, more, err
}
