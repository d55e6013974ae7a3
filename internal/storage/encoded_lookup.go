package storage

import "encoding/binary"

// Reading a few attributes of a stored item, and writing items in the
// stored encoding from parts of others: what a filter and a projection
// need to work on records without decoding them.

// Lookup sets dst[i] to the attribute names[i] of the item, key attributes
// included, or to the zero EncodedValue when the item has none. names must
// be in ascending byte order without repeats (the order of the record, so
// one walk finds them all and stops after the last), and dst at least as
// long. It allocates nothing.
func (e EncodedItem) Lookup(names []string, dst []EncodedValue) {
	dst = dst[:len(names)]
	found := 0
	for i, n := range names {
		dst[i] = EncodedValue{}
		if v, ok := e.keyAttr(n); ok {
			dst[i] = encodedScalar(v)
			found++
		}
	}
	if found == len(names) {
		return
	}
	d := decoder{s: e.body}
	if d.byte() != encodingVersion {
		panic("storage: corrupt stored item: unknown version")
	}
	j := 0
	for i, n := 0, d.count(); i < n && d.err == nil; i++ {
		name := d.str()
		for j < len(names) && names[j] < name {
			j++
		}
		if j == len(names) {
			break
		}
		if names[j] == name {
			dst[j] = d.readEncoded(1)
			j++
		} else {
			d.skip(1)
		}
	}
	if d.err != nil {
		panic("storage: corrupt stored item: " + d.err.Error())
	}
}

// Attr returns the item's attribute name, key attributes included; false
// when it has none.
func (e EncodedItem) Attr(name string) (EncodedValue, bool) {
	var v [1]EncodedValue
	e.Lookup([]string{name}, v[:])
	return v[0], v[0].IsValid()
}

// keyAttr returns the value of key attribute name, if name is one.
func (e EncodedItem) keyAttr(name string) (Value, bool) {
	if e.ks == nil {
		return Value{}, false
	}
	if name == e.ks.Partition.Name {
		return e.key.Partition, true
	}
	if e.ks.HasSort() && name == e.ks.Sort.Name {
		if e.nsk != "" {
			return sortKeyValue(KindN, e.nsk), true
		}
		return e.key.Sort, true
	}
	return Value{}, false
}

// EncodedItemOf returns the EncodedItem of body, an item written whole
// (its key attributes among the others) with the Append functions below,
// such as a projection of a stored item. Its Key is the zero Key and its
// Size 0: it is an item to read and write out, not one a table stores.
// body must be well formed; a malformed one panics when read, as a
// corrupt record does.
func EncodedItemOf(body string) EncodedItem { return EncodedItem{body: body} }

// Writing the encoding. An item is AppendItemStart, then for each
// attribute in ascending name order AppendName and a value, then
// FinishCount with the number of attributes. A value is an EncodedValue's
// AppendTo, or an M (AppendMapStart, then entries as attributes are, in
// ascending name order, then FinishCount) or an L (AppendListStart, the
// elements, FinishCount). The counts are written last, so a writer may
// drop a part it has begun by cutting dst back to where the part began.

// AppendItemStart begins an item; mark is for FinishCount.
func AppendItemStart(dst []byte) (out []byte, mark int) {
	dst = append(dst, encodingVersion)
	return append(dst, 0), len(dst)
}

// AppendMapStart begins an M value; mark is for FinishCount.
func AppendMapStart(dst []byte) (out []byte, mark int) {
	dst = append(dst, tagM)
	return append(dst, 0), len(dst)
}

// AppendListStart begins an L value; mark is for FinishCount.
func AppendListStart(dst []byte) (out []byte, mark int) {
	dst = append(dst, tagL)
	return append(dst, 0), len(dst)
}

// AppendName appends an attribute or M entry name.
func AppendName(dst []byte, name string) []byte { return appendStr(dst, name) }

// FinishCount writes n, the number of parts written since the start that
// returned mark, into its place.
func FinishCount(dst []byte, mark, n int) []byte {
	if n < 0x80 {
		dst[mark] = byte(n)
		return dst
	}
	var buf [binary.MaxVarintLen64]byte
	w := binary.PutUvarint(buf[:], uint64(n))
	dst = append(dst, buf[:w-1]...) // room for the longer count
	copy(dst[mark+w:], dst[mark+1:len(dst)-(w-1)])
	copy(dst[mark:], buf[:w])
	return dst
}
