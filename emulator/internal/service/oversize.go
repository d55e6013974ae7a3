package service

import (
	"bytes"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/dynamoemu/dynamoemu/emulator/internal/wire"
)

// Requests whose list members are far over AWS's limits. AWS refuses a
// BatchGetItem of more than 100 keys a table, a BatchWriteItem of more
// than 25 writes a table, a transaction of more than 100 actions, with
// a ValidationException that comes before anything else the request
// says. Decoded whole, such a request of 15 MB (hundreds of thousands
// of elements) cost 8 to 20 times its bytes in items and keys the
// answer never uses. So the adapter reads these members in the raw body
// first (prescanOf, wire.ObjectMembers and ArrayElements) and, when one
// is over its limit, decodes a reduced body instead that gets the same
// answer: the elements past the limit are decoded a run at a time
// (chunker) and dropped, and left out. A fault of one of them that would
// change the answer (a syntax or serialization error; for a transaction
// a constraint violation of its own; for a BatchGetItem a table name
// the answer echoes the map for) sends the whole body to the decoder as
// before. A transaction is told how many actions it left out (its
// answer echoes each by its position); a BatchWriteItem's answer echoes
// every write request, rendered a run at a time while the body is read.
// The answer is the one the whole body gets (TestOversizeSameAnswer,
// FuzzOversizePrescan); what a request costs is its bytes, its answer
// and a run of elements at a time (TestOversizeReduced; the server's
// peak memory: cmd/dynamoemu TestOversizedRequests).

// prescan reads a request's raw body before it is decoded. It returns
// the body to decode instead (nil: the body as it is) and what to set in
// the decoded input (nil: nothing).
type prescan func(body []byte) (reduced []byte, fill func(in any))

// prescanOff, set by a test, decodes every body whole (the answer
// prescans must give).
var prescanOff atomic.Bool

// prescanOf returns the prescan of operation name (nil: its body is
// decoded as it is).
func prescanOf(name string) prescan {
	switch name {
	case "BatchGetItem":
		return prescanBatchGet
	case "BatchWriteItem":
		return prescanBatchWrite
	case "TransactWriteItems":
		return prescanTransactWrite
	case "TransactGetItems":
		return prescanTransactGet
	}
	return nil
}

// fewObjects reports whether body holds at most n JSON objects, or at
// most prescanMinObjects (counted by their opening braces, a bound from
// above: a brace in a string counts too). Then the body goes to the
// decoder as it is: no list of objects in it is over a limit of n, or
// decoding it whole costs at most that many elements, which is no more
// than a small multiple of its bytes. Counting one byte is a vectorised
// pass; scanning the body's structure cost a transaction of two actions
// about a fifth more instructions (BenchmarkOps, TransactWrite2 113,002
// -> 137,114 before this check), and a batch of 25 writes one more pass.
func fewObjects(body []byte, n int) bool {
	if prescanEvery.Load() {
		return false
	}
	return bytes.Count(body, []byte{'{'}) <= max(n, prescanMinObjects)
}

// prescanMinObjects is the fewest objects a body read first holds.
const prescanMinObjects = 1024

// prescanEvery, set by a test, reads every body first, small ones too.
var prescanEvery atomic.Bool

// topMember returns the value of the body's member name when the body is
// an object with exactly one member of that name and none whose name
// differs from it only in case.
func topMember(body []byte, name string) (wire.Span, bool) {
	members, _, ok := wire.ObjectMembers(body, 0)
	if !ok {
		return wire.Span{}, false
	}
	return onlyMember(members, name)
}

// onlyMember is topMember for members already read.
func onlyMember(members []wire.Member, name string) (wire.Span, bool) {
	var v wire.Span
	found := 0
	for _, m := range members {
		if strings.EqualFold(m.Name, name) {
			if m.Name != name {
				return wire.Span{}, false
			}
			v = m.Value
			found++
		}
	}
	return v, found == 1
}

