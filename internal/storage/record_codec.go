package storage

import (
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
)

// The binary form of a Record, for a log, a backup or a replica's wire: a
// self-contained byte string that ParseRecord turns back into a Record
// DB.Apply takes. It carries what a replay needs, and the item images in
// storage's own encoding (encode.go), so writing a commit copies the
// stored records and decodes nothing:
//
//	record  = version(1) kind body
//	commit  = uvarint(n) { str(table) flags origin keyval [keyval]
//	                       [uvarint(size) str(image)] }
//	create  = str(id) str(name) keyattr keyattr uvarint(n){index}
//	          [uvarint(n){vindex}] uvarint(n){str(key) str(value)}
//	restore = create uvarint(n){ keyval [keyval] uvarint(size) str(image) }
//	drop    = str(id)
//	addidx  = str(id) index
//	dropidx = str(id) str(name)
//	addvidx = str(id) vindex
//	dropvidx = str(id) str(name)
//	meta    = str(table) str(key) present [str(value)]
//	keyval  = kind str
//	keyattr = str(name) kind
//	index   = str(name) uvarint(n){keyattr} uvarint(n){keyattr}
//	          all uvarint(n){str}
//	vindex  = str(name) str(attribute) uvarint(dimensions) distance
//	          keyattr(hash) uvarint(n){keyattr} all uvarint(n){str}
//	str     = uvarint(len) bytes
//
// The vector index list of a create or restore is there in version 2
// only: a record of a table without vector indexes is written in version
// 1, byte for byte as before vector indexes existed, and both versions
// are read. A HASH keyattr with an empty name is none.
//
// flags holds 1 (HadOld), 2 (HasNew, an image follows) and 4 (a sort key
// value follows). A restore holds the snapshot's items in scan order, a
// sort key value with each when the key schema has a sort key: the whole
// table, so its binary form is as large as the table's items. Old images are left out: a replay does not need them and
// they would double a log; HadOld says whether the write replaced an item.
// A table's metadata is written in key order, so equal records have equal
// bytes. The form has no checksum or framing: the log that holds it adds
// those.

// recordVersion is the version byte of the binary form;
// recordVersionVectors that of a create or restore with vector indexes.
const (
	recordVersion        = 1
	recordVersionVectors = 2
)

// Flags of a commit's write.
const (
	wHadOld  = 1
	wHasNew  = 2
	wHasSort = 4
)

// AppendRecord appends the binary form of r to dst. It fails only for a
// record no hook is given (an unknown kind, a missing definition).
func AppendRecord(dst []byte, r *Record) ([]byte, error) {
	dst = append(dst, recordVersion, byte(r.Kind))
	switch r.Kind {
	case RecordCommit:
		dst = binary.AppendUvarint(dst, uint64(len(r.Writes)))
		for i := range r.Writes {
			w := &r.Writes[i]
			flags := byte(0)
			if w.HadOld {
				flags |= wHadOld
			}
			if w.HasNew {
				flags |= wHasNew
			}
			if w.Key.Sort.IsValid() {
				flags |= wHasSort
			}
			dst = append(appendStr(dst, w.Table), flags, byte(w.Origin))
			dst = appendKeyValue(dst, w.Key.Partition)
			if w.Key.Sort.IsValid() {
				dst = appendKeyValue(dst, w.Key.Sort)
			}
			if w.HasNew {
				dst = binary.AppendUvarint(dst, uint64(w.New.size))
				dst = appendStr(dst, w.New.body)
			}
		}
	case RecordCreateTable, RecordRestoreTable:
		d := r.Def
		if d == nil || (r.Kind == RecordRestoreTable && r.From == nil) {
			return nil, fmt.Errorf("storage: %s record without a definition or a snapshot", r.Kind)
		}
		if len(d.VectorIndexes) > 0 {
			dst[len(dst)-2] = recordVersionVectors
		}
		dst = appendStr(appendStr(dst, d.ID), d.Name)
		dst = appendKeyAttr(appendKeyAttr(dst, d.Schema.Partition), d.Schema.Sort)
		dst = binary.AppendUvarint(dst, uint64(len(d.Indexes)))
		for i := range d.Indexes {
			dst = appendIndexDef(dst, &d.Indexes[i])
		}
		if len(d.VectorIndexes) > 0 {
			dst = binary.AppendUvarint(dst, uint64(len(d.VectorIndexes)))
			for i := range d.VectorIndexes {
				dst = appendVectorIndexDef(dst, &d.VectorIndexes[i])
			}
		}
		keys := slices.Sorted(maps.Keys(d.Meta))
		keys = slices.DeleteFunc(keys, func(k string) bool { return d.Meta[k] == nil })
		dst = binary.AppendUvarint(dst, uint64(len(keys)))
		for _, k := range keys {
			dst = appendStr(appendStr(dst, k), string(d.Meta[k]))
		}
		if r.Kind == RecordRestoreTable {
			dst = appendSnapshotItems(dst, r.From)
		}
	case RecordDropTable:
		dst = appendStr(dst, r.Table)
	case RecordAddIndex, RecordDropIndex:
		if r.Index == nil {
			return nil, fmt.Errorf("storage: %s record without an index", r.Kind)
		}
		dst = appendStr(dst, r.Table)
		if r.Kind == RecordAddIndex {
			dst = appendIndexDef(dst, r.Index)
		} else {
			dst = appendStr(dst, r.Index.Name)
		}
	case RecordAddVectorIndex, RecordDropVectorIndex:
		if r.VectorIndex == nil {
			return nil, fmt.Errorf("storage: %s record without a vector index", r.Kind)
		}
		dst = appendStr(dst, r.Table)
		if r.Kind == RecordAddVectorIndex {
			dst = appendVectorIndexDef(dst, r.VectorIndex)
		} else {
			dst = appendStr(dst, r.VectorIndex.Name)
		}
	case RecordMeta:
		dst = appendStr(appendStr(dst, r.Table), r.Key)
		if r.Value == nil {
			dst = append(dst, 0)
		} else {
			dst = appendStr(append(dst, 1), string(r.Value))
		}
	default:
		return nil, fmt.Errorf("storage: record kind %d", r.Kind)
	}
	return dst, nil
}

