package wire

import (
	"encoding/binary"
	"errors"
	"reflect"
	"slices"
	"strings"

	"github.com/dynamoemu/dynamoemu/emulator/internal/apierr"
	"github.com/dynamoemu/dynamoemu/internal/storage"
)

// ExpressionValues is the ExpressionAttributeValues parameter: placeholder
// (":v") to value. Its decoder words value errors as DynamoDB does for this
// parameter: "ExpressionAttributeValues contains invalid value: <reason> for
// key :v", and keeps no map of more than 2 MB (wire_placeholders.go), nor
// one of more entries than expressions can name (wire_compact.go). It
// has the underlying type of the maps expr compiles against, so Values
// copies nothing.
//
// A map or list value over the item size limit is such a fault, "...
// contains invalid value: Item size has exceeded the maximum allowed size
// for key :v": an UpdateItem's in AWS (a production table's answer,
// quoted in a public application's code comment), every operation's in
// DynamoDB Local, which answers it before the expressions' syntax and
// their unused values, after a fault of a value before it. So a map
// holding one answers its first fault at once, and the answer never
// depends on what such a value holds past the limit, which the decoder
// keeps no more of than overList says. A string over the limit is no
// fault (UpdateItem's size refusal: paritysuite's itemSizeBySurface,
// recorded against AWS 2026-10-09).
type ExpressionValues map[string]storage.Value

// UnmarshalJSON decodes and validates the placeholders' values, as the
// request decoder does. A map that is whole JSON but holds a malformed
// value is kept, and the error returned is a *ValueError.
func (x *ExpressionValues) UnmarshalJSON(data []byte) error {
	d := &reqDecoder{decoder: decoder{data: data}, top: -1}
	err := decodeExpressionValues(d, reflect.ValueOf(x).Elem(), 0)
	if err = d.finish(err); err == nil && d.saved != nil {
		err = d.saved
	}
	if err == nil && d.deferred != nil {
		err = valueError(d.deferred.Err)
	}
	return err
}

// decodeExpressionValues reads ExpressionAttributeValues into v, once: a
// map kept while it is small enough, compact past compactMinEntries
// distinct keys, or past MaxSubstitutionBytes only the entries
// Compiler.Err could report (valueSet). A fault of a value is deferred,
// but a map's or list's over the item size limit, and that of a map over
// MaxSubstitutionBytes, and the first of a map that holds a value over
// the item size limit, are answered at once (DynamoDB Local's order;
// AWS's unrecorded).
func decodeExpressionValues(d *reqDecoder, v reflect.Value, depth int) error {
	switch d.peek() {
	case '{':
	case 'n':
		if err := d.literal("null"); err != nil {
			return err
		}
		v.SetZero()
		return nil
	default:
		return d.mismatch(v.Type(), depth)
	}
	if depth >= maxJSONDepth {
		return d.syntax()
	}
	vs := valueSet{start: d.pos, m: valueMap(0), offsets: d.mayCompact()}
	text := d.text
	if d.keepBody() {
		d.text = d.body
	}
	d.verr, d.vrank, d.base = nil, 0, depth+1
	err := d.readValues(&vs)
	verr := d.verr
	d.text, d.verr, d.vrank = text, nil, 0
	if err != nil {
		return err
	}
	if verr != nil && (vs.mode == valuesOver || vs.itemOver) {
		return verr
	}
	v.Set(reflect.ValueOf(vs.result(d)))
	if verr != nil {
		d.deferValue(verr)
	}
	return nil
}

// Modes of a valueSet.
const (
	valuesKept    = iota // the map is kept
	valuesCompact        // the entries' offsets are (wire_compact.go)
	valuesOver           // the map is over MaxSubstitutionBytes: witnesses only
)

// valueSet is an ExpressionAttributeValues map as one reading of it makes
// it: kept until it has compactMinEntries distinct keys (then compact)
// or its size passes MaxSubstitutionBytes (then over).
type valueSet struct {
	start    int // the map's '{' in the window
	mode     int
	m        ExpressionValues
	offsets  bool   // the entries' offsets are noted (the body may hold a compact map)
	offs     []byte // each entry's key offset past the last's, and its size, as uvarints
	last     int    // the last entry's offset
	entries  int    // the entries noted
	w        Witnesses[storage.Value]
	size     int  // of the entries, a key given twice counted twice
	itemOver bool // the map holds a map or list over the item size limit
}