// decodeAlone decodes elements e of body (one, or a run of them) into
// in, wrapped as the only elements of their list: pre and post are the
// request around them. It
// reports whether that decodes (a value fault is no error: it is
// reported after the constraints, which an oversized list fails).
func decodeAlone(body []byte, e wire.Span, pre, post string, in any) bool {
	mini := make([]byte, 0, len(pre)+e.End-e.Start+len(post))
	mini = append(mini, pre...)
	mini = append(mini, body[e.Start:e.End]...)
	mini = append(mini, post...)
	_, err := wire.DecodeRequestDeferred(mini, in)
	return err == nil
}

// chunks gathers the elements of a list, from its element from on, in
// runs of at most size (a run's span covers its elements and the commas
// between them) and calls fn with each run and its length, until fn
// returns false. Decoding a run at a time costs one decode per run and
// at most a run's elements in memory. ok is false when the list is not
// well formed or fn returned false.
type chunker struct {
	from, size int
	fn         func(run wire.Span, n int) bool
	run        wire.Span
	n          int
	failed     bool
}

// add takes element i at s; it reports whether to go on.
func (k *chunker) add(i int, s wire.Span) bool {
	if i < k.from {
		return true
	}
	if k.n == 0 {
		k.run.Start = s.Start
	}
	k.run.End = s.End
	k.n++
	if k.n == k.size {
		return k.flush()
	}
	return true
}

// flush hands the run gathered to fn.
func (k *chunker) flush() bool {
	if k.n == 0 || k.failed {
		return !k.failed
	}
	ok := k.fn(k.run, k.n)
	k.n = 0
	k.failed = !ok
	return ok
}

// keysOnly is a Keys list decoded as BatchGetItem's is.
type keysOnly struct {
	Keys []wire.WireItem `json:"Keys"`
}

// prescanBatchGet keeps the first 101 keys of each table that has more
// than 100: the answer is the same ("Member must have length less than
// or equal to 100" for that table), the keys past them are only checked.
func prescanBatchGet(body []byte) ([]byte, func(any)) {
	if fewObjects(body, maxBatchGetKeys) {
		return nil, nil
	}
	ri, ok := topMember(body, "RequestItems")
	if !ok {
		return nil, nil
	}
	tables, _, ok := wire.ObjectMembers(body, ri.Start)
	if !ok {
		return nil, nil
	}
	for _, tm := range tables {
		if !strings.HasPrefix(tm.Name, "arn:") && !validTableName(tm.Name) {
			return nil, nil // the answer echoes the whole map (batchGetNamesConstraint)
		}
	}
	type cut struct{ keepEnd, end int }
	var cuts []cut
	for _, tm := range tables {
		members, _, ok := wire.ObjectMembers(body, tm.Value.Start)
		if !ok {
			continue
		}
		keys, ok := onlyMember(members, "Keys")
		if !ok {
			continue
		}
		n, keepEnd := 0, 0
		k := chunker{from: maxBatchGetKeys + 1, size: 1024, fn: func(run wire.Span, _ int) bool {
			return decodeAlone(body, run, `{"Keys":[`, `]}`, new(keysOnly))
		}}
		if !wire.ArrayElements(body, keys.Start, func(i int, s wire.Span) bool {
			n++
			if i <= maxBatchGetKeys {
				keepEnd = s.End
			}
			return k.add(i, s)
		}) || !k.flush() {
			return nil, nil
		}
		if n > maxBatchGetKeys+1 {
			cuts = append(cuts, cut{keepEnd, keys.End})
		}
	}
	if len(cuts) == 0 {
		return nil, nil
	}
	var out []byte
	prev := 0
	for _, c := range cuts {
		out = append(out, body[prev:c.keepEnd]...)
		out = append(out, ']')
		prev = c.end
	}
	return append(out, body[prev:]...), nil
}