// appendSnapshotItems appends the count and the items of s, in scan order.
func appendSnapshotItems(dst []byte, s *TableSnapshot) []byte {
	dst = binary.AppendUvarint(dst, uint64(s.count))
	s.ScanEncoded(ScanRange{}, func(e EncodedItem) bool {
		k := e.Key()
		dst = appendKeyValue(dst, k.Partition)
		if s.ks.HasSort() {
			dst = appendKeyValue(dst, k.Sort)
		}
		dst = binary.AppendUvarint(dst, uint64(e.size))
		dst = appendStr(dst, e.body)
		return true
	})
	return dst
}

func appendKeyValue(dst []byte, v Value) []byte {
	return appendStr(append(dst, byte(v.kind)), v.str)
}

func appendKeyAttr(dst []byte, a KeyAttr) []byte {
	return append(appendStr(dst, a.Name), byte(a.Kind))
}

func appendIndexDef(dst []byte, x *IndexDef) []byte {
	dst = appendStr(dst, x.Name)
	for _, attrs := range [][]KeyAttr{x.Schema.Partition, x.Schema.Sort} {
		dst = binary.AppendUvarint(dst, uint64(len(attrs)))
		for _, a := range attrs {
			dst = appendKeyAttr(dst, a)
		}
	}
	return appendProjection(dst, &x.Projection)
}

// appendProjection appends an index's projection: a byte for ALL, then
// the non-key attributes.
func appendProjection(dst []byte, p *Projection) []byte {
	all := byte(0)
	if p.All {
		all = 1
	}
	dst = binary.AppendUvarint(append(dst, all), uint64(len(p.NonKey)))
	for _, n := range p.NonKey {
		dst = appendStr(dst, n)
	}
	return dst
}

func appendVectorIndexDef(dst []byte, x *VectorIndexDef) []byte {
	dst = appendStr(appendStr(dst, x.Name), x.Attribute)
	dst = append(binary.AppendUvarint(dst, uint64(x.Dimensions)), byte(x.Distance))
	dst = appendKeyAttr(dst, x.Hash)
	dst = binary.AppendUvarint(dst, uint64(len(x.Filters)))
	for _, a := range x.Filters {
		dst = appendKeyAttr(dst, a)
	}
	return appendProjection(dst, &x.Projection)
}

