package wire

import (
	"hash/crc32"
	"reflect"
	"strconv"
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
// table), except by the echo of a batch over its count limit, which
// prints a hash of each attribute's value (EchoHash). So once an
// attribute's own list is proven over the limit by itself, the decoder
// reads on through it (every fault found, in the same order) but keeps
// none of its elements, only the hash of their JSON, and the list
// becomes a stand-in: an invalid value (which no decoded list holds),
// one B value of MaxItemBytes bytes shared by all (overText), so the
// item still measures over the limit, and the hash. Lists nested deeper
// are not cut (a stand-in inside a value would change its hash). An
// item's list of 262,141 numbers (a 4 MB PutItem) was held as 8.4 MB of
// values, 2.0 times the body.
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

// cutHash is the CRC-32 of a cut list's JSON as AppendValue writes it,
// made as its elements are read: an answer that echoes a write request
// before its item is measured (a batch over its count limit) prints
// the hash of each attribute's value (EchoHash), the stand-in's too.
type cutHash struct {
	crc uint32
	n   int    // elements hashed
	buf []byte // an element's JSON
	// value: the list is an expression value (wire_valuecut.go), which
	// hashes nothing: it counts the list's size and depth, and keeps
	// where its text starts.
	value              bool
	start, size, depth int
}

// newCutHash starts the hash of a list whose first elements are kept.
func newCutHash(kept []storage.Value) *cutHash {
	h := &cutHash{crc: crc32.ChecksumIEEE([]byte(`{"L":[`))}
	for _, e := range kept {
		h.add(e)
	}
	return h
}

// add hashes the list's next element (its JSON gathered, hashed 4 KB
// at a time).
func (h *cutHash) add(v storage.Value) {
	if h.value {
		h.size += 1 + storage.ValueSize(v)
		h.depth = max(h.depth, v.Depth())
		return
	}
	if h.n > 0 {
		h.buf = append(h.buf, ',')
	}
	h.buf = AppendValue(h.buf, v)
	h.n++
	if len(h.buf) >= 4<<10 {
		h.crc = crc32.Update(h.crc, crc32.IEEETable, h.buf)
		h.buf = h.buf[:0]
	}
}

// standIn is the stand-in of the list: an invalid value (which no
// decoded list holds), overText and the hash as decimal text.
func (h *cutHash) standIn() storage.Value {
	crc := crc32.Update(h.crc, crc32.IEEETable, append(h.buf, "]}"...))
	return storage.L([]storage.Value{{}, storage.BString(overText()), storage.S(strconv.FormatUint(uint64(crc), 10))})
}

// EchoHash is the CRC-32 of v's JSON (AppendValue, written at buf's
// end), or of the list a stand-in stands for.
func EchoHash(buf []byte, v storage.Value) uint32 {
	if v.Kind() == storage.KindL {
		if l := v.List(); len(l) == 3 && l[0].Kind() == storage.KindInvalid && l[1].Str() == overText() {
			crc, _ := strconv.ParseUint(l[2].Str(), 10, 32)
			return uint32(crc)
		}
	}
	return crc32.ChecksumIEEE(AppendValue(buf, v))
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
// MaxItemBytes by itself, and how many elements it has left (0 when it
// is malformed: decoding it finds the error).
func (d *decoder) listOver(lvl int, kept []storage.Value) (over bool, left int) {
	size := 3 // a list's own bytes, as storage.ValueSize counts them
	for _, e := range kept {
		size += 1 + storage.ValueSize(e)
	}
	end := decoder{data: d.data, pos: d.pos}
	left, err := end.skipElements(lvl)
	if err != nil {
		return false, 0
	}
	if size+end.pos-d.pos <= MaxItemBytes {
		return false, left
	}
	p := decoder{data: d.data, pos: d.pos, text: d.text, textOff: d.textOff, body: d.body, probing: true}
	for {
		if !p.isNull() {
			v, err := p.attrValue(lvl + 1)
			if err != nil {
				return false, left
			}
			if size += 1 + storage.ValueSize(v); size > MaxItemBytes {
				return true, left
			}
		}
		if p.peek() != ',' {
			return false, left
		}
		p.pos++
	}
}

// endCut ends a list's cut (cut: nil when it was not cut) on its way
// out with err.
func (d *decoder) endCut(cut *cutHash, err error) error {
	if cut != nil {
		d.drop--
	}
	return err
}