// prescanBatchWrite answers a BatchWriteItem with a table of more than
// 25 writes from its echo: rendered here, one write request at a time,
// while the body decoded holds the tables with no write requests.
func prescanBatchWrite(body []byte) ([]byte, func(any)) {
	if fewObjects(body, maxBatchWrites) {
		return nil, nil
	}
	ri, ok := topMember(body, "RequestItems")
	if !ok {
		return nil, nil
	}
	tables, _, ok := wire.ObjectMembers(body, ri.Start)
	if !ok {
		return nil, nil
	}
	over := false
	for i, tm := range tables {
		if slices.ContainsFunc(tables[:i], func(o wire.Member) bool { return o.Name == tm.Name }) {
			return nil, nil // a name twice: as the decoder reads it
		}
		n := 0
		if !wire.ArrayElements(body, tm.Value.Start, func(int, wire.Span) bool { n++; return true }) {
			return nil, nil
		}
		over = over || n > maxBatchWrites
	}
	if !over {
		return nil, nil
	}
	order := slices.Clone(tables)
	slices.SortFunc(order, func(a, b wire.Member) int { return strings.Compare(a.Name, b.Name) })
	var echo strings.Builder
	echo.WriteString("{")
	for i, tm := range order {
		if i > 0 {
			echo.WriteString(", ")
		}
		echo.WriteString(tm.Name)
		echo.WriteString("=[")
		j := 0
		k := chunker{size: 1024, fn: func(run wire.Span, _ int) bool {
			var part BatchWriteItemInput
			if !decodeAlone(body, run, `{"RequestItems":{"t":[`, `]}}`, &part) {
				return false
			}
			for _, wr := range part.RequestItems["t"] {
				writeRequestEchoAt(&echo, j, wr)
				j++
			}
			return true
		}}
		if !wire.ArrayElements(body, tm.Value.Start, k.add) || !k.flush() {
			return nil, nil
		}
		echo.WriteString("]")
	}
	echo.WriteString("}")
	var out []byte
	prev := 0
	for _, tm := range tables { // in the body's order
		out = append(out, body[prev:tm.Value.Start]...)
		out = append(out, "[]"...)
		prev = tm.Value.End
	}
	out = append(out, body[prev:]...)
	e := echo.String()
	return out, func(in any) { in.(*BatchWriteItemInput).echo = e }
}

// prescanTransactWrite keeps a transaction's first 100 actions, once
// each later one is checked to have no fault of its own, and says how
// many it left out: the answer echoes every action by its position.
func prescanTransactWrite(body []byte) ([]byte, func(any)) {
	reduced, past := prescanTransactItems(body, func(run wire.Span) bool {
		var part TransactWriteItemsInput
		return decodeAlone(body, run, `{"TransactItems":[`, `]}`, &part) && transactWriteConstraints(&part) == nil
	})
	return reduced, func(in any) { in.(*TransactWriteItemsInput).past = past }
}

// prescanTransactGet is prescanTransactWrite for TransactGetItems.
func prescanTransactGet(body []byte) ([]byte, func(any)) {
	reduced, past := prescanTransactItems(body, func(run wire.Span) bool {
		var part TransactGetItemsInput
		return decodeAlone(body, run, `{"TransactItems":[`, `]}`, &part) && transactGetConstraints(&part) == nil
	})
	return reduced, func(in any) { in.(*TransactGetItemsInput).past = past }
}

// prescanTransactItems reduces a TransactItems list of more than 100
// actions to its first 100, once clean has accepted the others (in runs
// of at most 100 actions, which a list of that length has no count
// violation for), and returns how many it left out (reduced nil: none).
func prescanTransactItems(body []byte, clean func(run wire.Span) bool) (reduced []byte, past int) {
	if fewObjects(body, maxTransactItems) {
		return nil, 0
	}
	ti, ok := topMember(body, "TransactItems")
	if !ok {
		return nil, 0
	}
	n, keepEnd := 0, 0
	k := chunker{from: maxTransactItems, size: maxTransactItems, fn: func(run wire.Span, _ int) bool { return clean(run) }}
	if !wire.ArrayElements(body, ti.Start, func(i int, s wire.Span) bool {
		n++
		if i < maxTransactItems {
			keepEnd = s.End
		}
		return k.add(i, s)
	}) || !k.flush() || n <= maxTransactItems {
		return nil, 0
	}
	out := make([]byte, 0, keepEnd+1+len(body)-ti.End)
	out = append(out, body[:keepEnd]...)
	out = append(out, ']')
	return append(out, body[ti.End:]...), n - maxTransactItems
}
