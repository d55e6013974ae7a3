package storage

// SizeOf returns the DynamoDB size of the item's attributes named in
// names (key attributes included, names in any order, without repeats):
// ItemSize(e.Attributes(names)), read from the record without decoding,
// as an index entry's size is (the projected attributes of an item).
func (e EncodedItem) SizeOf(names []string) int {
	size, found := 0, 0
	for _, n := range names {
		if v, ok := e.keyAttr(n); ok {
			size += len(n) + ValueSize(v)
			found++
		}
	}
	if found == len(names) {
		return size
	}
	d := decoder{s: e.body}
	if d.byte() != encodingVersion {
		d.fail("unknown version")
	}
	for i, n := 0, d.count(); i < n && d.err == nil && found < len(names); i++ {
		name := d.str()
		if contains(names, name) {
			size += len(name) + d.checkValue(1)
			found++
		} else {
			d.skip(1)
		}
	}
	if d.err != nil {
		panic("storage: corrupt stored item: " + d.err.Error())
	}
	return size
}