// ParseRecord parses the binary form of a record (AppendRecord). It never
// panics: malformed input gives an error wrapping ErrCorrupt. The
// record's strings and images share one copy of b. Its item images are
// for DB.Apply: they hold their key values and size but not the names of
// the key attributes, which the table's key schema gives when they are
// applied, so their Key and Size methods work and the others do not.
// Old images are absent (see the binary form).
func ParseRecord(b []byte) (*Record, error) { return parseRecord(string(b)) }

// parseRecord is ParseRecord of the binary form s.
func parseRecord(s string) (*Record, error) { return parseRecordWith(s, true, nil) }

// parseRecordWith is parseRecord, checking a commit's item images or not.
// into, when not nil, is the record parsed into, its Writes' array
// reused when large enough.
func parseRecordWith(s string, checkImages bool, into *Record) (*Record, error) {
	d := decoder{s: s}
	v := d.byte()
	if d.err == nil && v != recordVersion && v != recordVersionVectors {
		return nil, d.fail(fmt.Sprintf("record version %d", v))
	}
	r := into
	if r == nil {
		r = &Record{}
	}
	*r = Record{Kind: RecordKind(d.byte()), Writes: r.Writes[:0]}
	if v == recordVersionVectors && r.Kind != RecordCreateTable && r.Kind != RecordRestoreTable {
		return nil, d.fail(fmt.Sprintf("record version %d of a %s record", v, r.Kind))
	}
	switch r.Kind {
	case RecordCommit:
		d.commitWrites(r, checkImages)
	case RecordCreateTable, RecordRestoreTable:
		def := d.tableDef(v == recordVersionVectors)
		r.Def, r.Table = def, def.ID
		if r.Kind == RecordRestoreTable && d.err == nil {
			r.From = d.snapshotItems(def)
		}
	case RecordDropTable:
		r.Table = d.str()
	case RecordAddIndex:
		r.Table = d.str()
		x := d.indexDef()
		r.Index = &x
	case RecordDropIndex:
		r.Table = d.str()
		r.Index = &IndexDef{Name: d.str()}
	case RecordAddVectorIndex:
		r.Table = d.str()
		x := d.vectorIndexDef()
		if d.err == nil {
			if err := x.Validate(); err != nil {
				d.fail(err.Error())
			}
		}
		r.VectorIndex = &x
	case RecordDropVectorIndex:
		r.Table = d.str()
		r.VectorIndex = &VectorIndexDef{Name: d.str()}
	case RecordMeta:
		r.Table, r.Key = d.str(), d.str()
		switch d.byte() {
		case 0:
		case 1:
			r.Value = []byte(d.str())
		default:
			d.fail("bad metadata flag")
		}
	default:
		d.fail(fmt.Sprintf("record kind %d", r.Kind))
	}
	if d.err == nil && d.pos != len(d.s) {
		d.fail("trailing bytes")
	}
	if d.err != nil {
		return nil, d.err
	}
	r.unchecked = !checkImages && r.Kind == RecordCommit
	return r, nil
}

// commitWrites reads a commit's writes into r, its Writes' array
// reused when large enough, checking their item images or not.
func (d *decoder) commitWrites(r *Record, checkImages bool) {
	n := d.count()
	if d.err == nil {
		if cap(r.Writes) >= n {
			r.Writes = r.Writes[:n]
			clear(r.Writes)
		} else {
			r.Writes = make([]ItemWrite, n)
		}
	}
	for i := 0; i < n && d.err == nil; i++ {
		w := &r.Writes[i]
		w.Table = d.str()
		flags, origin := d.byte(), d.byte()
		if flags&^(wHadOld|wHasNew|wHasSort) != 0 || origin > byte(OriginReplica) {
			d.fail("bad write flags")
		}
		w.HadOld, w.HasNew, w.Origin = flags&wHadOld != 0, flags&wHasNew != 0, Origin(origin)
		w.Key.Partition = d.keyValue()
		if flags&wHasSort != 0 {
			w.Key.Sort = d.keyValue()
		}
		w.New.key = w.Key
		if w.HasNew {
			size := d.uvarint()
			if size > 1<<32-1 {
				d.fail("item size")
			}
			w.New.size = uint32(size)
			w.New.body = d.str()
			if d.err == nil && checkImages {
				d.checkImage(w.New.body)
			}
		}
	}
}

