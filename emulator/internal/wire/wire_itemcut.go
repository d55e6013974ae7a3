package wire

import (
	"reflect"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// Lists of an item to write that are over the item size limit.
//
// An item a request writes (a struct member named Item of type WireItem:
// PutItem's Item, BatchWriteItem's PutRequest, TransactWriteItems' Put)
// is measured before anything reads its values, and refused over
// MaxItemBytes (the service's item size check comes after the request's
// member constraints, expressions and value faults, and before its
// table). So once one of its lists is proven over the limit by itself,
// its values are never read: the decoder reads on through the list
// (every fault found, in the same order) but keeps none of its elements,
// and the list becomes a stand-in of one B value of MaxItemBytes bytes,
// shared by all (overText), so the item still measures over the limit.
// An item's list of 262,141 numbers (a 4 MB PutItem) was held as 8.4 MB
// of values, 2.0 times the body.
//
// A list is proven over by a probe at its longList-th element, only when
// its text left could hold the limit (a value's size is never more than
// its text's): a copy of the decoder reads the rest of the list, keeping
// nothing, until the sizes add up past the limit or the list ends.

// MaxItemBytes is DynamoDB's item size limit (400 KB), the service's
// maxItemBytes (its TestItemCutSameAnswer ties the two).
const MaxItemBytes = 400 * 1024

// itemCut is on unless a test turns it off (SetItemCut).
var itemCut atomic.Bool

func init() { itemCut.Store(true) }

// SetItemCut turns the cut of an item's lists over the limit on or off
// and returns what it was: tests compare the answers of both.
func SetItemCut(on bool) (was bool) { return itemCut.Swap(on) }

// overText is the stand-in's bytes, made on first use and shared.
var overText = sync.OnceValue(func() string { return strings.Repeat("\x00", MaxItemBytes) })

// overList is the stand-in of a list proven over the limit.
func overList() storage.Value {
	return storage.L([]storage.Value{storage.BString(overText())})
}

// decodeWrittenItem is decodeWireItem for an item to write: its lists
// over the limit may be cut.
func decodeWrittenItem(d *reqDecoder, v reflect.Value, depth int) error {
	d.written = itemCut.Load()
	err := decodeWireItem(d, v, depth)
	d.written = false
	return err
}

// listOver reports whether the list being decoded at level lvl, whose
// first elements are kept, d at the start of its next element, is over
// MaxItemBytes by itself.
func (d *decoder) listOver(lvl int, kept []storage.Value) bool {
	size := 3 // a list's own bytes, as storage.ValueSize counts them
	for _, e := range kept {
		size += 1 + storage.ValueSize(e)
	}
	end := decoder{data: d.data, pos: d.pos}
	if _, err := end.skipElements(lvl); err != nil || size+end.pos-d.pos <= MaxItemBytes {
		return false
	}
	p := decoder{data: d.data, pos: d.pos, text: d.text, textOff: d.textOff, body: d.body, probing: true}
	for {
		if !p.isNull() {
			v, err := p.attrValue(lvl + 1)
			if err != nil {
				return false
			}
			if size += 1 + storage.ValueSize(v); size > MaxItemBytes {
				return true
			}
		}
		if p.peek() != ',' {
			return false
		}
		p.pos++
	}
}

// endCut ends a list's cut (cut: the list was cut) on its way out with
// err.
func (d *decoder) endCut(cut bool, err error) error {
	if cut {
		d.drop--
	}
	return err
}
