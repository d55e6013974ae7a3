package storage

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
)

// Items at rest are kept in a compact binary form, decoded on every read.
// A map[string]Value per stored item costs several times the item's
// DynamoDB size; this form costs about the item size plus a few bytes.
//
//	item   = version uvarint(count) { attr }
//	attr   = uvarint(len) name value
//	value  = tagS str | tagN str | tagB str | tagFalse | tagTrue | tagNull
//	       | tagL uvarint(count) {value}
//	       | tagM uvarint(count) {uvarint(len) name value}
//	       | tagSS|tagNS|tagBS uvarint(count) {str}
//	str    = uvarint(len) bytes
//
// N is its canonical text. Attributes, and the entries of each M, are in
// ascending byte order of their names, so that readers can write them out
// in that order (the emulator's responses list attributes sorted) without
// sorting, and find one by name without a map; the decoder rejects any
// other order. Key attributes are left out of the stored form: the key is
// stored beside it and put back when decoding.

const encodingVersion = 1

// Value tags of the encoding.
const (
	tagS byte = 1 + iota
	tagN
	tagB
	tagFalse
	tagTrue
	tagNull
	tagL
	tagM
	tagSS
	tagNS
	tagBS
)

// maxDepth bounds the nesting of lists and maps the encoding accepts, so
// decoding is bounded on any input. DynamoDB's own limit (32) is lower and
// enforced by the emulator.
const maxDepth = 256

// appendItem appends the encoding of item, leaving out the attributes named
// by skip (key attribute names; empty names skip nothing).
func appendItem(dst []byte, item Item, skip1, skip2 string) ([]byte, error) {
	dst, _, err := appendItemSized(dst, item, skip1, skip2)
	return dst, err
}

// appendItemSized is appendItem that also returns the item's size
// (ItemSize, keys included), counted in the same pass over the map: a
// write ranges over the item once instead of twice (BenchmarkPreload).
func appendItemSized(dst []byte, item Item, skip1, skip2 string) ([]byte, int, error) {
	var buf [16]attr
	attrs, size := buf[:0], 0
	for name, v := range item {
		size += len(name) + ValueSize(v)
		if (name == skip1 && skip1 != "") || (name == skip2 && skip2 != "") {
			continue
		}
		attrs = append(attrs, attr{name, v})
	}
	sortAttrs(attrs)
	dst, err := appendAttrs(append(dst, encodingVersion), attrs, 1)
	return dst, size, err
}

// attr is one attribute or M entry being encoded.
type attr struct {
	name string
	v    Value
}

// sortedAttrs appends the entries of m, except those named skip1 or skip2
// (when not empty), to dst and sorts them by name.
func sortedAttrs(dst []attr, m map[string]Value, skip1, skip2 string) []attr {
	for name, v := range m {
		if (name == skip1 && skip1 != "") || (name == skip2 && skip2 != "") {
			continue
		}
		dst = append(dst, attr{name, v})
	}
	sortAttrs(dst)
	return dst
}

// sortAttrs sorts attrs by name.
func sortAttrs(dst []attr) {
	if len(dst) <= 16 {
		// Insertion sort: items and maps are mostly small.
		for i := 1; i < len(dst); i++ {
			for j := i; j > 0 && dst[j].name < dst[j-1].name; j-- {
				dst[j], dst[j-1] = dst[j-1], dst[j]
			}
		}
	} else {
		slices.SortFunc(dst, func(a, b attr) int { return strings.Compare(a.name, b.name) })
	}
}

// appendAttrs appends the count and the entries of an item or M value at
// nesting depth depth.
func appendAttrs(dst []byte, attrs []attr, depth int) ([]byte, error) {
	dst = binary.AppendUvarint(dst, uint64(len(attrs)))
	var err error
	for _, a := range attrs {
		dst = appendStr(dst, a.name)
		if dst, err = appendValue(dst, a.v, depth); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

func appendStr(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

func appendValue(dst []byte, v Value, depth int) ([]byte, error) {
	var err error
	switch v.kind {
	case KindS:
		dst = appendStr(append(dst, tagS), v.str)
	case KindN:
		dst = appendStr(append(dst, tagN), v.str)
	case KindB:
		dst = appendStr(append(dst, tagB), v.str)
	case KindBOOL:
		if v.b {
			dst = append(dst, tagTrue)
		} else {
			dst = append(dst, tagFalse)
		}
	case KindNULL:
		dst = append(dst, tagNull)
	case KindL:
		if depth >= maxDepth {
			return nil, ErrTooDeep
		}
		dst = binary.AppendUvarint(append(dst, tagL), uint64(len(v.List())))
		for _, e := range v.List() {
			if dst, err = appendValue(dst, e, depth+1); err != nil {
				return nil, err
			}
		}
	case KindM:
		if depth >= maxDepth {
			return nil, ErrTooDeep
		}
		var buf [16]attr
		if dst, err = appendAttrs(append(dst, tagM), sortedAttrs(buf[:0], v.Map(), "", ""), depth+1); err != nil {
			return nil, err
		}
	case KindSS, KindNS, KindBS:
		tag := tagSS
		if v.kind == KindNS {
			tag = tagNS
		} else if v.kind == KindBS {
			tag = tagBS
		}
		dst = binary.AppendUvarint(append(dst, tag), uint64(len(v.Members())))
		for _, m := range v.Members() {
			dst = appendStr(dst, m)
		}
	default:
		return nil, fmt.Errorf("storage: cannot encode a value of kind %s", v.kind)
	}
	return dst, nil
}