// tableDef reads a created or restored table's definition: its names,
// key schema, indexes, vector indexes (when vectors, a version 2
// record) and metadata.
func (d *decoder) tableDef(vectors bool) *TableDef {
	def := &TableDef{ID: d.str(), Name: d.str()}
	def.Schema.Partition, def.Schema.Sort = d.keyAttr(), d.keyAttr()
	n := d.count()
	for i := 0; i < n && d.err == nil; i++ {
		def.Indexes = append(def.Indexes, d.indexDef())
	}
	if vectors {
		n = d.count()
		if n == 0 {
			d.fail("version 2 record without vector indexes")
		}
		for i := 0; i < n && d.err == nil; i++ {
			def.VectorIndexes = append(def.VectorIndexes, d.vectorIndexDef())
		}
	}
	n = d.count()
	prev := ""
	for i := 0; i < n && d.err == nil; i++ {
		k, v := d.str(), d.str()
		if i > 0 && k <= prev {
			d.fail("metadata keys out of order")
		}
		prev = k
		if def.Meta == nil {
			def.Meta = make(map[string][]byte, n)
		}
		def.Meta[k] = []byte(v)
	}
	return def
}

// snapshotItems reads a restore's items into a snapshot of the table def
// defines (TableBuilder, which checks them).
func (d *decoder) snapshotItems(def *TableDef) *TableSnapshot {
	b, err := NewTableBuilder(*def)
	if err != nil {
		d.fail("restore-table definition: " + err.Error())
		return nil
	}
	n := d.count()
	for i := 0; i < n && d.err == nil; i++ {
		e := EncodedItem{key: Key{Partition: d.keyValue()}}
		if def.Schema.HasSort() {
			e.key.Sort = d.keyValue()
		}
		size := d.uvarint()
		if size > 1<<32-1 {
			d.fail("item size")
		}
		e.size, e.body = uint32(size), d.str()
		if d.err == nil {
			if err := b.Add(e); err != nil {
				d.fail(fmt.Sprintf("restore-table item %d: %v", i, err))
			}
		}
	}
	if d.err != nil {
		return nil
	}
	s, err := b.Finish()
	if err != nil {
		d.fail("restore-table indexes: " + err.Error())
	}
	return s
}

// keyValue reads a key value: a scalar key kind, and canonical text for N.
func (d *decoder) keyValue() Value {
	k, s := Kind(d.byte()), d.str()
	if d.err != nil {
		return Value{}
	}
	if !k.IsScalarKey() {
		d.fail("key value kind")
		return Value{}
	}
	if k == KindN && !isCanonicalNumber(s) {
		d.fail("key number not canonical")
		return Value{}
	}
	return Value{kind: k, str: s}
}

func (d *decoder) keyAttr() KeyAttr {
	return KeyAttr{Name: d.str(), Kind: Kind(d.byte())}
}

func (d *decoder) indexDef() IndexDef {
	x := IndexDef{Name: d.str()}
	for _, attrs := range []*[]KeyAttr{&x.Schema.Partition, &x.Schema.Sort} {
		n := d.count()
		for i := 0; i < n && d.err == nil; i++ {
			*attrs = append(*attrs, d.keyAttr())
		}
	}
	x.Projection = d.projection()
	return x
}

func (d *decoder) vectorIndexDef() VectorIndexDef {
	x := VectorIndexDef{Name: d.str(), Attribute: d.str()}
	dims := d.uvarint()
	if dims > MaxVectorDimensions {
		d.fail("vector dimensions")
	}
	x.Dimensions = int(dims)
	x.Distance = DistanceFunction(d.byte())
	x.Hash = d.keyAttr()
	n := d.count()
	for i := 0; i < n && d.err == nil; i++ {
		x.Filters = append(x.Filters, d.keyAttr())
	}
	x.Projection = d.projection()
	return x
}

// projection reads what appendProjection wrote.
func (d *decoder) projection() Projection {
	var p Projection
	switch d.byte() {
	case 0:
	case 1:
		p.All = true
	default:
		d.fail("bad projection flag")
	}
	n := d.count()
	for i := 0; i < n && d.err == nil; i++ {
		p.NonKey = append(p.NonKey, d.str())
	}
	return p
}

// checkImage fails unless body is a well-formed item image whose numbers
// are canonical, as the table stores them (image.go).
func (d *decoder) checkImage(body string) {
	if _, err := checkImage(body, "", ""); err != nil {
		d.fail("item image: " + err.Error())
	}
}