// add notes an entry, key at off in the window, of value v and size n.
func (vs *valueSet) add(key string, off int, v storage.Value, n int) {
	vs.size += n
	if vs.offsets && vs.mode != valuesOver {
		if len(vs.offs)+2*binary.MaxVarintLen32 > cap(vs.offs) {
			vs.offs = slices.Grow(vs.offs, len(vs.offs)+64) // doubled: append grows a long slice by a quarter
		}
		vs.offs = binary.AppendUvarint(vs.offs, uint64(off-vs.start-vs.last))
		vs.offs = binary.AppendUvarint(vs.offs, uint64(n))
		vs.last, vs.entries = off-vs.start, vs.entries+1
	}
	switch {
	case vs.mode == valuesKept && vs.size > MaxSubstitutionBytes:
		vs.toWitnesses(valuesOver)
	case vs.mode == valuesKept && vs.offsets && len(vs.m) >= compactMinEntries-1 && !vs.has(key):
		vs.toWitnesses(valuesCompact)
	case vs.mode == valuesCompact && vs.size > MaxSubstitutionBytes:
		vs.mode, vs.offs = valuesOver, nil
	}
	if vs.mode == valuesKept {
		vs.m[key] = v
	} else {
		vs.w.See(':', key, storage.Null(), "")
	}
}

// eachEntry calls each with each entry noted: its key's offset past the
// map's '{', and its size.
func (vs *valueSet) eachEntry(each func(off, size int)) {
	for off, rest := 0, vs.offs; len(rest) > 0; {
		delta, n := binary.Uvarint(rest)
		size, m := binary.Uvarint(rest[n:])
		rest, off = rest[n+m:], off+int(delta)
		each(off, int(size))
	}
}

// has reports whether the map kept holds key.
func (vs *valueSet) has(key string) bool {
	_, ok := vs.m[key]
	return ok
}

// toWitnesses leaves the map for mode: its entries shown to the
// witnesses, its values let go.
func (vs *valueSet) toWitnesses(mode int) {
	for k := range vs.m {
		vs.w.See(':', k, storage.Null(), "")
	}
	RecycleValues(vs.m)
	vs.m, vs.mode = nil, mode
	if mode == valuesOver {
		vs.offs = nil
	}
}

// result is the map v is set to.
func (vs *valueSet) result(d *reqDecoder) ExpressionValues {
	switch vs.mode {
	case valuesOver:
		return vs.w.StandIn()
	case valuesCompact:
		return compactValues(d, vs)
	}
	return vs.m
}

// mayCompact reports whether the body may hold a compact map: it is at
// least compactMinBytes long (or of a size not known).
func (d *decoder) mayCompact() bool {
	if d.src != nil && !d.whole() {
		return d.src.Size < 0 || d.src.Size >= int64(compactMinBytes())
	}
	return len(d.data) >= compactMinBytes()
}

// readValues reads an ExpressionAttributeValues object's entries (d at its
// '{') into vs, and leaves the first validation error of a value in
// d.verr.
func (d *decoder) readValues(vs *valueSet) error {
	d.pos++ // '{'
	if d.peek() == '}' {
		d.pos++
		return nil
	}
	for more := true; more; {
		d.peek()
		off := d.pos
		read := d.readString // a key kept is copied (or a view of the body's text)
		if vs.mode != valuesKept {
			read = d.stringView // shown to the witnesses, which copy what they keep
		}
		name, err := read()
		if err != nil {
			return d.syntax()
		}
		if err := d.expect(':'); err != nil {
			return err
		}
		if d.isNull() {
			d.validation(apierr.MsgExprValueInvalid + apierr.MsgNullInList + apierr.MsgExprValueForKey + name)
		} else {
			before, text := d.verr, d.text
			if vs.mode != valuesKept {
				d.viewText() // let go once measured: no copy of its strings
			}
			v, err := d.attrValue(1)
			d.text = text
			if err != nil {
				if errors.Is(err, apierr.ErrValidation) && before == nil {
					err = inExprValue(err, name)
				}
				return err
			}
			n := storage.ValueSize(v)
			if n > MaxItemBytes && (v.Kind() == storage.KindL || v.Kind() == storage.KindM) {
				d.validation(apierr.MsgItemTooLarge)
				vs.itemOver = true
			}
			if d.verr != before {
				d.verr = inExprValue(d.verr, name)
			}
			vs.add(name, off, v, len(name)+n)
		}
		if more, err = d.next('}'); err != nil {
			return err
		}
	}
	return nil
}

// Values returns the placeholders' values as storage values: the same
// map, not a copy.
func (x ExpressionValues) Values() map[string]storage.Value { return x }

// inExprValue is err, the error of the expression value name, framed as
// AWS's older layer frames it ("ExpressionAttributeValues contains invalid
// value: <error> for key <name>"); a malformed value keeps its fault, for
// apierr.Relayer.
func inExprValue(err error, name string) error {
	name = strings.Clone(name) // the key may be a view of the body
	var f *apierr.ValueFault
	if errors.As(err, &f) {
		return f.InExprValue(name).Err()
	}
	return apierr.Validation(apierr.MsgExprValueInvalid + err.Error() + apierr.MsgExprValueForKey + name)
}
