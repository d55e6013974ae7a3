package storage

import (
	"encoding/binary"
	"fmt"
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
// N is its canonical text. Key attributes are left out of the stored form:
// the key is stored beside it and put back when decoding.

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
	count := len(item)
	if _, ok := item[skip1]; ok && skip1 != "" {
		count--
	}
	if _, ok := item[skip2]; ok && skip2 != "" {
		count--
	}
	dst = append(dst, encodingVersion)
	dst = binary.AppendUvarint(dst, uint64(count))
	var err error
	for name, v := range item {
		if (name == skip1 && skip1 != "") || (name == skip2 && skip2 != "") {
			continue
		}
		dst = appendStr(dst, name)
		if dst, err = appendValue(dst, v, 1); err != nil {
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
		dst = binary.AppendUvarint(append(dst, tagM), uint64(len(v.Map())))
		for name, e := range v.Map() {
			dst = appendStr(dst, name)
			if dst, err = appendValue(dst, e, depth+1); err != nil {
				return nil, err
			}
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
