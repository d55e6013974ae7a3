package wire

import (
	"reflect"
	"slices"
	"strconv"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// UpdateItem's ExpressionAttributeValues lists over the item size limit.
//
// A value's list whose size alone is over MaxItemBytes can never be
// written: an UpdateExpression that names it (only SET can: ADD, DELETE
// and arithmetic refuse a list when compiled) is charged its size
// (expr.Update.StatementCharge), so UpdateItem refuses it with "Item size
// to update has exceeded the maximum allowed size", after the update is
// applied and before its condition is evaluated. What reads the list
// before that refusal reads only its kind (the compiler's operand checks,
// an index key's type, list_append's) and its depth (the nesting check).
// So the decoder cuts such a list as it cuts an item's (wire_itemcut.go):
// every element is still decoded, so every fault is found in the same
// order, then dropped, and the list becomes a stand-in: an invalid value,
// the shared overText (so that it still measures over the limit), the
// list's JSON text (a view of the body, for Uncut), its size as decimal
// text and a chain of lists as deep as the list's deepest element (so
// that it nests as deep as the list). UpdateItem keeps the stand-in only
// when its update names every cut value and its table has no vector index
// (whose checks read a list's elements); otherwise it decodes the lists
// again (Uncut) and compiles once more. A list of 262,137 numbers (a 4 MB
// UpdateItem) was held as 8.4 MB of values, decoded three times.
//
// ExecuteStatement's Parameters (Params) are cut alike: an INSERT takes a
// ? only as an attribute of its item (elsewhere it refuses the ?, by its
// place), and measures the item, over the limit with such a list, before
// anything reads it; every other statement has its lists decoded again
// (UncutEach). The 4 MB INSERT held its list whole, 8.4 MB.

// UpdateValues is UpdateItem's ExpressionAttributeValues: ExpressionValues
// whose lists over the item size limit may be cut (see above).
type UpdateValues ExpressionValues

// UnmarshalJSON is ExpressionValues.UnmarshalJSON, cutting.
func (x *UpdateValues) UnmarshalJSON(data []byte) error {
	return (*ExpressionValues)(x).unmarshal(data, itemCut.Load())
}

// decodeUpdateValues is decodeExpressionValues, cutting.
func decodeUpdateValues(d *reqDecoder, v reflect.Value, depth int) error {
	d.cutValues = itemCut.Load()
	err := decodeExpressionValues(d, v, depth)
	d.cutValues = false
	return err
}

// newValueCut starts the cut of an expression value's list whose text
// starts at start and whose first elements are kept.
func newValueCut(kept []storage.Value, start int) *cutHash {
	h := &cutHash{value: true, start: start, size: 3} // a list's own bytes
	for _, e := range kept {
		h.add(e)
	}
	return h
}

// valueStandIn is the stand-in of the list whose JSON is text (a view
// of the body).
func (h *cutHash) valueStandIn(text string) storage.Value {
	chain := storage.Null()
	for range h.depth - 1 {
		chain = storage.L([]storage.Value{chain})
	}
	return storage.L([]storage.Value{{}, storage.BString(overText()),
		storage.BString(text), storage.S(strconv.Itoa(h.size)), chain})
}

// cutText is the JSON text and the size of the list v stands in for (ok
// false: v is no expression value's stand-in).
func cutText(v storage.Value) (text string, size int, ok bool) {
	if v.Kind() != storage.KindL {
		return "", 0, false
	}
	l := v.List()
	if len(l) != 5 || l[0].Kind() != storage.KindInvalid || l[1].Kind() != storage.KindB || l[1].Str() != overText() {
		return "", 0, false
	}
	size, _ = strconv.Atoi(l[3].Str())
	return l[2].Str(), size, true
}

// cutValueSize is storage.ValueSize of v, or of the list v stands in for.
func cutValueSize(v storage.Value) int {
	if _, size, ok := cutText(v); ok {
		return size
	}
	return storage.ValueSize(v)
}

// IsCut reports whether v stands in for a list cut over the limit.
func IsCut(v storage.Value) bool {
	_, _, ok := cutText(v)
	return ok
}

// Uncut decodes each cut list of values again from its text, in place,
// unless named (the values an update names) holds every one of them
// (the very list, not an equal one) and vectors (the table has a vector
// index, whose checks read a list's elements) is false; it reports
// whether it did. values is then what it is decoded without the cut.
func Uncut(values ExpressionValues, named []storage.Value, vectors bool) bool {
	keep := !vectors
	cuts := 0
	for _, v := range values {
		if IsCut(v) {
			cuts++
			keep = keep && slices.ContainsFunc(named, func(x storage.Value) bool { return sameList(x, v) })
		}
	}
	if cuts == 0 || keep {
		return false
	}
	for k, v := range values {
		if text, _, ok := cutText(v); ok {
			values[k] = wholeList(text)
		}
	}
	return true
}

// UncutEach decodes each cut list of vals again from its text, in place.
func UncutEach(vals []storage.Value) {
	for i, v := range vals {
		if text, _, ok := cutText(v); ok {
			vals[i] = wholeList(text)
		}
	}
}

// wholeList is the list whose JSON is text, a cut list's: decoded as it
// was before it was cut.
func wholeList(text string) storage.Value {
	d := decoder{data: bytesOf(text)}
	whole, err := d.list(1)
	if err != nil {
		panic("wire: a cut list's text no longer decodes: " + err.Error()) // it did once
	}
	return whole
}

// sameList reports whether the lists a and b share their elements.
func sameList(a, b storage.Value) bool {
	if a.Kind() != storage.KindL || b.Kind() != storage.KindL || a.Len() == 0 || a.Len() != b.Len() {
		return false
	}
	return &a.List()[0] == &b.List()[0]
}
