package storage

import (
	"github.com/dynamoemu/dynamoemu/internal/number"
	"strings"
)

// Checking item images that come from elsewhere (a log, a snapshot file,
// a record on the wire) without decoding them into Values: a loader
// takes images as they are stored, so it must know they are well formed
// before a read decodes them (a stored record that does not decode is a
// panic), and their size.

// checkImage walks body, the stored form of an item without its key
// attributes (encode.go), building nothing. It fails with ErrCorrupt
// unless body is well formed as a table stores it: version, names in
// ascending order at every level, known tags, numbers canonical, nesting
// bounded, nothing after it, and no top-level attribute named skip1 or
// skip2 (the key attributes, which are stored beside it; "" skips
// nothing). It returns ItemSize of the attributes it holds.
func checkImage(body, skip1, skip2 string) (int, error) {
	return checkImagePick(body, skip1, skip2, nil, nil)
}

// imageSize checks body, the image of the item whose key is k under ks
// (checkImage), and returns the item's size (ItemSize). When pick is not
// nil, the attributes of reads are put in it as the image is checked,
// their values viewing body, and the key attributes among them
// (readsKey: the partition key's, the sort key's) from k.
func (ks *KeySchema) imageSize(k Key, body string, reads []string, readsKey [2]bool, pick Item) (int, error) {
	size, err := checkImagePick(body, ks.Partition.Name, ks.Sort.Name, reads, pick)
	if err != nil {
		return 0, err
	}
	if pick != nil {
		if readsKey[0] {
			pick[ks.Partition.Name] = k.Partition
		}
		if readsKey[1] {
			pick[ks.Sort.Name] = k.Sort
		}
	}
	size += len(ks.Partition.Name) + ValueSize(k.Partition)
	if ks.HasSort() {
		size += len(ks.Sort.Name) + ValueSize(k.Sort)
	}
	return size, nil
}

// checkImagePick is checkImage that also puts the attributes of body
// named in names into pick (nil: none), their values viewing body: one
// walk of the image where checking it, then reading an index's
// attributes from it, took two (TableBuilder).
func checkImagePick(body, skip1, skip2 string, names []string, pick Item) (int, error) {
	d := decoder{s: body}
	if d.byte() != encodingVersion {
		return 0, d.fail("unknown version")
	}
	n := d.count()
	size, prev := 0, ""
	for i := 0; i < n && d.err == nil; i++ {
		name := d.str()
		if i > 0 && name <= prev {
			d.fail("attribute names out of order")
		}
		if (name == skip1 && skip1 != "") || (name == skip2 && skip2 != "") {
			d.fail("key attribute in the image")
		}
		prev = name
		at := d.pos
		size += len(name) + d.checkValue(1)
		if pick != nil && d.err == nil && contains(names, name) {
			v := decoder{s: d.s, pos: at}
			pick[name] = v.value(1)
		}
	}
	if d.err == nil && d.pos != len(d.s) {
		d.fail("trailing bytes")
	}
	if d.err != nil {
		return 0, d.err
	}
	return size, nil
}

// checkValue reads one value as value would, checking it, and returns
// its ValueSize.
func (d *decoder) checkValue(depth int) int {
	switch tag := d.byte(); tag {
	case tagS, tagB:
		return len(d.str())
	case tagN:
		s := d.str()
		size, ok := checkNumber(s)
		if d.err == nil && !ok {
			d.fail("number not canonical")
		}
		return size
	case tagFalse, tagTrue, tagNull:
		return 1
	case tagL, tagM:
		if depth >= maxDepth {
			d.fail("nesting too deep")
			return 0
		}
		size, prev := 3, ""
		for i, n := 0, d.count(); i < n && d.err == nil; i++ {
			if tag == tagM {
				name := d.str()
				if i > 0 && name <= prev {
					d.fail("map entries out of order")
				}
				prev = name
				size += len(name)
			}
			size += 1 + d.checkValue(depth+1)
		}
		return size
	case tagSS, tagNS, tagBS:
		size := 0
		for i, n := 0, d.count(); i < n && d.err == nil; i++ {
			m := d.str()
			if tag != tagNS {
				size += len(m)
			} else if n, ok := checkNumber(m); d.err == nil && !ok {
				d.fail("number not canonical")
			} else {
				size += n
			}
		}
		return size
	default:
		if d.err == nil {
			d.fail("unknown tag")
		}
		return 0
	}
}

// isCanonicalNumber reports whether s is a number in the canonical form
// ParseNumber returns (ParseNumber(s) would return s), without
// allocating: "0", or an optional '-', an integer part without leading
// zeros, an optional fraction without trailing zeros, not zero, at most
// 38 significant digits, within DynamoDB's range.
func isCanonicalNumber(s string) bool {
	_, ok := checkNumber(s)
	return ok
}

// checkNumber is isCanonicalNumber and, when s is canonical, its
// number.Size, from one reading of s: an image's numbers were read three
// times to check and size them (the split, then Number.digits twice), a
// large part of replaying the log of the Restart benchmark's 100k items
// (cmd/dynamoemu) after kill -9 (BenchmarkReplayLog).
func checkNumber(s string) (size int, ok bool) {
	if s == "0" {
		return 1, true
	}
	t := strings.TrimPrefix(s, "-")
	intPart, frac, dot := strings.Cut(t, ".")
	if intPart == "" || !allDigits(intPart) || !allDigits(frac) {
		return 0, false
	}
	if len(intPart) > 1 && intPart[0] == '0' {
		return 0, false // a leading zero
	}
	if dot && (frac == "" || frac[len(frac)-1] == '0') {
		return 0, false // "1." or a trailing fractional zero
	}
	// The significant digits and the adjusted exponent, as Number.digits
	// finds them: the fraction has no trailing zeros (checked above).
	var digits, adj int
	switch {
	case intPart != "0" && frac == "":
		digits, adj = len(strings.TrimRight(intPart, "0")), len(intPart)-1
	case intPart != "0":
		digits, adj = len(intPart)+len(frac), len(intPart)-1
	default:
		hi := strings.TrimLeft(frac, "0")
		if hi == "" {
			return 0, false // zero written otherwise than "0"
		}
		digits, adj = len(hi), -(len(frac)-len(hi))-1
	}
	if digits > number.MaxDigits || adj > number.MaxAdjusted || adj < number.MinAdjusted {
		return 0, false
	}
	return number.DigitsSize(len(t) < len(s), digits, adj), true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
